"""``sim replay --where EXPR``: a boolean expression in SQL syntax over one run's own
columns, turned into a polars expression from a small whitelisted grammar.

The text is split by Python's :mod:`tokenize` (so quoted text is one token), the SQL words
are mapped onto Python's (``AND``/``OR``/``NOT``/``IN``, ``=``, ``<>``, ``TRUE``/``FALSE``),
and the result is parsed by :func:`ast.parse` as one expression and walked node by node.
Allowed: the frame's column names, numbers, 'text', comparisons (``= <> != < <= > >=``,
chained), ``AND``, ``OR``, ``NOT``, ``IN (list)`` / ``NOT IN (list)`` of literals, arithmetic
(``+ - * / %``) and parentheses. Everything else (function calls, subqueries, tables,
attribute access, subscripts, ...) is refused before anything is evaluated: no file is read and
the result is a filter of the frame's own rows, never more rows than it has. Nothing is run
through Python's ``eval`` or polars SQL.
"""

from __future__ import annotations

import ast
import io
import tokenize
from typing import Any

MAX_DEPTH = 60
"""Deepest nesting of operators allowed in one expression."""
MAX_INT = 2**63 - 1
SQL_WORDS = {"and": "and", "or": "or", "not": "not", "in": "in", "true": "True", "false": "False"}
"""SQL words of the grammar and the Python token each becomes (case-insensitive)."""
REFUSED_WORDS = frozenset({"select", "from", "exists", "join", "union", "with", "where", "table", "values",
                           "cross", "limit", "order", "group", "having", "case", "cast", "like", "between",
                           "is", "null", "any", "all", "some"})
"""SQL words outside the grammar: named in the message when they are not a column of the run."""


class WhereError(ValueError):
    """The expression is outside the grammar; the message says why."""


def _tokens(text: str, columns: list[str]) -> tuple[str, dict[str, str]]:
    """The Python source the SQL text becomes and the column each placeholder name stands for."""
    out: list[str] = []
    names: dict[str, str] = {}
    by_lower = {c.lower(): c for c in columns}
    try:
        toks = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT,
                                  tokenize.DEDENT)]
    except (tokenize.TokenError, SyntaxError, IndentationError) as e:
        raise WhereError(f"cannot read it ({e.args[0] if e.args else type(e).__name__})") from None
    prev = None
    for i, t in enumerate(toks):
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        if t.type == tokenize.COMMENT:
            raise WhereError("no comments ('#') allowed")
        if t.type == tokenize.ERRORTOKEN and t.string.strip():
            raise WhereError(f"unexpected {t.string!r}")
        s = t.string
        if t.type == tokenize.NAME or (t.type == tokenize.STRING and s[:1] == '"'):
            if t.type == tokenize.STRING:  # "name": a quoted column name, as in SQL
                s = s[1:-1]
            low = s.lower()
            if t.type == tokenize.NAME and low in SQL_WORDS:
                out.append(SQL_WORDS[low])
            elif s in columns or low in by_lower:
                col = s if s in columns else by_lower[low]
                ph = f"c{len(names)}_"
                names[ph] = col
                out.append(ph)
            elif low in REFUSED_WORDS:
                raise WhereError(f"uses {s.upper()}: only comparisons of the run's columns, AND, OR, NOT and "
                                 "IN (list) are allowed (no queries, tables or functions)")
            elif nxt is not None and nxt.string == "(":
                raise WhereError(f"calls a function ({s}): only comparisons of the run's columns are allowed")
            else:
                raise WhereError(f"{s} is not a column of the run")
        elif t.type == tokenize.STRING:
            if s[:1] != "'" or s[:3] == "'''":
                raise WhereError(f"{s[:20]} is not a 'text' literal")
            if prev is not None and prev.type == tokenize.STRING and prev.end == t.start:
                # SQL's '' inside a literal: 'it''s'
                out[-1] = repr(ast.literal_eval(out[-1]) + "'" + ast.literal_eval(s))
            else:
                out.append(s)
        elif t.type == tokenize.OP:
            if s == ">" and prev is not None and prev.string == "<" and prev.end == t.start:
                out[-1] = "!="
            elif s == "=":
                out.append("==")
            elif s in ("==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "(", ")", ","):
                out.append(s)
            else:
                raise WhereError(f"unexpected {s!r}")
        elif t.type == tokenize.NUMBER:
            out.append(s)
        else:
            raise WhereError(f"unexpected {s!r}")
        prev = t
    return " ".join(out), names


_CMP = {ast.Eq: "__eq__", ast.NotEq: "__ne__", ast.Lt: "__lt__", ast.LtE: "__le__", ast.Gt: "__gt__",
        ast.GtE: "__ge__"}
_ARITH = {ast.Add: "__add__", ast.Sub: "__sub__", ast.Mult: "__mul__", ast.Div: "__truediv__",
          ast.Mod: "__mod__"}


def _literal(node: ast.AST) -> Any:
    """A number, text or boolean literal (with an optional sign), else WhereError."""
    sign = 1
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -sign if isinstance(node.op, ast.USub) else sign
        node = node.operand
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, float, str)):
        v = node.value
        if isinstance(v, str) or isinstance(v, bool):
            if sign != 1:
                raise WhereError("a minus sign before text or TRUE/FALSE")
            return v
        v = sign * v
        if isinstance(v, int) and not -MAX_INT - 1 <= v <= MAX_INT:
            raise WhereError(f"the number {v:.3g} is outside -2**63..2**63-1")
        return v
    raise WhereError("IN takes a list of numbers or 'text' literals")


