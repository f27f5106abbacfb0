"""Issue 40 item 0: false alarms and power of sim check, old rule (SPRT 'outside' fails) vs
new rule (SPRT only stops; verdict = significant and beyond tolerance), from the same looks.

usage: measure.py CONFIG BASELINE.json OUT.jsonl --set ... [--set ...]
Plays every look (2,500 .. 20,000) once and evaluates both stopping rules on them."""
import json
import sys
from pathlib import Path

from sim.api import run_config
from sim.check import check_summary, load_baseline
from sim.check.gate import sequential_decision
from sim.cli_regress import _looks, _per_game, load_for_run
from sim.compile import compile_run


def old_settled(state):
    return all(v != "open" for v in state.values()) or "outside" in state.values()


def new_settled(rep, state):
    rows = {r.label: r for r in rep.rows}
    if any(v == "outside" and rows[k].verdict == "FAIL" for k, v in state.items() if k in rows):
        return True
    return all(v == "inside" for v in state.values())


def old_fails(rep, state):
    out = []
    for r in rep.rows:
        st = state.get(r.label)
        f = r.verdict in ("FAIL", "missing")
        if st == "outside":
            f = True
        elif st == "inside" and r.verdict == "FAIL":
            f = False
        if f:
            out.append(r.label)
    return out


def new_fails(rep):
    return [r.label for r in rep.rows if r.verdict in ("FAIL", "missing")]


def main():
    config, basef, outf = sys.argv[1:4]
    sets = [a for i, a in enumerate(sys.argv) if i > 4 and sys.argv[i - 1] == "--set"]
    base = load_baseline(basef)
    run, checks = load_for_run(Path(config), None, sets)
    cfg = run.cfg
    looks = []
    for k in _looks(cfg.games, checks.looks):
        r = run if k == cfg.games else compile_run(cfg.with_overrides(games=k))
        res = run_config(r, threads=1, keep_frame=True, write_rows=False)
        rep = check_summary(base, res.summary, checks, res.manifest, _per_game(res), cfg.games)
        looks.append((k, rep, sequential_decision(rep, checks)))
    out = {"config": config, "sets": sets, "baseline": basef}
    for name, settled, fails in (("old", lambda rep, st: old_settled(st), old_fails),
                                 ("new", new_settled, lambda rep, st: new_fails(rep))):
        for i, (k, rep, st) in enumerate(looks):
            if settled(rep, st) or i == len(looks) - 1:
                out[name] = {"stopped_at": k, "fails": fails(rep, st)}
                break
    k, rep, st = looks[-1]
    out["changes_at_20000"] = {r.label: r.change for r in rep.rows if r.headline and r.change is not None}
    out["tolerance"] = {r.label: r.tolerance for r in rep.rows if r.headline and r.tolerance is not None}
    with open(outf, "a") as f:
        f.write(json.dumps(out) + "\n")
    print(json.dumps({k: out[k] for k in ("sets", "old", "new")}))


main()
