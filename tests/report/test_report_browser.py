"""report.html in a real headless browser (Chromium from Debian's ``chromium`` package,
installed by ``make setup`` / ``make test`` where apt is available): the page renders, every
image is embedded and decodes (naturalWidth > 0, no ``plots/`` link), and the verdict is on
the first screen (its heading's top < 900 px in a 1280 x 900 window)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

PROBE = """
<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var v = document.getElementById("verdict");
  var list = v ? v.nextElementSibling : null;
  var out = {
    images: imgs.map(function (i) { return {w: i.naturalWidth, h: i.naturalHeight, complete: i.complete,
                                            src: i.getAttribute("src").slice(0, 22)}; }),
    verdict_top: v ? v.getBoundingClientRect().top : null,
    verdict_list_bottom: list ? list.getBoundingClientRect().bottom : null,
    verdict_text: list ? list.innerText : "",
    width: window.innerWidth, height: window.innerHeight,
    title: document.title
  };
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _probe(browser: str, html_path) -> dict:
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,900",
           "--virtual-time-budget=10000", "--dump-dom", html_path.as_uri()]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="probe">(.*?)</pre>', res.stdout, re.S)
    assert m, f"no probe output; rc={res.returncode} stderr={res.stderr[-2000:]}"
    import html

    return json.loads(html.unescape(m.group(1)))


@pytest.fixture(scope="module")
def browser():
    path = _chromium()
    if path is None:
        pytest.skip("no headless browser: install Debian's chromium (`apt-get install -y chromium`, done by "
                    "`make setup` where apt is available) to check report.html in a browser")
    return path


def _probed(browser: str, tmp_path, out) -> dict:
    page = tmp_path / "probe.html"
    text = (out / "report.html").read_text()
    page.write_text(text.replace("</body>", PROBE + "</body>"))  # a copy: nothing beside it, no plots/
    return _probe(browser, page)


def test_report_renders_with_embedded_images_and_the_verdict_on_the_first_screen(browser, race_report, tmp_path):
    out = race_report[0]
    got = _probed(browser, tmp_path, out)
    assert got["title"] == "Fake Race: fake_race"
    # a 1280 x 900 window (headless Chromium gives the page ~810 px of it: stricter than 900)
    assert got["width"] == 1280 and 700 <= got["height"] <= 900
    n_png = len(list((out / "plots").glob("*.png")))
    assert len(got["images"]) == n_png == 6
    for img in got["images"]:
        assert img["src"].startswith("data:image/png;base64"), img
        assert img["complete"] and img["w"] > 0 and img["h"] > 0, img
    assert got["verdict_top"] is not None and 0 <= got["verdict_top"] < min(900, got["height"])
    # the whole verdict list is on the first screen, and it says the seat spread
    assert got["verdict_list_bottom"] < got["height"], got
    assert "Seat balance: seat spread" in got["verdict_text"]


def test_cooperative_report_in_the_browser(browser, make_coop, tmp_path):
    from sim.report import write_report

    cfg, gdef, df, summary, manifest = make_coop()
    out = write_report(tmp_path / "coop", cfg, gdef, df, summary, manifest)
    got = _probed(browser, tmp_path, out)
    assert got["images"] and all(i["w"] > 0 for i in got["images"])
    assert 0 <= got["verdict_top"] < min(900, got["height"])
    assert "Team result: the team wins" in got["verdict_text"]


def test_compare_html_in_the_browser(browser, tmp_path):
    """`sim compare`'s compare.html: one file (a copy alone in its folder renders), every plot
    embedded and decoded, the verdict on the first screen."""
    from pathlib import Path

    from typer.testing import CliRunner

    from sim.cli import app

    cft = Path(__file__).resolve().parents[2] / "configs" / "clear_for_takeoff.toml"
    out = tmp_path / "cmp"
    r = CliRunner().invoke(app, ["compare", str(cft), str(cft), "--games", "100", "--out", str(out), "--quiet",
                                 "--set-b", "clear_for_takeoff.deck.FLR=2"])
    assert r.exit_code == 0, r.output
    page = tmp_path / "alone" / "compare.html"
    page.parent.mkdir()
    page.write_text((out / "compare.html").read_text().replace("</body>", PROBE + "</body>"))
    got = _probe(browser, page)
    # both sides are clear_for_takeoff: each is named by the changed key and its value
    assert got["title"] == "sim compare: A: deck.FLR=4 vs B: deck.FLR=2"
    assert len(got["images"]) == len(list(out.glob("*.png"))) == 3
    for img in got["images"]:
        assert img["src"].startswith("data:image/png;base64"), img
        assert img["complete"] and img["w"] > 0 and img["h"] > 0, img
    assert 0 <= got["verdict_top"] < min(900, got["height"])
    assert got["verdict_text"].startswith("verdict: ") and "100 games each on seed 20261129" in got["verdict_text"]


