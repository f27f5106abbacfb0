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
    assert got["title"] == "sim compare: A:clear_for_takeoff vs B:clear_for_takeoff"
    assert len(got["images"]) == len(list(out.glob("*.png"))) == 3
    for img in got["images"]:
        assert img["src"].startswith("data:image/png;base64"), img
        assert img["complete"] and img["w"] > 0 and img["h"] > 0, img
    assert 0 <= got["verdict_top"] < min(900, got["height"])
    assert got["verdict_text"].startswith("verdict: ") and "100 games each on seed 20261129" in got["verdict_text"]
