"""Temperature (issue 38): the engine's ``temperature`` weight on every scoring policy of every
game (``sim.games.base.ENGINE_WEIGHTS``, ``sim.games.engine.boltzmann`` / ``prefer``, the
dispatch of ``sim.games.loop`` and each game's ``scores`` hook).

* ``temperature = 0`` (explicit, on every seat) plays bit for bit as the game as shipped;
* a temperature never changes a deal: the dealt cards / dice of games 0-99 are the same with
  every seat playing softened, while the games played differ;
* exactly the policies a game declares ``scored`` are softened, and the config refuses a
  temperature on any other (and a negative one), naming the key; a softened seat is named apart;
* each game's ``scores`` hook scores what its policy's own choice maximises: at real positions
  of real games the hook's best option is the policy's own choice (where the best is unique);
* the engine's pick over those scores: a tiny temperature plays the best option, temperature 1
  the softmax frequencies, a huge one every option alike (chi-square tests, scipy);
* a paired run: a Clear for Takeoff seat wins less with a temperature than without.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from scipy import stats

from sim.compile import compile_run, load_run, run_from_dict
from sim.errors import ConfigError
from sim.games import available, get_game
from sim.games.engine import W_TEMPERATURE, boltzmann, seat_policies
from sim.runner import run_games
from tests.conftest import runner_config

GAMES = available()


def _seats(run, policy: str, **weights) -> list[dict]:
    """Every seat of ``run`` playing ``policy`` with ``weights``."""
    return [{"policy": policy, "weights": dict(weights)}] * run.n_seats


def _scored(gdef) -> list[str]:
    return [p.name for p in gdef.policies if p.scored]


def test_every_game_has_a_scoring_policy():
    """Every game softens greedy and heuristic (a game without a scoring policy would take the
    weight for nothing)."""
    for name in GAMES:
        assert {"greedy", "heuristic"} <= set(_scored(get_game(name))), name


@pytest.mark.parametrize("name", GAMES)
def test_temperature_zero_draws_nothing(name):
    """``temperature = 0`` on every seat (every policy takes it, scoring or not) is the game as
    shipped, bit for bit."""
    base = load_run(runner_config(name), games=60)
    seats = []
    for s in base.cfg.raw["seats"]:
        d = {"policy": s} if isinstance(s, str) else {**s}
        d["weights"] = {**d.get("weights", {}), "temperature": 0.0}
        seats.append(d)
    assert np.array_equal(run_games(compile_run(base.cfg.with_overrides(seats=seats))), run_games(base))


@pytest.mark.parametrize("name", GAMES)
def test_temperature_never_changes_a_deal(name):
    """Every seat greedy at temperature 5 against every seat greedy: the dealt cards (dice,
    weather plan ...) of games 0-99 are the same; the games themselves differ."""
    gdef = get_game(name)
    base = load_run(runner_config(name), games=100)
    plain = compile_run(base.cfg.with_overrides(seats=_seats(base, "greedy")))
    hot = compile_run(base.cfg.with_overrides(seats=_seats(base, "greedy", temperature=5.0)))
    assert (hot.entry_weights[:, W_TEMPERATURE] == 5.0).all()
    for g in range(100):
        assert gdef.GameState.from_run(hot, g).dealt() == gdef.GameState.from_run(plain, g).dealt(), f"game {g}"
    assert not np.array_equal(run_games(hot), run_games(plain))


@pytest.mark.parametrize("name", GAMES)
def test_exactly_the_scored_policies_are_softened(name):
    """A seat (a cooperative game: the team) of every ``scored`` policy at a huge temperature
    plays other games than without one; every other policy refuses a temperature, naming the key and
    the policies that take one."""
    gdef = get_game(name)
    base = load_run(runner_config(name), games=40)
    for p in gdef.policies:
        budget = {"rollouts": 1, "depth": 1} if p.lookahead else {}
        tables = []
        for hot in (True, False):
            entry = {"policy": p.name, "weights": {**({"temperature": 1e9} if hot else {}), **budget}}
            seats = list(base.cfg.raw["seats"])
            tables.append([entry] * len(seats) if gdef.mode == "cooperative" else [entry] + seats[1:])
        seats = tables[0]
        if p.scored:
            a = run_games(compile_run(base.cfg.with_overrides(seats=seats)))
            b = run_games(compile_run(base.cfg.with_overrides(seats=tables[1])))
            assert not np.array_equal(a, b), f"{name}: {p.name} at a huge temperature plays as at 0"
        else:
            with pytest.raises(ConfigError) as e:
                compile_run(base.cfg.with_overrides(seats=seats))
            assert e.value.key.endswith(".weights.temperature"), e.value.key
            assert "does not score its options" in str(e.value) and "greedy" in str(e.value)


# ---- the scores hooks at real positions, and the engine's pick over them ---------------------
def _positions(name: str, policy: str, games: int = 12):
    """``(hooks, run, [(state, work, n, w)])``: the positions at the snapshots of ``games`` games of
    ``name`` with every seat on ``policy`` (a replay's snapshots), each with its legal actions
    (n >= 2) in a fresh work tuple and the deciding seat's weight row."""
    gdef = get_game(name)
    hooks = importlib.import_module(f"{gdef.package}.hooks")
    base = load_run(runner_config(name), games=games)
    run = compile_run(base.cfg.with_overrides(seats=_seats(base, policy)))
    pol = importlib.import_module(f"{gdef.package}.policies")
    out = []
    for g in range(games):
        _, _, snaps, _ = hooks.KERNELS.run_traced(run, g)
        pids, W = seat_policies(run.entry_policy, run.entry_weights, run.perms, np.int64(g))
        if hasattr(pol, "seat_weights"):  # Yukon: greedy's fixed weights, as its start hook sets them
            pol.seat_weights(pids, W)
        for state in snaps:
            state = state.copy()
            if hooks.over(state):
                continue
            work = hooks.new_work(run.spec, hooks.KERNELS.shared_of(run.spec))
            n = int(hooks.legal_actions(state, run.spec, work))
            if n >= 2:
                out.append((state, work, n, W[int(hooks.actor(state, run.spec))].copy()))
    return hooks, run, out


SCORING_HOOK_GAMES = [n for n in GAMES if n != "now_boarding"]
"""The games whose dispatch softens (Now Boarding softens inside its flight phase: its decisions
the engine sees are whole phases, one option each)."""


@pytest.mark.parametrize("name", SCORING_HOOK_GAMES)
@pytest.mark.parametrize("policy", ["greedy", "heuristic"])
def test_the_scores_hook_scores_what_the_policy_maximises(name, policy):
    """At the positions of real games, the best option of the ``scores`` hook is the policy's
    own choice (``choose``; where the best score is unique: a tie is the policy's to break), and
    scoring changes no state; the engine's pick at a tiny temperature (1e-6) is that best option."""
    hooks, run, positions = _positions(name, policy)
    pid = run.game.policy(policy).id
    scored_choice = getattr(hooks, "scored_choice", None)
    rng = np.zeros(2, np.uint64)
    checked = 0
    for state, work, n, w in positions:
        before = state.copy()
        sc = np.array(hooks.scores(state, run.spec, pid, w, work, n))
        assert np.array_equal(state, before), "scoring changed the state"
        if sc.shape[0] == 0:
            continue
        assert sc.shape[0] >= n and np.isfinite(sc).all()
        top = np.sort(sc)[::-1]
        if top[0] - top[1] < 1e-3:
            continue
        k = int(np.argmax(sc))
        c = int(hooks.choose(state.copy(), run.spec, pid, w, work, n, rng))
        want = k if scored_choice is None else int(scored_choice(state.copy(), run.spec, pid, w, work, n, k))
        assert c == want, f"{name} {policy}: the policy chose {c}, its scores' best is {want} ({sc})"
        for _ in range(5):
            assert boltzmann(sc, 1e-6, rng) == k
        checked += 1
    assert checked >= 10, f"only {checked} positions with a unique best"


def _score_vectors(name: str, policy: str, m_min: int = 3) -> list[np.ndarray]:
    hooks, run, positions = _positions(name, policy, games=4)
    pid = run.game.policy(policy).id
    out = []
    for state, work, n, w in positions:
        sc = np.array(hooks.scores(state, run.spec, pid, w, work, n))
        if sc.shape[0] >= m_min and np.ptp(sc) > 0:
            out.append(sc)
    return out


def _chi2_p(picks: np.ndarray, probs: np.ndarray) -> float:
    """p-value of the chi-square test of ``picks`` (option indices) against ``probs``, the
    options expected fewer than 5 times lumped together (an option of probability 0: never
    picked)."""
    n = picks.shape[0]
    seen = np.bincount(picks, minlength=probs.shape[0]).astype(float)
    assert not seen[probs == 0].any(), "an option of probability 0 was picked"
    seen, probs = seen[probs > 0], probs[probs > 0]
    exp = probs * n
    big = exp >= 5
    f_obs = list(seen[big]) + ([seen[~big].sum()] if (~big).any() else [])
    f_exp = list(exp[big]) + ([exp[~big].sum()] if (~big).any() else [])
    if len(f_obs) < 2:
        return 1.0
    return float(stats.chisquare(f_obs, f_exp).pvalue)


@pytest.mark.parametrize("name", SCORING_HOOK_GAMES)
def test_the_pick_is_the_softmax_of_the_scores(name):
    """Over 4,000 picks at one position of a real game: at temperature 1 the options come with
    the softmax frequencies exp(s_i) / sum exp(s_j); at a huge temperature (1e12) every option
    alike (chi-square, p > 1e-4)."""
    vecs = _score_vectors(name, "heuristic") + _score_vectors(name, "greedy")
    assert vecs, "no position with three options or more"
    sc = max(vecs, key=lambda v: v.shape[0])
    rng = np.zeros(2, np.uint64)
    rng[1] = 12345
    for t in (1.0, 1e12):
        picks = np.array([boltzmann(sc, t, rng) for _ in range(4000)])
        z = np.exp((sc - sc.max()) / t)
        p = _chi2_p(picks, z / z.sum())
        assert p > 1e-4, f"{name}: temperature {t}: chi-square p {p:.2g} over {sc.shape[0]} options"
    assert len(set(picks.tolist())) == sc.shape[0]  # the huge temperature played every option


def test_boltzmann_and_prefer_on_set_scores():
    """The engine's pick alone: softmax frequencies in the scores' units (an option one unit
    below another e^-1 as often at temperature 1), -inf never picked, a huge score no overflow,
    ties alike, the POLICY stream only (the chance stream untouched)."""
    rng = np.array([7, 99], np.uint64)
    sc = np.array([0.0, -1.0, -2.0, -np.inf, -1.0])
    picks = np.array([boltzmann(sc, 1.0, rng) for _ in range(6000)])
    assert rng[0] == 7
    z = np.exp(sc)
    assert _chi2_p(picks, z / z.sum()) > 1e-4 and not (picks == 3).any()
    big = np.array([1e300, 1e300 - 1e290, -1e300])
    assert {boltzmann(big, 1.0, rng) for _ in range(200)} <= {0, 1}
    assert boltzmann(np.array([5.0]), 3.0, rng) == 0
    assert boltzmann(np.array([-np.inf, 2.0, -np.inf]), 0.5, rng) == 1
    ties = np.array([boltzmann(np.array([1.0, 3.0, 3.0]), 1e-6, rng) for _ in range(2000)])
    assert set(ties.tolist()) == {1, 2} and abs((ties == 1).mean() - 0.5) < 0.05


# ---- the config ----------------------------------------------------------------------------
@pytest.mark.parametrize("value", [-0.5, -1e-9])
def test_a_negative_temperature_is_refused_naming_the_key(value):
    raw = {"game": "dice_race", "seats": [{"policy": "greedy", "weights": {"temperature": value}}, "greedy"]}
    with pytest.raises(ConfigError) as e:
        run_from_dict(raw, "cfg.toml")
    assert e.value.key == "seats[0].weights.temperature" and "temperature of 0 or more" in str(e.value)


def test_a_softened_seat_is_named_apart_and_carries_its_temperature():
    raw = {"game": "clear_for_takeoff", "seats": [
        {"policy": "greedy", "weights": {"temperature": 2.0}}, {"policy": "greedy", "weights": {"mistake": 0.1,
                                                                                               "temperature": 50}},
        "greedy", {"policy": "random", "weights": {"temperature": 0}}], "clear_for_takeoff": {}}
    run = run_from_dict(raw, "<t>")
    assert run.labels == ["greedy (temperature 2)", "greedy (mistake 0.1, temperature 50)", "greedy", "random"]
    assert list(run.entry_weights[:, W_TEMPERATURE]) == [2.0, 50.0, 0.0, 0.0]


def test_sim_policies_lists_the_temperature_and_marks_the_scoring_policies():
    from typer.testing import CliRunner

    from sim.cli import app

    r = CliRunner().invoke(app, ["policies", "clear_for_takeoff"])
    assert r.exit_code == 0 and "temperature = 0.0" in r.output, r.output
    text = " ".join(r.output.split())
    mark = "[scores its options: temperature softens it]"
    assert mark in text.split("greedy:")[1].split("heuristic:")[0]
    assert mark in text.split("heuristic:")[1].split("rollout:")[0]
    assert mark not in text.split("random:")[1].split("greedy:")[0]
    assert mark not in text.split("rollout:")[1].split("every policy")[0]


# ---- what it does to a game ----------------------------------------------------------------
def _seat_share(run, entry: int = 0) -> float:
    """The share of ``run``'s games won by the seat of config entry ``entry`` (rotated seats)."""
    out = run_games(run)
    winner = out[:, run.game.column_names(run.n_seats).index("winner")]
    perms = run.perms
    seat = np.array([list(perms[g % perms.shape[0]]).index(entry) for g in range(out.shape[0])])
    return float(np.mean(winner == seat))


def test_a_temperature_costs_wins_in_clear_for_takeoff():
    """Clear for Takeoff, one heuristic seat against three, paired (the same seed, so the same
    deals): at temperature 2 it wins clearly less than at 0 (about 25 %), seeded."""
    raw = {"game": "clear_for_takeoff", "games": 3000, "seed": 11, "rotate_seats": True,
           "seats": [{"policy": "heuristic", "label": "hot"}, "heuristic", "heuristic", "heuristic"],
           "clear_for_takeoff": {}}
    cold = _seat_share(run_from_dict(raw, "<t>"))
    raw["seats"][0] = {"policy": "heuristic", "label": "hot", "weights": {"temperature": 2.0}}
    hot = _seat_share(run_from_dict(raw, "<t>"))
    assert hot < cold - 0.04, (hot, cold)