# ---------------------------------------------------------------------------- every page kind
# A page of each kind sim writes (run report, sweep, skill, compare, sensitivity, tune), made from the
# shipped configs with few games, opened in the browser: no text reaches past its box or the page
# column, the verdict is on the first screen, and every plot it embeds passed
# sim.report.figcheck when it was saved (tick labels distinct, no text cut off or drawn over
# another).

LAYOUT_PROBE = """
<script>
window.addEventListener("load", function () {
  var main = document.querySelector("main") || document.body;
  var mr = main.getBoundingClientRect();
  var bad = [];
  var els = main.querySelectorAll("*");
  for (var i = 0; i < els.length; i++) {
    var e = els[i];
    var r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    var what = e.tagName.toLowerCase() + " " + JSON.stringify((e.innerText || e.getAttribute("alt") || "").slice(0, 70));
    if (r.right > mr.right + 1 || r.left < mr.left - 1) {
      bad.push("outside the page column (" + Math.round(r.left) + ".." + Math.round(r.right) + " of " +
               Math.round(mr.left) + ".." + Math.round(mr.right) + "): " + what);
    } else if (getComputedStyle(e).display !== "inline" && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) {
      bad.push("text wider than its box (" + e.scrollWidth + " > " + e.clientWidth + "): " + what);
    }
  }
  var v = document.getElementById("verdict");
  var list = v ? (v.tagName === "P" ? v : v.nextElementSibling) : null;  // a heading, or the bold lead paragraph
  var out = {
    overflow: bad.slice(0, 20),
    page_width: document.documentElement.scrollWidth,
    images: Array.prototype.map.call(document.images, function (i) { return i.naturalWidth; }),
    verdict_top: v ? v.getBoundingClientRect().top : null,
    verdict_bottom: list ? list.getBoundingClientRect().bottom : null,
    verdict_text: list ? list.innerText : "",
    width: window.innerWidth, height: window.innerHeight
  };
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
CFT = ROOT / "configs" / "clear_for_takeoff.toml"
PAGES = {
    # kind: (sim arguments before --out, the page file)
    "run_yukon": (["run", str(ROOT / "configs" / "yukon_airways.toml"), "--games", "200"], "report.html"),
    "run_now_boarding": (["run", str(ROOT / "configs" / "now_boarding_2p.toml"), "--games", "60"], "report.html"),
    "sweep": (["sweep", str(CFT), "--param", "clear_for_takeoff.hand_size=8,9,10", "--games", "48"], "sweep.html"),
    "skill": (["skill", str(CFT), "--policies", "random,greedy", "--games", "24"], "skill.html"),
    "compare": (["compare", str(CFT), str(CFT), "--games", "60", "--set-b", "clear_for_takeoff.deck.FLR=2"],
                "compare.html"),
    "sensitivity": (["sensitivity", str(CFT), "--keys", "clear_for_takeoff.hand_size", "--games", "48"],
                    "sensitivity.html"),
    "tune": (["tune", str(ROOT / "configs" / "yukon_airways.toml"), "--budget", "6", "--games", "400",
              "--confirm-games", "400"], "tune.html"),
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory, saved_figures):
    """kind -> (page path, figure problems, figures saved): each page written once per module."""
    from typer.testing import CliRunner

    from sim.cli import app

    made = {}
    for kind, (args, page) in PAGES.items():
        out = tmp_path_factory.mktemp(kind) / "out"
        with saved_figures() as figs:
            r = CliRunner().invoke(app, [*args, "--out", str(out), "--quiet", "--threads", "1"])
        assert r.exit_code == 0, (kind, r.output)
        made[kind] = (out / page, figs.problems, figs.saved)
    return made


@pytest.mark.parametrize("kind", list(PAGES))
def test_every_plot_of_every_page_kind_has_distinct_ticks_and_no_clipped_or_overlapping_text(pages, kind):
    _page, problems, saved = pages[kind]
    assert saved, f"{kind}: no figure saved"
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("kind", list(PAGES))
def test_every_page_kind_fits_its_column_with_the_verdict_on_the_first_screen(browser, pages, kind, tmp_path):
    page, _problems, _saved = pages[kind]
    alone = tmp_path / page.name  # a copy alone in its folder: every plot must be embedded
    alone.write_text(page.read_text().replace("</body>", LAYOUT_PROBE + "</body>"))
    got = _probe(browser, alone)
    assert got["overflow"] == [], "\n".join(got["overflow"])
    assert got["page_width"] <= got["width"], got["page_width"]
    assert got["images"] and all(w > 0 for w in got["images"]), got["images"]
    assert got["verdict_top"] is not None, f"{kind}: no verdict heading"
    assert 0 <= got["verdict_top"] and got["verdict_bottom"] <= got["height"], (got["verdict_top"],
                                                                                 got["verdict_bottom"], got["height"])
    assert got["verdict_text"].strip()
