"""The admin page's 14-day figures: local days, outcomes per channel, reminders
answered, callbacks and their p95, and the charts drawn from them."""

from __future__ import annotations

import datetime as dt
from xml.etree import ElementTree
from zoneinfo import ZoneInfo

import pytest

from bot.web import admin_series, admin_view
from storage.repos.admin_days import ANSWER_WINDOW, Reminder, Send, answered
from storage.vocabulary import AttemptOutcome

SHANGHAI = ZoneInfo("Asia/Shanghai")
TODAY = dt.date(2026, 12, 1)
SVG = "{http://www.w3.org/2000/svg}"


def utc(day: int, hour: int, minute: int = 0, month: int = 12) -> dt.datetime:
    return dt.datetime(2026, month, day, hour, minute, tzinfo=dt.UTC)


def test_the_axis_is_fourteen_local_days_ending_today() -> None:
    axis = admin_series.day_axis(TODAY)
    assert len(axis) == 14
    assert (axis[0], axis[-1]) == (dt.date(2026, 11, 18), TODAY)
    # The first instant read is local midnight of the first day: 16:00 UTC the day before.
    assert admin_series.first_instant(TODAY, SHANGHAI) == utc(17, 16, month=11)


def test_sends_fall_on_the_local_day_and_per_outcome_and_channel() -> None:
    sends = [
        Send(channel="wecom_app", outcome=AttemptOutcome.ACCEPTED, at=utc(1, 1)),
        # 16:30 UTC on Nov 30 is 00:30 on Dec 1 in Shanghai: today, not yesterday.
        Send(channel="wecom_app", outcome=AttemptOutcome.ACCEPTED, at=utc(30, 16, 30, month=11)),
        Send(channel="wecom_app", outcome=AttemptOutcome.FAILED, at=utc(30, 15, 59, month=11)),
        Send(channel="wecom_app", outcome=AttemptOutcome.UNKNOWN, at=utc(18, 0, month=11)),
        Send(channel="wxpusher", outcome=AttemptOutcome.ACCEPTED, at=utc(1, 2)),
        Send(channel="wecom_app", outcome=AttemptOutcome.ACCEPTED, at=utc(1, 16, month=11)),  # old
    ]
    days = admin_series.channel_days("wecom_app", sends, [], SHANGHAI, TODAY)
    assert days.accepted[-1] == 2
    assert days.failed[-2] == 1
    assert days.unknown[0] == 1
    assert sum(days.accepted) == 2
    assert sum(days.failed) + sum(days.unknown) == 2


def test_reminders_and_their_answers_are_counted_per_day() -> None:
    reminders = [
        Reminder(channel="wecom_app", at=utc(1, 1), answered=True),
        Reminder(channel="wecom_app", at=utc(1, 2), answered=False),
        Reminder(channel="wecom_app", at=utc(29, 2, month=11), answered=True),
        Reminder(channel="wxpusher", at=utc(1, 3), answered=True),
    ]
    days = admin_series.channel_days("wecom_app", [], reminders, SHANGHAI, TODAY)
    assert (days.reminders[-1], days.answered[-1]) == (2, 1)
    assert (days.reminders[-3], days.answered[-3]) == (1, 1)
    assert sum(days.answered) == 2


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], None),
        ([7], 7),
        (list(range(1, 21)), 19),  # nearest rank: the 19th of 20
        (list(range(1, 101)), 95),
        ([5, 1, 900, 3], 900),
    ],
)
def test_p95_by_nearest_rank(values: list[int], expected: int | None) -> None:
    assert admin_series.p95(values) == expected


def test_callbacks_are_counted_and_timed_per_local_day() -> None:
    rows = [(utc(1, 1, m), 10 * m) for m in range(1, 21)]
    rows += [(utc(1, 2), None)]  # handled before the time was kept: counted, not timed
    rows += [(utc(25, 3, month=11), 40)]
    days = admin_series.callback_days(rows, SHANGHAI, TODAY)
    assert days.handled[-1] == 21
    assert days.p95_ms[-1] == 190
    assert (days.handled[-7], days.p95_ms[-7]) == (1, 40)
    assert days.p95_ms[0] is None
    data = admin_series.as_data(days)
    assert data["days"][-1] == "2026-12-01"
    assert data["handled"][-1] == 21


def test_an_answer_is_an_act_within_the_window_after_the_send() -> None:
    sent = utc(1, 1)
    assert answered([sent + dt.timedelta(minutes=5)], sent)
    assert answered([sent - dt.timedelta(minutes=1), sent + ANSWER_WINDOW], sent)
    assert not answered([sent], sent)  # at the same instant: not after it
    assert not answered([sent - dt.timedelta(minutes=5)], sent)
    assert not answered([sent + ANSWER_WINDOW + dt.timedelta(seconds=1)], sent)
    assert not answered([], sent)


def test_the_channel_chart_draws_a_part_per_outcome_and_a_dot_per_answer_day() -> None:
    days = admin_series.ChannelDays(
        channel="wecom_app",
        days=admin_series.day_axis(TODAY),
        accepted=[0] * 12 + [3, 4],
        failed=[0] * 13 + [1],
        unknown=[1] + [0] * 13,
        reminders=[0] * 12 + [2, 3],
        answered=[0] * 12 + [1, 2],
    )
    tree = ElementTree.fromstring(str(admin_view.sends_chart(days)))
    parts = tree.findall(f"{SVG}rect")
    assert sorted(p.get("class") or "" for p in parts) == [
        "part bad", "part ok", "part ok", "part unk",
    ]  # fmt: skip
    assert len(tree.findall(f"{SVG}circle")) == 14  # answered is 0 on the other days
    assert tree.find(f"{SVG}polyline[@class='line ans']") is not None
    assert tree.get("role") == "img"


def test_the_callback_chart_has_its_own_scale_for_the_p95() -> None:
    days = admin_series.CallbackDays(
        days=admin_series.day_axis(TODAY), handled=[0] * 13 + [5], p95_ms=[None] * 13 + [250]
    )
    svg = str(admin_view.callbacks_chart(days))
    tree = ElementTree.fromstring(svg)
    assert len(tree.findall(f"{SVG}rect")) == 1
    assert len(tree.findall(f"{SVG}circle")) == 1
    assert "275 ms" in svg  # the right-hand scale's top: 250 and a tenth of headroom
    assert "12-01 p95 用时 250ms" in svg
