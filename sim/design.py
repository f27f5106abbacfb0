"""Design parameters: which keys of a game's config section a designer tunes (deck counts, hand
sizes, prices, board sizes, rule options), their ranges and steps, and **linked groups** (a key
whose value forces another: Now Boarding's ``start_speed`` and the length of ``speed_prices``).

``sim sensitivity`` moves these keys; ``sim sweep`` reads the groups to say, when a point moves a
leader alone and the game refuses it, which partner value follows (:func:`follow`) and that
``--zip`` sweeps both in lockstep.

Where the list comes from: every field of the game's section model (pydantic,
``sim/games/<game>/config.py``) whose type is a bounded integer, a float, a bool or a ``Literal``
(choices), recursing into nested tables (Clear for Takeoff's ``deck``) and into fixed-length
lists of bounded integers (``move_cards[0]``); a field whose config value is unset (None: "the
default by player count") is left out. :data:`GAMES` adds per game what the schema cannot say:
the fields that are not design parameters (names, maps, long data tables: ``exclude``),
variable-length integer lists whose items are design parameters (``items``: name -> range)
and the linked groups (``groups``). The table lives here, outside ``sim/games/``, so that it does
not change the kernels' source hash (:func:`sim.source_hash`). Run settings (``games``,
``seed``, ``turn_cap``, ``batch_size`` ...) are never design parameters. Each seat's policy is a
choice key (``seats[i].policy``: the seat takes the entry of another seat of the config with
another policy) when the game is competitive and the config mixes at least two policies.

Pure Python (pydantic only).
"""

from __future__ import annotations

import copy
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal

FOLLOW_RULES = ("list_front", "list_back", "offset")
"""How a group's partner follows its leader's change ``d`` (see :class:`Group`)."""


@dataclass(frozen=True)
class Group:
    """A linked group: when ``leader`` (a dotted key) moves by ``d``, ``partner`` follows.

    ``follow``:

    * ``"list_front"``: the partner is a list whose length shrinks as the leader grows (a start
      speed and the prices of the speeds above it): ``+d`` drops the first ``d`` items,
      ``-d`` puts ``d`` items in front, each the first item less the first difference (at least
      0); the price of reaching a given speed stays as it was;
    * ``"list_back"``: the partner is a list whose length grows with the leader (a speed cap and
      its price list): ``+d`` appends ``d`` items, each the last plus the last difference;
      ``-d`` drops the last ``d``;
    * ``"offset"``: the partner (a number) changes by ``factor * d`` (a deck count and a total).
    """

    leader: str
    partner: str
    follow: str
    factor: float = 1.0

    def describe(self) -> str:
        how = {"list_front": "drops / extends its first items", "list_back": "extends / drops its last items",
               "offset": f"moves by {self.factor:g} x the change"}[self.follow]
        return f"{self.partner} follows {self.leader} ({self.follow}: {how})"


@dataclass(frozen=True)
class GameDesign:
    """What the schema cannot say about one game's design parameters (module docstring)."""

    exclude: tuple[str, ...] = ()
    items: dict[str, tuple[int, int]] = field(default_factory=dict)
    groups: tuple[Group, ...] = ()


def _nb(k: str) -> str:
    return f"now_boarding.{k}"


GAMES: dict[str, GameDesign] = {
    # forget_draw / forget_takeoff: the players' forgetting (RULES.md D13), not a design parameter
    "clear_for_takeoff": GameDesign(exclude=("airlines", "forget_draw", "forget_takeoff")),
    "now_boarding": GameDesign(
        # planes: a choice of airports, not a number; piles / draws / weather_tokens / vip_count: unset by
        # default (by player count); action_budget 0 means "no timer" (one step is another game)
        exclude=("planes", "piles", "draws", "weather_tokens", "vip_count", "action_budget"),
        items={"seat_prices": (0, 99), "speed_prices": (0, 99)},
        groups=(Group(_nb("start_speed"), _nb("speed_prices"), "list_front"),
                Group(_nb("max_speed"), _nb("speed_prices"), "list_back"),
                Group(_nb("start_seats"), _nb("seat_prices"), "list_front"),
                Group(_nb("max_seats"), _nb("seat_prices"), "list_back"))),
    "yukon_airways": GameDesign(
        # the map, the tickets, the orders and the dial / end tables are data tables; grey_markers 0
        # means "unlimited"; start_money and planes are per seat
        exclude=("hub", "locations", "routes", "tickets", "dials", "orders", "fixed_orders", "visited_table",
                 "start_money", "planes", "grey_markers")),
    "flying_carpet": GameDesign(exclude=("city_name", "city", "pieces", "stars", "keep_free", "die_faces")),
    "dice_race": GameDesign(),
}
"""Per game: see :class:`GameDesign`. A game missing here gets every schema key."""


