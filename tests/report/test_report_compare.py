"""compare_plots: overlaid plots of two runs."""

from __future__ import annotations

from sim.report.compare_plots import compare_plots

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_compare_competitive_with_frames(tmp_path, competitive):
    _, _, a_df, a, _ = competitive
    b = dict(a, metrics=[dict(r, value=r["value"] * 0.9) if r["metric"] == "win_rate" else r for r in a["metrics"]])
    b_df = a_df.with_columns(a_df["turns"] + 10)
    folder = tmp_path / "cmp" / "plots"
    paths = compare_plots(a, b, "baseline", "variant", folder, a_df=a_df, b_df=b_df)
    assert [p.name for p in paths] == ["compare_win_rate_seat.png", "compare_win_rate_policy.png",
                                       "compare_game_length.png"]
    for p in paths:
        assert p.parent == folder
        data = p.read_bytes()
        assert data[:8] == PNG_MAGIC and len(data) > 5000


def test_compare_without_frames_and_cooperative(tmp_path, cooperative):
    _, _, _, a, _ = cooperative
    b = dict(a, metrics=[dict(r, value=0.5) if r["metric"] == "win_rate" else r for r in a["metrics"]])
    paths = compare_plots(a, b, "A", "B", tmp_path / "c")
    assert [p.name for p in paths] == ["compare_win_rate.png"]
    assert paths[0].read_bytes()[:8] == PNG_MAGIC


def test_compare_different_seat_counts(tmp_path, competitive):
    _, _, _, a, _ = competitive
    b = dict(a, seats=a["seats"][:3],
             metrics=[r for r in a["metrics"] if not (r["metric"] == "win_rate" and r["by"].get("seat") == 3)])
    paths = compare_plots(a, b, "4 seats", "3 seats", tmp_path / "c")
    assert paths[0].name == "compare_win_rate_seat.png"
    assert paths[0].read_bytes()[:8] == PNG_MAGIC
