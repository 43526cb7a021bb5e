"""The year's projections (per day, per month, the moving average, `今年`) as tables."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from handlers import texts, year
from storage.records import WeightPoint
from storage.repos.year import SpanFacts, offset_runs

SH = ZoneInfo("Asia/Shanghai")


def utc(day: int, hour: int, month: int = 3) -> dt.datetime:
    return dt.datetime(2026, month, day, hour, tzinfo=dt.UTC)


def D(text: str) -> Decimal:
    return Decimal(text)


FACTS = SpanFacts(
    weights=[
        WeightPoint(value=D("72.40"), occurred_at=utc(1, 1)),
        WeightPoint(value=D("72.00"), occurred_at=utc(1, 10)),
    ],
    water={dt.date(2026, 3, 1): 1, dt.date(2026, 3, 2): 1},
    money={dt.date(2026, 3, 1): (D("35.00"), D("8000.00"))},
    by_month=[
        (dt.date(2026, 3, 1), "expense", "餐饮", D("35.00")),
        (dt.date(2026, 3, 1), "income", "工资", D("8000.00")),
        (dt.date(2026, 4, 1), "expense", "交通", D("4.00")),
    ],
    tasks_done=[utc(1, 6)],
    events=[(dt.date(2026, 3, 1), "复诊")],
    journal=[utc(1, 7), utc(1, 8)],
)


def test_facts_land_on_the_users_local_day_with_the_days_last_weight() -> None:
    days = year.by_day(FACTS, SH)
    first = days[dt.date(2026, 3, 1)]
    assert first.weight == D("72.00")
    assert first.water == 1
    assert (first.spent, first.income) == (D("35.00"), D("8000.00"))
    assert (first.tasks_done, first.events, first.journal) == (1, ["复诊"], True)
    assert first.level == 4
    assert days[dt.date(2026, 3, 2)].water == 1
    assert days[dt.date(2026, 3, 2)].level == 1


def test_a_day_whose_water_was_only_taken_back_is_not_negative() -> None:
    facts = SpanFacts(
        weights=[],
        water={dt.date(2026, 3, 1): -2},
        money={},
        by_month=[],
        tasks_done=[],
        events=[],
        journal=[],
    )
    assert year.by_day(facts, SH)[dt.date(2026, 3, 1)].water == 0


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([], []),
        ([(1, "70")], [(1, "70.00")]),
        ([(1, "70"), (2, "72")], [(1, "70.00"), (2, "71.00")]),
        ([(1, "70"), (8, "72")], [(1, "70.00"), (8, "72.00")]),  # 7 days apart: window moved on
        ([(1, "70"), (7, "71"), (8, "75")], [(1, "70.00"), (7, "70.50"), (8, "73.00")]),
    ],
)
def test_the_moving_average_is_a_trailing_seven_day_window_by_date(
    points: list[tuple[int, str]], expected: list[tuple[int, str]]
) -> None:
    given = [(dt.date(2026, 3, d), D(v)) for d, v in points]
    assert year.moving_average(given) == [(dt.date(2026, 3, d), D(v)) for d, v in expected]


def test_money_is_summed_per_local_month_and_category_largest_first() -> None:
    months = year.by_month(FACTS.by_month)
    assert [m.first for m in months] == [dt.date(2026, 3, 1), dt.date(2026, 4, 1)]
    assert months[0].spent == D("35.00")
    assert months[0].income == D("8000.00")
    assert months[1].by_category == {"交通": D("4.00")}


def test_the_year_summary_counts_only_this_year_up_to_today() -> None:
    days = year.by_day(FACTS, SH)
    s = year.summarise(
        days, year.by_month(FACTS.by_month), year=2026, through=dt.date(2026, 3, 2), goal=1
    )
    assert s.days_recorded == 2
    assert (s.weights, s.first_weight, s.low_weight) == (1, D("72.00"), D("72.00"))
    assert (s.water_days, s.water_goal_days) == (2, 2)
    assert s.spent == D("35.00")  # April's 4.00 is after `through`
    assert s.top_category == ("餐饮", D("35.00"))
    assert (s.tasks_done, s.events, s.journal_days) == (1, 1, 1)


def test_the_year_in_chat_is_a_few_short_lines() -> None:
    text = texts.year_view(
        year=2026, through=dt.date(2026, 3, 2), days=2,
        weight=(D("72.40"), D("71.00"), D("70.50"), 9), water_days=2, goal_days=1,
        spent=D("35.00"), income=D("0.00"), top=("餐饮", D("35.00")), done=1, events=1,
        journal_days=1,
    )  # fmt: skip
    assert text.splitlines()[0] == "2026年（到3月2日），有记录的 2 天"
    assert "体重 72.4 → 71 kg，最低 70.5（称了 9 次）" in text
    assert len(text.splitlines()) <= 6
    assert len(text.encode()) < 2048


def test_an_empty_year_says_how_to_start() -> None:
    text = texts.year_view(
        year=2026, through=dt.date(2026, 3, 2), days=0, weight=None, water_days=0,
        goal_days=0, spent=D("0"), income=D("0"), top=None, done=0, events=0, journal_days=0,
    )  # fmt: skip
    assert "还没有记录" in text


def test_local_days_are_cut_into_runs_where_the_midnight_offset_changes() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    runs = offset_runs(dt.date(2026, 3, 27), dt.date(2026, 3, 31), berlin)  # DST on the 29th
    assert [(start.isoformat(), offset) for start, _, offset in runs] == [
        ("2026-03-26T23:00:00+00:00", 3600),
        ("2026-03-29T22:00:00+00:00", 7200),  # 00:00 CEST
    ]
    assert runs[0][1] == runs[1][0]  # no gap: the 29th (23 hours long) is in the first run
    assert len(offset_runs(dt.date(2026, 1, 1), dt.date(2026, 12, 31), SH)) == 1
