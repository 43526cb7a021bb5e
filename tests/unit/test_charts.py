"""The SVG charts: one mark per figure, labelled for screen readers, escaped."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from xml.etree import ElementTree

from bot.web import charts

SVG = "{http://www.w3.org/2000/svg}"


def test_the_weight_chart_has_a_dot_per_record_and_an_average_line() -> None:
    points = [(dt.date(2026, 3, d), Decimal("70") + d) for d in (1, 2, 5)]
    svg = str(charts.weight_chart(points, points, dt.date(2026, 3, 1), dt.date(2026, 3, 5)))
    tree = ElementTree.fromstring(svg)
    assert tree.get("role") == "img"
    assert len(tree.findall(f"{SVG}circle")) == 3
    assert tree.find(f"{SVG}polyline") is not None
    assert tree.find(f"{SVG}title") is not None
    assert "2026-03-05 75 kg" in svg


def test_an_empty_weight_chart_says_so() -> None:
    svg = str(charts.weight_chart([], [], dt.date(2026, 3, 1), dt.date(2026, 3, 5)))
    assert "没有记录" in svg
    assert "<circle" not in svg


def test_bars_are_escaped_and_the_goal_is_a_line() -> None:
    svg = str(charts.bar_chart([("<b>", 3.0, "a & b")], title="t<", goal=8))
    tree = ElementTree.fromstring(svg)  # well-formed: nothing leaked unescaped
    assert len(tree.findall(f"{SVG}rect")) == 1
    assert tree.find(f"{SVG}line[@class='goal']") is not None
    assert not re.search(r"<b>", svg)
