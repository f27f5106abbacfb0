"""Which config keys differ between two runs (``sim compare``, a failed ``sim check``).

:func:`effective_config` is a validated config as a plain dict with every default filled in
(the common keys, every seat with the full weights of its policy, the game's section under
the game's name), without the run-only keys that cannot change a result
(:data:`sim.config.RUN_ONLY_KEYS`); ``sim baseline`` stores it in the baseline as ``config``.
:func:`diff` lists the dotted paths (``--set`` syntax: ``clear_for_takeoff.deck.FLR``,
``seats[2].weights.attack``) whose values differ, :func:`diff_lines` the same as text
(``key``, A value, B value; TOML spelling).

Pure Python (pydantic models only; nothing is compiled).
"""

from __future__ import annotations

import json
from typing import Any

ABSENT = object()
"""A key one side does not have."""


def effective_config(cfg: Any) -> dict:
    """The effective config of RunConfig ``cfg`` as a JSON-ready dict (see the module
    docstring). A seat's ``weights`` are its policy's defaults updated with the seat's own;
    a look-ahead seat's ``base`` and ``base_weights`` likewise from its base policy."""
    from sim.config import RUN_ONLY_KEYS, TOOL_ONLY_KEYS
    from sim.games import get_game

    d = cfg.model_dump(mode="json")
    for k in RUN_ONLY_KEYS + TOOL_ONLY_KEYS:
        d.pop(k, None)
    try:
        gdef = get_game(cfg.game)
    except (KeyError, ImportError, ValueError):
        gdef = None
    if gdef is not None:
        for seat, sd in zip(cfg.seats, d.get("seats") or [], strict=False):
            try:
                pdef = gdef.policy(seat.policy)
            except KeyError:
                continue
            sd["weights"] = {**dict(pdef.weights), **dict(seat.weights)}
            base = seat.base or getattr(pdef, "base", None)
            if getattr(pdef, "lookahead", False) and base:
                sd["base"] = base
                try:
                    sd["base_weights"] = {**dict(gdef.policy(base).weights), **dict(seat.base_weights)}
                except KeyError:
                    pass
    section = getattr(cfg, "section", None)
    if section is not None and hasattr(section, "model_dump"):
        d[cfg.game] = section.model_dump(mode="json", by_alias=True)
    return json.loads(json.dumps(d, default=str))


def _key(path: str, k: Any) -> str:
    return f"{path}[{k}]" if isinstance(k, int) else (f"{path}.{k}" if path else str(k))


def diff(a: Any, b: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """(dotted path, A value, B value) of every leaf that differs between plain values ``a``
    and ``b`` (dicts by key, in A's order then B's new keys; lists of equal length item by
    item, else as a whole); :data:`ABSENT` for a key one side lacks."""
    if isinstance(a, dict) and isinstance(b, dict) and (bool(a) == bool(b)):
        out = []
        for k in list(a) + [k for k in b if k not in a]:
            out += diff(a.get(k, ABSENT), b.get(k, ABSENT), _key(path, k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += diff(x, y, _key(path, i))
        return out
    if a is ABSENT or b is ABSENT or type(a) is not type(b) or a != b:
        # 1 and 1.0 are the same value (an int is accepted where a float is expected)
        if (isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool)
                and not isinstance(b, bool) and a == b):
            return []
        return [(path, a, b)]
    return []


def fmt_value(v: Any, most: int = 60) -> str:
    """A value as TOML spells it (``3``, ``0.7``, ``true``, ``"greedy"``, ``[1, 2]``), at most
    ``most`` characters; ``(absent)`` for :data:`ABSENT`, ``(none)`` for None."""
    if v is ABSENT:
        return "(absent)"
    if v is None:
        return "(none)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    text = _toml(v)
    return text if len(text) <= most else text[: most - 3] + "..."


def _toml(v: Any) -> str:
    """``v`` as a TOML inline value (tables ``{ a = 1 }``, arrays ``[1, 2]``)."""
    import re

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        if not v:
            return "{}"
        keys = [k if re.fullmatch(r"[A-Za-z0-9_-]+", str(k)) else json.dumps(str(k)) for k in v]
        return "{ " + ", ".join(f"{k} = {_toml(x)}" for k, x in zip(keys, v.values(), strict=True)) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return "(none)" if v is None else json.dumps(str(v))


def defaults_of(cfg: Any) -> dict:
    """What the current code fills in where a config says nothing, in the shape of
    :func:`effective_config`: each seat's ``weights`` (and a look-ahead seat's
    ``base_weights``) as its policy's defaults, and the game's section with every default
    (when the section can be built from defaults alone)."""
    from sim.games import get_game

    out: dict = {}
    try:
        gdef = get_game(cfg.game)
    except (KeyError, ImportError, ValueError):
        return out
    seats = []
    for seat in cfg.seats:
        sd: dict = {}
        try:
            pdef = gdef.policy(seat.policy)
            sd["weights"] = dict(pdef.weights)
            base = seat.base or getattr(pdef, "base", None)
            if getattr(pdef, "lookahead", False) and base:
                sd["base_weights"] = dict(gdef.policy(base).weights)
        except KeyError:
            pass
        seats.append(sd)
    out["seats"] = seats
    section = getattr(cfg, "section", None)
    if section is not None and hasattr(section, "model_dump"):
        try:
            out[cfg.game] = type(section)().model_dump(mode="json", by_alias=True)
        except Exception:  # noqa: BLE001 - a section without defaults for every key: no default known
            pass
    return json.loads(json.dumps(out, default=str))


def value_at(d: Any, path: str) -> Any:
    """The value at dotted ``path`` (:func:`diff`'s spelling: ``seats[2].weights.attack``) in
    plain value ``d``, or :data:`ABSENT`."""
    import re

    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        if index:
            i = int(index)
            if not isinstance(d, list) or i >= len(d):
                return ABSENT
            d = d[i]
        else:
            if not isinstance(d, dict) or name not in d:
                return ABSENT
            d = d[name]
    return d


def split_new_defaults(changes: list[tuple[str, Any, Any]], defaults: dict) -> tuple[list, list]:
    """(changes, new defaults): a key the baseline lacks (:data:`ABSENT`) whose value now is
    the current code's default (:func:`defaults_of`) is not a change of the config but a key
    added since the baseline was recorded; it goes to the second list."""
    kept, new = [], []
    for k, a, b in changes:
        d = value_at(defaults, k) if a is ABSENT else ABSENT
        (new if d is not ABSENT and not diff(d, b) else kept).append((k, a, b))
    return kept, new


def diff_lines(a: dict, b: dict) -> list[tuple[str, str, str]]:
    """:func:`diff` of two effective configs as text triples (key, A value, B value)."""
    return [(k, fmt_value(x), fmt_value(y)) for k, x, y in diff(a, b)]
