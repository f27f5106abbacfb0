"""`sim replay` reads like a game at the table: each day (RB Spielablauf) with its docks, the
boarding turns, the flights, the income, the maintenance (RB Wartungsphase a-d) with its dice
rolls, the return to Whitehorse, and the end money (RB Spielende)."""

from __future__ import annotations

from tests.games.yukon_airways.conftest import make_run


def test_replay_shows_days_maintenance_rolls_and_the_return_to_whitehorse():
    run = make_run()
    res = run.game.trace(run, 0)
    text = "\n".join(res.lines)
    days = [i for i, line in enumerate(res.lines) if line.startswith("day ")]
    maint = [i for i, line in enumerate(res.lines) if line.startswith("  maintenance (RB Wartungsphase)")]
    back = [i for i, line in enumerate(res.lines) if line == "  planes back to Whitehorse; the day marker moves on"]
    assert len(days) == 6 and "day 1 (Tuesday)" in text and "day 6 (Sunday)" in text
    assert len(maint) == 5 and len(back) == 5  # RULES.md S5: no maintenance after Sunday
    for m, b, d in zip(maint, back, days[1:]):
        assert m < b < d
        assert "income:" in res.lines[m - 1]  # the maintenance follows every seat's income
        rolls = [line for line in res.lines[m:b] if " rolls " in line]
        assert all(line.split("rolls ")[1] == f"{line.split('rolls ')[1][0]}: dock {line.split('rolls ')[1][0]}"
                   for line in rolls)  # a die lies on the dock of its face
    assert sum(" rolls " in line for line in res.lines[:days[0]]) == 0  # set-up rolls: the docks line
    assert text.count("end money:") == 4 and res.row["turns"] > 0
