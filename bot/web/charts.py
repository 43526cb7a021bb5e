"""Charts as server-side SVG: pure functions from numbers to markup.

Chosen over a vendored chart library: nothing to ship or load (the page works in
WeCom's browser with scripts off and no internet), each chart is a few KiB of SVG,
and it is accessible as written: `role="img"`, a `<title>` and `<desc>` for the
chart, a `<title>` on every point or bar (read aloud, shown on long press), and
the same figures in a table next to it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from html import escape

from markupsafe import Markup

from handlers import texts
from handlers.texts import kg

W, H = 360, 180
PAD_L, PAD_R, PAD_T, PAD_B = 34, 8, 10, 20


def _frame(title: str, desc: str, body: list[str]) -> Markup:
    head = (
        f'<svg class="chart" viewBox="0 0 {W} {H}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
        f"<desc>{escape(desc)}</desc>"
    )
    return Markup(head + "".join(body) + "</svg>")


def _scale(lo: float, hi: float, top: float, bottom: float) -> tuple[float, float]:
    """Slope and offset mapping [lo, hi] onto [bottom, top] (y grows downwards)."""
    span = (hi - lo) or 1.0
    slope = (top - bottom) / span
    return slope, bottom - slope * lo


def _axis_label(x: float, y: float, text: str, anchor: str = "end") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="lbl">{escape(text)}</text>'


def weight_chart(
    points: Sequence[tuple[dt.date, Decimal]],
    average: Sequence[tuple[dt.date, Decimal]],
    first: dt.date,
    last: dt.date,
) -> Markup:
    """A dot per weight recorded (class `pt`) and the moving average as a line."""
    title = texts.chart_weight_title(first, last, len(points))
    if not points:
        return _frame(
            title,
            texts.CHART_NO_WEIGHTS,
            [_axis_label(W / 2, H / 2, texts.CHART_EMPTY, "middle")],
        )
    values = [float(v) for _, v in points]
    lo, hi = min(values) - 0.5, max(values) + 0.5
    ky, by = _scale(lo, hi, PAD_T, H - PAD_B)
    kx, bx = _scale(0, max(1, (last - first).days), W - PAD_R, PAD_L)

    def xy(day: dt.date, value: Decimal) -> tuple[float, float]:
        return kx * (day - first).days + bx, ky * float(value) + by

    body = [
        f'<line class="axis" x1="{PAD_L}" y1="{H - PAD_B}" x2="{W - PAD_R}" y2="{H - PAD_B}"/>',
        _axis_label(PAD_L - 3, PAD_T + 8, f"{hi:.1f}"),
        _axis_label(PAD_L - 3, H - PAD_B, f"{lo:.1f}"),
        _axis_label(PAD_L, H - 4, f"{first:%m-%d}", "start"),
        _axis_label(W - PAD_R, H - 4, f"{last:%m-%d}"),
    ]
    line = " ".join("{:.1f},{:.1f}".format(*xy(d, v)) for d, v in average)
    body.append(
        f'<polyline class="avg" points="{line}"><title>{texts.CHART_AVERAGE}</title></polyline>'
    )
    for day, value in points:
        x, y = xy(day, value)
        body.append(
            f'<circle class="pt" cx="{x:.1f}" cy="{y:.1f}" r="2.5">'
            f"<title>{day:%Y-%m-%d} {kg(value)} kg</title></circle>"
        )
    desc = texts.chart_weight_range(min(values), max(values))
    return _frame(title, desc, body)


def bar_chart(
    bars: Sequence[tuple[str, float, str]], *, title: str, goal: float | None = None
) -> Markup:
    """Bars (label, value, tooltip) left to right; an optional dashed goal line."""
    top = max([v for _, v, _ in bars] + [goal or 0, 1])
    ky, by = _scale(0, top * 1.1, PAD_T, H - PAD_B)
    width = (W - PAD_L - PAD_R) / max(1, len(bars))
    body = [
        f'<line class="axis" x1="{PAD_L}" y1="{H - PAD_B}" x2="{W - PAD_R}" y2="{H - PAD_B}"/>',
        _axis_label(PAD_L - 3, PAD_T + 8, f"{top * 1.1:.0f}"),
    ]
    for i, (label, value, tip) in enumerate(bars):
        x, y = PAD_L + i * width, ky * value + by
        body.append(
            f'<rect class="bar" x="{x + width * 0.15:.1f}" y="{y:.1f}" width="{width * 0.7:.1f}" '
            f'height="{H - PAD_B - y:.1f}"><title>{escape(tip)}</title></rect>'
        )
        if len(bars) <= 12 or i % 5 == 0:
            body.append(_axis_label(x + width / 2, H - 6, label, "middle"))
    if goal:
        gy = ky * goal + by
        body.append(
            f'<line class="goal" x1="{PAD_L}" y1="{gy:.1f}" x2="{W - PAD_R}" y2="{gy:.1f}">'
            f"<title>{texts.chart_goal(goal)}</title></line>"
        )
    return _frame(title, texts.chart_bars(len(bars)), body)


@dataclass(frozen=True, kw_only=True, slots=True)
class Series:
    """One figure per day: its name (tooltips and the legend), the class its marks
    carry (colours in keeper.css), and its values (None: nothing that day)."""

    name: str
    css: str
    values: Sequence[float | None]


def day_chart(
    days: Sequence[dt.date],
    stacks: Sequence[Series],
    *,
    title: str,
    line: Series | None = None,
    line_unit: str = "",
) -> Markup:
    """A bar per day, stacked from `stacks` bottom up (a `rect` per non-zero part,
    classed `part` and the series' class), and an optional `line` drawn over them
    with a dot per day that has a value. With a `line_unit` the line has a scale of
    its own, labelled at the right ("ms"); without, it shares the bars' scale."""
    if not days:
        return _frame(title, texts.CHART_EMPTY, [])
    totals = [sum(s.values[i] or 0 for s in stacks) for i in range(len(days))]
    shared = [] if line is None or line_unit else [v for v in line.values if v is not None]
    top = max([*totals, *shared, 1]) * 1.1
    ky, by = _scale(0, top, PAD_T, H - PAD_B)
    width = (W - PAD_L - PAD_R) / len(days)
    body = [
        f'<line class="axis" x1="{PAD_L}" y1="{H - PAD_B}" x2="{W - PAD_R}" y2="{H - PAD_B}"/>',
        _axis_label(PAD_L - 3, PAD_T + 8, f"{top:.0f}"),
        _axis_label(PAD_L - 3, H - PAD_B, "0"),
    ]
    for i, day in enumerate(days):
        x, base = PAD_L + i * width, 0.0
        for s in stacks:
            value = s.values[i] or 0
            if not value:
                continue
            y_top, y_base = ky * (base + value) + by, ky * base + by
            body.append(
                f'<rect class="part {s.css}" x="{x + width * 0.15:.1f}" y="{y_top:.1f}" '
                f'width="{width * 0.7:.1f}" height="{y_base - y_top:.1f}">'
                f"<title>{day:%m-%d} {escape(s.name)} {value:g}</title></rect>"
            )
            base += value
        if (len(days) - 1 - i) % 3 == 0:
            body.append(_axis_label(x + width / 2, H - 6, f"{day:%m-%d}", "middle"))
    if line is not None:
        body += _line(days, line, width, line_unit, (ky, by))
    return _frame(title, texts.chart_days(days[0], days[-1]), body)


def _line(
    days: Sequence[dt.date],
    line: Series,
    width: float,
    unit: str,
    shared: tuple[float, float],
) -> list[str]:
    """The line's marks: its own scale's label (with a unit), the polyline, the dots."""
    ky, by = shared
    head = []
    if unit:
        top = max([v for v in line.values if v is not None] + [1]) * 1.1
        ky, by = _scale(0, top, PAD_T, H - PAD_B)
        head.append(_axis_label(W - PAD_R, PAD_T + 8, f"{top:.0f} {unit}"))
    points, dots = [], []
    for i, (day, value) in enumerate(zip(days, line.values, strict=True)):
        if value is None:
            continue
        x, y = PAD_L + (i + 0.5) * width, ky * value + by
        points.append(f"{x:.1f},{y:.1f}")
        dots.append(
            f'<circle class="dot {line.css}" cx="{x:.1f}" cy="{y:.1f}" r="2.5">'
            f"<title>{day:%m-%d} {escape(line.name)} {value:g}{escape(unit)}</title></circle>"
        )
    if len(points) > 1:
        head.append(f'<polyline class="line {line.css}" points="{" ".join(points)}"/>')
    return head + dots