@dataclass
class DesignKey:
    """One design parameter: ``key`` (dotted, as ``--set`` takes it), ``kind`` ("int",
    "float" or "choice"), ``value`` (the config's), ``lo`` / ``hi`` (the schema's range of a
    number, None when it has none), ``choices`` (a choice key's alternatives, the config's value
    included), ``step`` (an integer's step, default 1; a float's relative step, default 0.1),
    ``group`` (the groups it leads), ``seat_entries`` (a seat policy key: policy -> the seat
    entry a seat takes to play it)."""

    key: str
    kind: Literal["int", "float", "choice"]
    value: Any
    lo: float | None = None
    hi: float | None = None
    choices: list[Any] = field(default_factory=list)
    step: float = 1
    groups: list[Group] = field(default_factory=list)
    seat_entries: dict[str, Any] = field(default_factory=dict)

    @property
    def set_key(self) -> str:
        """The key an override writes: ``seats[2]`` for a seat policy key (the whole entry)."""
        return self.key[: -len(".policy")] if self.seat_entries else self.key

    def set_value(self, v: Any) -> Any:
        """The value an override writes for design value ``v``."""
        return copy.deepcopy(self.seat_entries[v]) if self.seat_entries else v

    def in_range(self, v: float) -> bool:
        return (self.lo is None or v >= self.lo) and (self.hi is None or v <= self.hi)

    def range_text(self) -> str:
        if self.kind == "choice":
            return ", ".join(_text(c) for c in self.choices)
        return f"{_text(self.lo) if self.lo is not None else '-inf'} .. {_text(self.hi) if self.hi is not None else 'inf'}"


def _text(v: Any) -> str:
    from sim.report.tomlw import _value

    return _value(v)


def _bounds(info: Any, integer: bool) -> tuple[float | None, float | None]:
    """The field's (low, high) bounds from its ge / gt / le / lt metadata; a strict bound of an
    ``integer`` field is the next integer inside it, a float's stays the bound itself (a point
    on it is refused by the config check and listed as not played)."""
    lo = hi = None
    step = 1 if integer else 0
    for m in getattr(info, "metadata", ()) or ():
        for attr, strict in (("ge", False), ("gt", True)):
            if getattr(m, attr, None) is not None:
                lo = getattr(m, attr) + (step if strict else 0)
        for attr, strict in (("le", False), ("lt", True)):
            if getattr(m, attr, None) is not None:
                hi = getattr(m, attr) - (step if strict else 0)
    return lo, hi


def _unwrap(tp: Any) -> tuple[Any, Any, bool]:
    """(base type, FieldInfo-like metadata holder or None, optional)."""
    optional = False
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        optional = len(args) < len(typing.get_args(tp))
        if len(args) != 1:
            return tp, None, optional
        tp = args[0]
    meta = None
    if typing.get_origin(tp) is typing.Annotated:
        base, *extra = typing.get_args(tp)
        meta = next((e for e in extra if hasattr(e, "metadata")), None)
        tp = base
    return tp, meta, optional


def _scalar(key: str, tp: Any, value: Any, info: Any) -> DesignKey | None:
    tp, meta, _opt = _unwrap(tp)
    if value is None:
        return None
    if typing.get_origin(tp) is Literal:
        choices = list(typing.get_args(tp))
        return DesignKey(key, "choice", value, choices=choices) if len(choices) > 1 else None
    if tp is bool:
        return DesignKey(key, "choice", value, choices=[False, True])
    if tp is int and isinstance(value, int) and not isinstance(value, bool):
        lo, hi = _bounds(meta if meta is not None else info, True)
        return DesignKey(key, "int", value, lo, hi)
    if tp is float and isinstance(value, int | float) and not isinstance(value, bool):
        lo, hi = _bounds(meta if meta is not None else info, False)
        return DesignKey(key, "float", float(value), lo, hi, step=0.1)
    return None


def _walk(model: type, node: Any, prefix: str, design: GameDesign, top: bool, out: list[DesignKey]) -> None:
    from pydantic import BaseModel

    for name, info in model.model_fields.items():
        rel = name if top else None
        if top and name in design.exclude:
            continue
        alias = info.alias or name
        key = f"{prefix}.{alias}"
        value = getattr(node, name, None)
        tp, meta, _opt = _unwrap(info.annotation)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if value is not None:
                _walk(tp, value, key, design, False, out)
            continue
        origin = typing.get_origin(tp)
        if origin is list and isinstance(value, list):
            (item,) = typing.get_args(tp) or (Any,)
            mins = [m.min_length for m in info.metadata if getattr(m, "min_length", None) is not None]
            maxs = [m.max_length for m in info.metadata if getattr(m, "max_length", None) is not None]
            fixed = bool(mins and maxs and mins[0] == maxs[0])  # a list of fixed length: its items are keys
            if rel in design.items:
                lo, hi = design.items[rel]
                out.extend(DesignKey(f"{key}[{i}]", "int", v, lo, hi) for i, v in enumerate(value)
                           if isinstance(v, int) and not isinstance(v, bool))
            elif fixed:
                for i, v in enumerate(value):
                    k = _scalar(f"{key}[{i}]", item, v, None)
                    if k is not None:
                        out.append(k)
            continue
        if origin is dict and isinstance(value, dict):
            _kt, vt = typing.get_args(tp) or (Any, Any)
            for k2, v in value.items():
                k = _scalar(f"{key}.{k2}", vt, v, None)
                if k is not None:
                    out.append(k)
            continue
        k = _scalar(key, info.annotation, value, info)
        if k is not None:
            out.append(k)


