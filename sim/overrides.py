"""``--set KEY=VALUE`` and ``sim sweep --param KEY=V1,V2,...``: one config key overridden
from the command line, applied to the parsed TOML dict *before* validation, so a bad key or
value gets the usual one message naming the key (with ``(from --set KEY=VALUE)``).

KEY is a dotted path into the config as the file spells it: ``games``, ``seed``,
``clear_for_takeoff.hand_size``, ``clear_for_takeoff.deck.FLR``, ``seats[2].policy``,
``seats[0].weights.attack``. A missing table on the way is created (``deck.FLR`` works when
the file has no ``[clear_for_takeoff.deck]``); a list index must exist; a seat given as a
bare policy string (``seats = ["greedy", ...]``) is read as ``{ policy = "greedy" }`` when a
key below it is set.

VALUE is a TOML value (``7``, ``0.5``, ``true``, ``"x"``, ``[1, 2, 3]``, ``{ a = 1 }``); text
that is not one and does not start like one (a quote, ``[`` or ``{``) is a string, so
``seats[2].policy=greedy`` works without quotes.

Pure Python (no numba, no polars). :func:`load` is :func:`sim.config.load` with overrides.
"""

from __future__ import annotations

import copy
import re
import tomllib
from dataclasses import dataclass
from typing import Any, Sequence

from sim.errors import ConfigError

_PART = re.compile(r"([A-Za-z0-9_\-]+)((?:\[\d+\])*)")
_INDEX = re.compile(r"\[(\d+)\]")
MAX_SETS = 64
"""Most ``--set`` / ``--param`` flags one command takes."""
MAX_POINTS = 1000
"""Most points one sweep grid may have."""


@dataclass(frozen=True)
class Override:
    """One parsed ``KEY=VALUE``: ``key`` as written, ``path`` (str table keys and int list
    indices), ``value`` (a TOML value), ``flag`` (``--set`` or ``--param``) and ``text`` (the
    flag's argument, for messages)."""

    key: str
    path: tuple[str | int, ...]
    value: Any
    flag: str = "--set"
    text: str = ""

    @property
    def origin(self) -> str:
        """``(from --set KEY=VALUE)``, appended to a message about this key."""
        from sim.config import cut

        return f"(from {self.flag} {cut(self.text or self.key, 80)})"


def parse_key(key: str, flag: str = "--set") -> tuple[str | int, ...]:
    """``"seats[2].weights.attack"`` -> ``("seats", 2, "weights", "attack")``; raises
    ConfigError (file ``flag``) for a key that is not a dotted path of names and ``[i]``."""
    from sim.config import excerpt

    key = key.strip()
    if not key:
        raise ConfigError(flag, "", "empty key: write KEY=VALUE, e.g. clear_for_takeoff.hand_size=8")
    path: list[str | int] = []
    for part in key.split("."):
        m = _PART.fullmatch(part)
        if not m:
            raise ConfigError(flag, "", f"{excerpt(key)} is not a dotted config key (names of letters, digits, _ "
                              "and -, joined by '.', list items as [i]: seats[2].policy)")
        path.append(m.group(1))
        path.extend(int(i) for i in _INDEX.findall(m.group(2)))
    return tuple(path)


def parse_value(text: str) -> Any:
    """A TOML value from the command line (see the module docstring); raises ValueError
    for text that starts like a TOML string, array or table but is not one."""
    s = text.strip()
    try:
        return tomllib.loads(f"v = {s}")["v"]
    except tomllib.TOMLDecodeError:
        if not s or s[0] in "\"'[{":
            raise ValueError(f"not a TOML value: {s!r}") from None
        return s


def parse_set(text: str, flag: str = "--set") -> Override:
    """Parse one ``KEY=VALUE``; raises ConfigError (file ``flag``) naming what is wrong."""
    from sim.config import cut, excerpt

    if "=" not in text:
        raise ConfigError(flag, "", f"{excerpt(text)} is not KEY=VALUE (e.g. clear_for_takeoff.hand_size=8)")
    key, _, val = text.partition("=")
    path = parse_key(key, flag)
    try:
        value = parse_value(val)
    except ValueError as e:
        raise ConfigError(flag, key.strip(), cut(str(e), 120)) from None
    return Override(key.strip(), path, value, flag, text)


def split_values(text: str) -> list[str]:
    """``"7,8,[1,2],'a,b'"`` -> ``["7", "8", "[1,2]", "'a,b'"]``: split at commas outside
    brackets, braces and quotes."""
    out, cur, depth, quote = [], [], 0, ""
    for c in text:
        if quote:
            cur.append(c)
            if c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
            cur.append(c)
        elif c in "[{":
            depth += 1
            cur.append(c)
        elif c in "]}":
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    out.append("".join(cur))
    return out