def _build(node: ast.AST, names: dict[str, str], depth: int = 0):
    import polars as pl

    if depth > MAX_DEPTH:
        raise WhereError(f"nested deeper than {MAX_DEPTH} operators")
    d = depth + 1
    if isinstance(node, ast.Expression):
        return _build(node.body, names, d)
    if isinstance(node, ast.BoolOp):
        parts = [_build(v, names, d) for v in node.values]
        out = parts[0]
        for p in parts[1:]:
            out = out & p if isinstance(node.op, ast.And) else out | p
        return out
    if isinstance(node, ast.UnaryOp):
        inner = _build(node.operand, names, d)
        if isinstance(node.op, ast.Not):
            return ~inner
        if isinstance(node.op, ast.USub):
            return -inner
        if isinstance(node.op, ast.UAdd):
            return inner
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        return getattr(_build(node.left, names, d), _ARITH[type(node.op)])(_build(node.right, names, d))
    if isinstance(node, ast.Compare):
        parts = []
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)):
                items = right.elts if isinstance(right, (ast.Tuple, ast.List)) else [right]
                if not items or len(items) > 10_000:
                    raise WhereError("IN takes a list of 1 to 10,000 literals")
                vals = [_literal(x) for x in items]
                e = _build(left, names, d).is_in(vals)
                parts.append(~e if isinstance(op, ast.NotIn) else e)
            elif type(op) in _CMP:
                parts.append(getattr(_build(left, names, d), _CMP[type(op)])(_build(right, names, d)))
            else:
                raise WhereError("only = <> != < <= > >= and IN compare")
            left = right
        out = parts[0]
        for p in parts[1:]:
            out = out & p
        return out
    if isinstance(node, ast.Name) and node.id in names:
        return pl.col(names[node.id])
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int, float, str)):
        return pl.lit(_literal(node))
    if isinstance(node, ast.Tuple):
        raise WhereError("a list (a, b) stands only after IN")
    raise WhereError("only the run's columns, literals, comparisons, AND, OR, NOT, IN (list) and + - * / % "
                     "are allowed")


def where_expr(text: str, columns: list[str]):
    """The polars expression for the ``--where`` text ``text`` over a frame with ``columns``;
    raises :class:`WhereError` (the reason) for anything outside the grammar (module docstring)."""
    src, names = _tokens(text, list(columns))
    if not src:
        raise WhereError("it is empty")
    try:
        tree = ast.parse(src, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as e:
        msg = e.msg if isinstance(e, SyntaxError) else type(e).__name__
        raise WhereError(f"not an expression ({msg})") from None
    try:
        return _build(tree, names)
    except RecursionError:
        raise WhereError(f"nested deeper than {MAX_DEPTH} operators") from None