def seat_keys(cfg: Any, mode: str) -> list[DesignKey]:
    """``seats[i].policy`` choice keys (module docstring): empty for a cooperative game or a
    config whose seats all play one policy."""
    if mode != "competitive":
        return []
    entries: dict[str, Any] = {}
    raw_seats = cfg.raw.get("seats", [])
    for i, s in enumerate(cfg.seats):
        if s.policy not in entries and i < len(raw_seats):
            raw = raw_seats[i]
            entries[s.policy] = {"policy": raw} if isinstance(raw, str) else dict(raw)
    if len(entries) < 2:
        return []
    out = []
    for i, s in enumerate(cfg.seats):
        out.append(DesignKey(f"seats[{i}].policy", "choice", s.policy, choices=list(entries), seat_entries=entries))
    return out


def groups_of(game: str, extra: list[Group] | None = None) -> list[Group]:
    """The game's linked groups (:data:`GAMES`) and ``extra`` (a config's ``[sensitivity]``
    groups, which win for the same leader and partner)."""
    base = list(GAMES.get(game, GameDesign()).groups)
    extra = list(extra or [])
    seen = {(g.leader, g.partner) for g in extra}
    return extra + [g for g in base if (g.leader, g.partner) not in seen]


def design_keys(cfg: Any, mode: str = "competitive", extra_groups: list[Group] | None = None) -> list[DesignKey]:
    """Every design parameter of a validated config ``cfg`` (:class:`sim.config.RunConfig`), in
    schema order, then the seat policy keys; each with its groups attached. A group's partner is
    not a key of its own (it moves only with its leader)."""
    design = GAMES.get(cfg.game, GameDesign())
    out: list[DesignKey] = []
    _walk(type(cfg.section), cfg.section, cfg.game, design, True, out)
    groups = groups_of(cfg.game, extra_groups)
    partners = {g.partner for g in groups}
    out = [k for k in out if k.key not in partners]
    for k in out:
        k.groups = [g for g in groups if g.leader == k.key]
    return out + seat_keys(cfg, mode)


def lookup(raw: Any, path: tuple) -> Any:
    """The value at ``path`` (:func:`sim.overrides.parse_key`) of a parsed config, or KeyError."""
    node = raw
    for p in path:
        if isinstance(p, int):
            if not isinstance(node, list) or p >= len(node):
                raise KeyError(p)
            node = node[p]
        else:
            if not isinstance(node, dict) or p not in node:
                raise KeyError(p)
            node = node[p]
    return node


def follow(group: Group, partner_value: Any, d: float) -> Any:
    """The partner's value after its leader moved by ``d`` (rules of :class:`Group`); raises
    ValueError when it cannot follow (a list too short to drop from, a partner that is not a
    list or a number)."""
    if group.follow == "offset":
        if not isinstance(partner_value, int | float) or isinstance(partner_value, bool):
            raise ValueError(f"{group.partner} is not a number")
        v = partner_value + group.factor * d
        return int(round(v)) if isinstance(partner_value, int) and float(v).is_integer() else v
    if not isinstance(partner_value, list) or not all(isinstance(x, int | float) for x in partner_value):
        raise ValueError(f"{group.partner} is not a list of numbers")
    n = int(d)
    if n != d:
        raise ValueError(f"{group.leader} moved by {d:g}, not a whole number, so {group.partner} cannot follow")
    items = list(partner_value)
    front = group.follow == "list_front"
    grow = -n if front else n
    if grow < 0:
        if len(items) < -grow:
            raise ValueError(f"{group.partner} has {len(items)} items; cannot drop {-grow}")
        return items[-grow:] if front else items[:grow]
    for _ in range(grow):
        if front:
            diff = items[1] - items[0] if len(items) > 1 else 0
            items.insert(0, max(0, items[0] - diff) if items else 0)
        else:
            diff = items[-1] - items[-2] if len(items) > 1 else 0
            items.append(items[-1] + diff if items else 0)
    return items