def parse_param(text: str) -> tuple[str, tuple[str | int, ...], list[Any]]:
    """Parse one ``--param KEY=V1,V2,...``: (key, path, values); raises ConfigError (file
    ``--param``) for a bad key, an empty list, a value that is no TOML value or a repeat."""
    from sim.config import cut, excerpt

    if "=" not in text:
        raise ConfigError("--param", "", f"{excerpt(text)} is not KEY=V1,V2,... (e.g. clear_for_takeoff.hand_size=7,8,9)")
    key, _, vals = text.partition("=")
    path = parse_key(key, "--param")
    values = []
    for v in split_values(vals):
        if not v.strip():
            raise ConfigError("--param", key.strip(), f"empty value in {excerpt(vals)} (write KEY=V1,V2,...)")
        try:
            values.append(parse_value(v))
        except ValueError as e:
            raise ConfigError("--param", key.strip(), cut(str(e), 120)) from None
    for i, v in enumerate(values):
        if any(type(v) is type(w) and v == w for w in values[:i]):
            raise ConfigError("--param", key.strip(), f"value {excerpt(v)} is listed twice")
    return key.strip(), path, values


_TYPE_NAMES = {"int": "an integer", "float": "a number", "str": "a string", "bool": "a boolean", "list": "an array",
               "dict": "a table"}


def _what(x: Any) -> str:
    return _TYPE_NAMES.get(type(x).__name__, f"a {type(x).__name__}")


def _fmt_path(path: Sequence[str | int]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def apply_sets(raw: dict, sets: Sequence[Override], source: str) -> dict:
    """A deep copy of ``raw`` with every override written in, in order (a later one wins).
    Raises ConfigError (``source``, the key, the reason and the flag) for a path that does not
    lead into the config: a list index out of range, a key below a value that is not a
    table."""
    from sim.config import MAX_DEPTH

    out = copy.deepcopy(raw)
    for ov in sets:
        if len(ov.path) > MAX_DEPTH:
            raise ConfigError(source, ov.key, f"nested more than {MAX_DEPTH} levels deep {ov.origin}")
        node: Any = out
        for i, part in enumerate(ov.path):
            last = i == len(ov.path) - 1
            here = _fmt_path(ov.path[: i + 1])
            if isinstance(part, int):
                if not isinstance(node, list):
                    raise ConfigError(source, _fmt_path(ov.path[:i]), f"is not a list, so it has no item [{part}] "
                                      f"{ov.origin}")
                if part >= len(node):
                    raise ConfigError(source, here, f"no such item: the list has {len(node)} "
                                      f"(items 0..{len(node) - 1}) {ov.origin}")
                if last:
                    node[part] = copy.deepcopy(ov.value)
                    break
                if isinstance(node[part], str) and _fmt_path(ov.path[:i]) == "seats":
                    node[part] = {"policy": node[part]}  # a seat written as its policy name
                nxt = node[part]
            else:
                if not isinstance(node, dict):
                    raise ConfigError(source, _fmt_path(ov.path[:i]), f"is {_what(node)}, not a table, so it has "
                                      f"no key {part!r} {ov.origin}")
                if last:
                    node[part] = copy.deepcopy(ov.value)
                    break
                nxt = node.setdefault(part, {})
            if not isinstance(nxt, dict | list):
                raise ConfigError(source, here, f"is {_what(nxt)}, not a table, so {ov.key!r} "
                                  f"cannot be set {ov.origin}")
            node = nxt
    return out


def related(key: str, ov: Override) -> bool:
    """True when an error about ``key`` is about what ``ov`` set: the same key, a key
    below it, or a table above it (``clear_for_takeoff.deck`` for ``deck.FLR``)."""
    k = _fmt_path(ov.path)
    if not key:
        return False
    return key == k or key.startswith(k + ".") or key.startswith(k + "[") or k.startswith(key + ".") \
        or k.startswith(key + "[")


def tag(err: ConfigError, sets: Sequence[Override]) -> ConfigError:
    """``err`` with ``(from --set KEY=VALUE)`` appended when its key is one a flag set (the
    last matching one), or unchanged; a whole-file error (empty key) names every flag."""
    if not sets:
        return err
    hits = [ov for ov in sets if related(err.key, ov)]
    if not hits and not err.key:
        hits = list(sets)
    if not hits or "(from --" in err.reason or any(ov.origin in err.reason for ov in sets):
        return err  # named already (a [sweep] origin too: it was appended once per call)
    extra = hits[-1].origin if len(hits) == 1 or err.key else "(with " + ", ".join(
        f"{ov.flag} {ov.text or ov.key}" for ov in hits) + ")"
    return ConfigError(err.file, err.key, f"{err.reason} {extra}")


def parse_sets(texts: Sequence[str] | None, flag: str = "--set") -> list[Override]:
    """Parse every ``--set`` argument (None -> []); raises ConfigError."""
    texts = list(texts or ())
    if len(texts) > MAX_SETS:
        raise ConfigError(flag, "", f"at most {MAX_SETS} {flag} flags, got {len(texts)}")
    return [parse_set(t, flag) for t in texts]


def load(path: Any, sets: Sequence[Override | str] | None = None):
    """:func:`sim.config.load` with ``--set`` overrides ``sets`` (:class:`Override` or
    ``"KEY=VALUE"`` strings) written into the parsed file before validation; an error about a
    key one of them set says so (``(from --set KEY=VALUE)``). Raises ConfigError."""
    from pathlib import Path

    from sim.config import load_dict, read_raw

    source = str(Path(path))
    raw = read_raw(path)
    ovs = [s if isinstance(s, Override) else parse_set(s) for s in sets or ()]
    if not ovs:
        return load_dict(raw, source)
    try:
        return load_dict(apply_sets(raw, ovs, source), source)
    except ConfigError as e:
        raise tag(e, ovs) from None
