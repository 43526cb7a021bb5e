"""The morning and evening digests as tables (scheduler/core/digests.py)."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scheduler.core.digests import DayFacts, DigestEvent, DigestTask, evening, morning
from scheduler.core.reminder_rules import digest_schedule
from scheduler.core.schedule import next_after
from scheduler.reminder_kinds import is_digest_slot
from storage.records import RuleRecord

TODAY = dt.date(2026, 11, 25)
YESTERDAY = TODAY - dt.timedelta(days=1)
TOMORROW = TODAY + dt.timedelta(days=1)
T = dt.time
LIMIT = 2048


def task(
    number: int | None, title: str, day: dt.date | None = TODAY, at: dt.time | None = None
) -> DigestTask:
    return DigestTask(number=number, title=title, due_date=day, due_time=at)


def event(title: str, start: dt.time | None = None, day: dt.date = TODAY) -> DigestEvent:
    return DigestEvent(title=title, day=day, start=start)


def facts(
    tasks: tuple[DigestTask, ...] = (),
    events: tuple[DigestEvent, ...] = (),
    *,
    weight_today: bool = True,
    tracks_weight: bool = True,
) -> DayFacts:
    return DayFacts(
        today=TODAY,
        open_tasks=tasks,
        events=events,
        weight_today=weight_today,
        tracks_weight=tracks_weight,
    )


def lines(text: str | None) -> list[str]:
    assert text is not None
    return text.split("\n")


# --- morning ---


@pytest.mark.parametrize(
    "day",
    [
        pytest.param(facts(), id="nothing-at-all"),
        pytest.param(facts((task(1, "买菜", day=None),)), id="only-undated-tasks"),
        pytest.param(facts((task(1, "交材料", day=TOMORROW),)), id="only-future-tasks"),
        pytest.param(
            facts(events=(event("开会", T(9), day=TOMORROW),)), id="only-other-days-events"
        ),
        pytest.param(facts(weight_today=False), id="no-weight-is-no-morning-news"),
    ],
)
def test_a_morning_with_nothing_due_and_no_events_is_not_sent(day: DayFacts) -> None:
    assert morning(day) is None


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param(
            facts((task(3, "提交材料", at=T(15)),)),
            [
                "早上好，今天的安排：",
                "待办：",
                "  3 提交材料（15:00）",
                "做完回复「完成 编号」，比如「完成 3」。",
            ],
            id="one-task-due-today-with-its-time",
        ),
        pytest.param(
            facts((task(5, "交报告", day=TODAY - dt.timedelta(days=2)),)),
            [
                "早上好，今天的安排：",
                "待办：",
                "  5 交报告（已过期 2 天）",
                "做完回复「完成 编号」，比如「完成 5」。",
            ],
            id="only-an-overdue-task",
        ),
        pytest.param(
            facts(events=(event("复诊", T(14)), event("体检"), event("开会", T(9, 30)))),
            ["早上好，今天的安排：", "日程：", "  全天 体检", "  09:30 开会", "  14:00 复诊"],
            id="events-all-day-first-then-by-time",
        ),
        pytest.param(
            facts((task(None, "买菜"),)),
            ["早上好，今天的安排：", "待办：", "  买菜"],
            id="a-task-without-number-has-no-hint",
        ),
        pytest.param(
            facts((task(1, "买菜"), task(2, "读书", day=None), task(4, "跑步", day=None))),
            [
                "早上好，今天的安排：",
                "待办：",
                "  1 买菜",
                "另有 2 项没定日期的待办，发「任务」查看。",
                "做完回复「完成 编号」，比如「完成 1」。",
            ],
            id="undated-tasks-are-counted-not-listed",
        ),
    ],
)
def test_the_morning_lists_todays_events_and_due_tasks(day: DayFacts, expected: list[str]) -> None:
    assert lines(morning(day)) == expected


def test_morning_tasks_are_overdue_oldest_first_then_timed_then_untimed() -> None:
    day = facts(
        (
            task(1, "今天无时"),
            task(2, "今天下午", at=T(15)),
            task(3, "昨天", day=YESTERDAY),
            task(4, "前天", day=TODAY - dt.timedelta(days=2)),
            task(5, "今天上午", at=T(9)),
            task(6, "明天", day=TOMORROW),
        )
    )
    assert lines(morning(day))[2:7] == [
        "  4 前天（已过期 2 天）",
        "  3 昨天（已过期 1 天）",
        "  5 今天上午（09:00）",
        "  2 今天下午（15:00）",
        "  1 今天无时",
    ]


def test_the_morning_shows_events_before_tasks() -> None:
    text = lines(morning(facts((task(1, "买菜"),), (event("开会", T(9)),))))
    assert text[:5] == ["早上好，今天的安排：", "日程：", "  09:00 开会", "待办：", "  1 买菜"]


# --- evening ---


@pytest.mark.parametrize(
    ("day", "now"),
    [
        pytest.param(facts(), T(21, 30), id="nothing-at-all"),
        pytest.param(facts(events=(event("开会", T(9)),)), T(21, 30), id="events-already-past"),
        pytest.param(facts(events=(event("吃药", T(21, 30)),)), T(21, 30), id="event-starting-now"),
        pytest.param(facts(events=(event("体检"),)), T(21, 30), id="all-day-events"),
        pytest.param(facts((task(1, "读书", day=None),)), T(21, 30), id="undated-tasks"),
        pytest.param(facts((task(1, "交材料", day=TOMORROW),)), T(21, 30), id="future-tasks"),
        pytest.param(
            facts(weight_today=False, tracks_weight=False), T(21, 30), id="weight-not-tracked"
        ),
    ],
)
def test_an_evening_with_nothing_open_is_not_sent(day: DayFacts, now: dt.time) -> None:
    assert evening(day, now) is None


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param(
            facts((task(3, "提交材料", at=T(15)),)),
            [
                "今天还没完成的：",
                "  3 提交材料（15:00）",
                "做完回复「完成 编号」，比如「完成 3」。",
            ],
            id="an-open-task-due-today",
        ),
        pytest.param(
            facts((task(5, "交报告", day=YESTERDAY),)),
            [
                "今天还没完成的：",
                "  5 交报告（已过期 1 天）",
                "做完回复「完成 编号」，比如「完成 5」。",
            ],
            id="only-an-overdue-task",
        ),
        pytest.param(
            facts(events=(event("散步", T(22)), event("开会", T(9)), event("吃药", T(21, 45)))),
            ["今晚还有：", "  21:45 吃药", "  22:00 散步"],
            id="only-events-later-tonight-sorted",
        ),
        pytest.param(
            facts(weight_today=False),
            ["今天还没记体重，称好了发「体重 72.4」。"],
            id="the-weight-nudge-alone",
        ),
        pytest.param(
            facts((task(None, "买菜"),), (event("吃药", T(22)),), weight_today=False),
            [
                "今天还没完成的：",
                "  买菜",
                "今晚还有：",
                "  22:00 吃药",
                "今天还没记体重，称好了发「体重 72.4」。",
            ],
            id="tasks-events-and-nudge",
        ),
    ],
)
def test_the_evening_lists_only_what_is_still_open(day: DayFacts, expected: list[str]) -> None:
    assert lines(evening(day, T(21, 30))) == expected


@pytest.mark.parametrize(
    ("weight_today", "tracks_weight", "nudged"),
    [
        pytest.param(False, True, True, id="tracks-weight-and-none-today"),
        pytest.param(True, True, False, id="already-weighed-today"),
        pytest.param(False, False, False, id="does-not-track-weight"),
        pytest.param(True, False, False, id="weighed-once-today-but-not-tracking"),
    ],
)
def test_the_weight_nudge_goes_only_to_trackers_without_a_weight_today(
    weight_today: bool, tracks_weight: bool, nudged: bool
) -> None:
    day = facts((task(1, "买菜"),), weight_today=weight_today, tracks_weight=tracks_weight)
    assert ("体重" in (evening(day, T(21)) or "")) is nudged


def test_the_morning_never_nudges_about_weight() -> None:
    assert "体重" not in (morning(facts((task(1, "买菜"),), weight_today=False)) or "")


# --- caps and size ---

MANY_TASKS = tuple(task(i, f"任务{i}") for i in range(1, 13))
MANY_EVENTS = tuple(event(f"日程{i}", T(22, i)) for i in range(12))


@pytest.mark.parametrize(
    ("digest", "head"),
    [
        pytest.param(morning(facts(MANY_TASKS)), "待办：", id="morning-tasks"),
        pytest.param(morning(facts(events=MANY_EVENTS)), "日程：", id="morning-events"),
        pytest.param(evening(facts(MANY_TASKS), T(21)), "今天还没完成的：", id="evening-tasks"),
        pytest.param(evening(facts(events=MANY_EVENTS), T(21)), "今晚还有：", id="evening-events"),
    ],
)
def test_a_long_list_shows_eight_items_then_how_many_more(digest: str | None, head: str) -> None:
    text = lines(digest)
    start = text.index(head) + 1
    assert [line.startswith("  ") for line in text[start : start + 9]] == [True] * 9
    assert text[start + 8] == "  还有 4 项"


LONG = "很长的标题" * 40  # 200 characters, 600 bytes


@pytest.mark.parametrize(
    "digest",
    [
        pytest.param(
            morning(
                facts(
                    tuple(task(100000 + i, LONG, day=dt.date(2000, 1, 1)) for i in range(30))
                    + tuple(task(i, LONG, day=None) for i in range(30)),
                    tuple(event(LONG, T(i % 24, i)) for i in range(30)),
                )
            ),
            id="morning",
        ),
        pytest.param(
            evening(
                facts(
                    tuple(task(100000 + i, LONG, day=dt.date(2000, 1, 1)) for i in range(30)),
                    tuple(event(LONG, T(23, i)) for i in range(30)),
                    weight_today=False,
                ),
                T(0),
            ),
            id="evening",
        ),
    ],
)
def test_a_full_digest_of_200_character_titles_stays_well_under_2048_bytes(
    digest: str | None,
) -> None:
    assert digest is not None
    assert len(digest.encode()) <= 1800
    assert "…" in digest


def test_a_title_cannot_add_lines_to_a_digest() -> None:
    text = lines(morning(facts((task(1, "买菜\n  9 假的待办"),))))
    assert text[2] == "  1 买菜 9 假的待办"


def test_a_digest_built_from_titles_never_carries_an_amount() -> None:
    day = facts(
        (task(1, "交房租", at=T(9)), task(2, "还信用卡", day=YESTERDAY)),
        (event("复诊", T(22)),),
        weight_today=False,
    )
    for text in (morning(day), evening(day, T(21))):
        assert text is not None
        assert "¥" not in text
        assert "元" not in text
        assert not re.search(r"\d+\.\d{2}", text)


# --- properties ---

titles = st.text(max_size=300)
times = st.none() | st.times()
dates = st.none() | st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2060, 1, 1))
tasks_st = st.builds(
    DigestTask,
    number=st.none() | st.integers(min_value=1, max_value=10**6),
    title=titles,
    due_date=dates,
    due_time=times,
)
events_st = st.builds(
    DigestEvent,
    title=titles,
    day=st.sampled_from([YESTERDAY, TODAY, TOMORROW]),
    start=times,
)
facts_st = st.builds(
    DayFacts,
    today=st.just(TODAY),
    open_tasks=st.lists(tasks_st, max_size=40).map(tuple),
    events=st.lists(events_st, max_size=40).map(tuple),
    weight_today=st.booleans(),
    tracks_weight=st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(day=facts_st, now=st.times())
def test_digests_never_raise_and_always_fit_one_message(day: DayFacts, now: dt.time) -> None:
    for text in (morning(day), evening(day, now)):
        assert text is None or 0 < len(text.encode()) <= LIMIT


def test_ais_digest_slot_shifted_by_a_dst_gap_still_belongs_to_its_rule() -> None:
    """02:30 does not exist in Berlin on 2026-03-29; the slot is 03:30 and still valid."""
    tz = ZoneInfo("Europe/Berlin")
    rule = RuleRecord(
        id=1,
        user_id=1,
        kind="digest_morning",
        status="active",
        policy="at_most_once",
        priority="normal",
        channel="wecom_app",
        next_fire_at=None,
        spec="02:30",
    )
    slot = next_after(
        digest_schedule(dt.time(2, 30)), dt.datetime(2026, 3, 28, 12, tzinfo=dt.UTC), tz
    )
    assert slot.astimezone(tz).time() == dt.time(3, 30)
    assert is_digest_slot(rule, slot, tz)
    assert not is_digest_slot(rule, slot + dt.timedelta(minutes=1), tz)
