"""Result columns of the Now Boarding kernel (int32, matrix order); pure Python, no numba."""

from __future__ import annotations

from sim.games.now_boarding.layout import NRT

COLUMN_NAMES = [
    "turns", "stalled", "reshuffles", "starved_draws", "team_win",
    "complaints", "complaints_anger", "complaints_leftover", "complaints_vip", "lost_early",
    "loss_stage", "loss_round", "delivered", "left_over", "fares", "spent", "wasted",
    "upg_seat", "upg_speed", "upg_route", "upg_temp_seat", "upg_temp_speed",
    "rounds_morning", "rounds_afternoon", "rounds_evening", "rounds_final",
    "complaints_ATL", "complaints_DEN", "complaints_DFW", "complaints_JFK", "complaints_LAX",
    "complaints_MIA", "complaints_ORD", "complaints_SEA", "complaints_SFO",
] + [f"upgrades_r{r}" for r in range(1, NRT + 1)] + ["vips_taken"] + [
    f"upg_{k}_{s}" for k in ("seat", "speed", "route") for s in ("morning", "afternoon", "evening")]
O_TURNS, O_STALLED, O_RESH, O_STARVED, O_WIN = 0, 1, 2, 3, 4
O_COMPL, O_C_ANGER, O_C_LEFT, O_C_VIP, O_LOST_EARLY = 5, 6, 7, 8, 9
O_LOSS_STAGE, O_LOSS_ROUND, O_DELIV, O_LEFT, O_FARES, O_SPENT, O_WASTED = 10, 11, 12, 13, 14, 15, 16
O_UPG = 17  # [5]
O_RPS = 22  # [4]
O_CAIR = 26  # [9]
O_UPGR = 35  # [NRT]
O_VIPS = O_UPGR + NRT
O_UPGKS = O_VIPS + 1  # [9] kind x stage
O_SEAT = O_UPGKS + 9  # per-seat blocks: plane_fares_s*, plane_delivered_s*
N_FIXED = O_SEAT
assert len(COLUMN_NAMES) == N_FIXED
