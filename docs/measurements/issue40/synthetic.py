"""Issue 40 item 0: the gate's false-alarm rate and power on synthetic paired checks, old rule
(SPRT acceptance of the tolerance fails) vs new rule (SPRT only stops; verdict significant and
beyond tolerance). 19 gated rate metrics at 25 %, baseline 20,000 games, looks 2,500 .. 20,000
from game 0, per-game correlation ~0.8 between baseline and check (a change that keeps the deals);
metric 0 moves by delta, the others not. Tolerance 1 point, alpha 0.05, power 0.8 (the shipped
[checks])."""
import json
import sys

import numpy as np

import sim.check.paired as _paired
from sim.check.files import make_baseline
from sim.check.gate import check_summary, sequential_decision
from sim.config import CheckConfig

_orig_decode = _paired.decode
_paired.decode = lambda e: e if isinstance(e, dict) and "records" not in e else _orig_decode(e)  # skip zlib

M, N, P, Q = 19, 20_000, 0.25, 0.8
LOOKS = [2500, 5000, 10000, 20000]
checks = CheckConfig(tolerance=0.01)


def summ(w, seed=1):
    n = w.shape[0]
    recs = []
    for j in range(M):
        x = int(w[:, j].sum())
        p = x / n
        recs.append({"metric": "win_rate", "by": {"seat": j}, "kind": "proportion", "value": p, "ci_low": None,
                     "ci_high": None, "n": n, "successes": x})
    return {"game": "g", "run": "r", "seed": seed, "games": n, "config_hash": "h", "seats": ["a", "b"],
            "metrics": recs}


def pg(w):
    one = np.ones(w.shape[0])
    return {f"win_rate[seat={j}]": (w[:, j].astype(float), one) for j in range(M)}


def old_settled(st):
    return all(v != "open" for v in st.values()) or "outside" in st.values()


def new_settled(rep, st):
    rows = {r.label: r for r in rep.rows}
    return any(v == "outside" and rows[k].verdict == "FAIL" for k, v in st.items()) or all(
        v == "inside" for v in st.values())


def old_fail(rep, st):
    f = set()
    for r in rep.rows:
        s = st.get(r.label)
        if s == "outside" or (r.verdict == "FAIL" and s != "inside"):
            f.add(r.label)
    return f


def one(rng, delta):
    u = rng.random((N, M))
    wa = u < P
    keep = rng.random((N, M)) < Q
    u2 = np.where(keep, u, rng.random((N, M)))
    thr = np.full(M, P)
    thr[0] += delta
    wb = u2 < thr
    base = {**make_baseline(summ(wa)), "per_game": pg(wa)}  # decoded as it is (see _decode)
    res = {}
    looks = []
    for k in LOOKS:
        rep = check_summary(base, summ(wb[:k]), checks, per_game=pg(wb[:k]), max_games=N)
        looks.append((k, rep, sequential_decision(rep, checks)))
    for name, settled, fails in (("old", lambda rep, st: old_settled(st), old_fail),
                                 ("new", new_settled, lambda rep, st: {r.label for r in rep.rows if r.verdict == "FAIL"})):
        for i, (k, rep, st) in enumerate(looks):
            if settled(rep, st) or i == len(looks) - 1:
                f = fails(rep, st)
                res[name] = (k, bool(f), "win_rate[seat=0]" in f, len(f - {"win_rate[seat=0]"}) > 0)
                break
    res["change20k"] = looks[-1][1].rows[0].change
    return res


def main():
    delta, reps, seed = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = np.random.default_rng(seed)
    out = [one(rng, delta) for _ in range(reps)]
    agg = {"delta_pp": 100 * delta, "reps": reps}
    for name in ("old", "new"):
        agg[name] = {"any_fail": sum(o[name][1] for o in out) / reps,
                     "moved_metric_fails": sum(o[name][2] for o in out) / reps,
                     "unchanged_metric_fails": sum(o[name][3] for o in out) / reps,
                     "mean_games": sum(o[name][0] for o in out) / reps}
    agg["mean_change_pp"] = 100 * float(np.mean([o["change20k"] for o in out]))
    print(json.dumps(agg))


main()
