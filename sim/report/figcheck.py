"""Checks of a matplotlib figure before it is saved: the plot labels a designer reads must be
true and distinct. :func:`figure_problems` lists what is wrong with a figure (empty: nothing):

* an axis whose drawn tick labels repeat a text ("2%, 2%, 1%": ticks rounded to the same value
  say nothing about the data between them);
* a text (title, axis label, tick label, legend entry, annotation) that reaches beyond the
  figure's edge, so the saved PNG cuts it off;
* two texts (or a text and a legend) drawn over each other.

The report tests run every figure sim saves through it (``tests/report/conftest.py``'s
``SavedFigures`` wraps ``Figure.savefig`` while a page is written); :func:`check_figure` raises
on a problem.
"""

from __future__ import annotations

SLACK_PX = 2.0
"""How far (pixels at the figure's dpi) a text's box may reach past the edge: antialiasing."""


def _drawn_ticks(axis) -> list:
    """The ticks ``axis`` draws (inside its view interval), after a draw."""
    return list(axis._update_ticks())  # what Axis.draw draws; stable since matplotlib 3.0


def tick_label_texts(ax, which: str) -> list[str]:
    """The non-empty texts of the tick labels ``ax`` draws on its ``which`` ("x" / "y") axis."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    out = []
    for t in _drawn_ticks(axis):
        for lab in (t.label1, t.label2):
            if lab.get_visible() and lab.get_text().strip():
                out.append(lab.get_text().strip())
    return out


def _name(ax) -> str:
    title = ax.get_title() or ax.get_ylabel() or ax.get_xlabel() or "an axes"
    return repr(title.splitlines()[0][:60])


def figure_problems(fig) -> list[str]:
    """What is wrong with ``fig`` as it would be saved (see the module docstring): one sentence
    per problem, naming the axes and the texts."""
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    problems: list[str] = []
    drawn_ticks: set[int] = set()
    all_tick_labels: set[int] = set()
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for which in ("x", "y"):
            axis = ax.xaxis if which == "x" else ax.yaxis
            for t in axis.majorTicks + axis.minorTicks:
                all_tick_labels.update((id(t.label1), id(t.label2)))
            if not axis.get_visible():
                continue
            ticks = _drawn_ticks(axis)
            major = {id(t) for t in axis.majorTicks}
            seen = []
            for t in ticks:
                drawn_ticks.update((id(t.label1), id(t.label2)))
                if id(t) in major:
                    lab = t.label1 if t.label1.get_visible() else t.label2
                    if lab.get_visible() and lab.get_text().strip():
                        seen.append(lab.get_text().strip())
            if len(set(seen)) < len(seen):
                problems.append(f"{_name(ax)}: {which} tick labels repeat: {', '.join(seen)}")
    fw, fh = fig.bbox.width, fig.bbox.height
    boxes: list[tuple[str, object, object, bool]] = []  # (what, bbox, its legend or None, rotated)
    legends = [leg for leg in fig.findobj(Legend) if leg.get_visible()]
    in_legend = {id(t): leg for leg in legends for t in leg.findobj(Text)}
    for leg in legends:
        boxes.append(("the legend", leg.get_window_extent(renderer), leg, False))
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        if id(text) in all_tick_labels and id(text) not in drawn_ticks:
            continue  # a spare tick of the axis's pool: not drawn
        if text.axes is not None and not text.axes.get_visible():
            continue
        try:
            box = text.get_window_extent(renderer)
        except (RuntimeError, ValueError):
            continue
        if box.width == 0 or box.height == 0:
            continue
        if (box.x0 < -SLACK_PX or box.y0 < -SLACK_PX or box.x1 > fw + SLACK_PX or box.y1 > fh + SLACK_PX):
            problems.append(f"text {text.get_text().strip()[:60]!r} is cut off at the figure's edge "
                            f"(box {box.x0:.0f}..{box.x1:.0f} x {box.y0:.0f}..{box.y1:.0f} in {fw:.0f} x {fh:.0f} px)")
        if id(text) not in in_legend:
            boxes.append((repr(text.get_text().strip()[:40]), box, None, text.get_rotation() % 180 != 0))
    for i, (wa, a, la, ra) in enumerate(boxes):
        for wb, b, lb, rb in boxes[i + 1:]:
            if (la is not None and la is lb) or (ra and rb):
                continue  # a legend's own texts; two slanted tick labels (their boxes overlap, their glyphs not)
            if (min(a.x1, b.x1) - max(a.x0, b.x0) > SLACK_PX and min(a.y1, b.y1) - max(a.y0, b.y0) > SLACK_PX):
                problems.append(f"{wa} overlaps {wb}")
    return problems


def check_figure(fig) -> None:
    """Raise ValueError listing :func:`figure_problems` of ``fig``, if any."""
    problems = figure_problems(fig)
    if problems:
        raise ValueError("figure problems:\n  " + "\n  ".join(problems))
