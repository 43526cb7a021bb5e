"""Notification wording (scheduler/core/messages.py): reminders, lateness, merging, outages."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from scheduler.core.messages import (
    LATE_AFTER_MINUTES,
    TEXT_MAX_BYTES,
    WATER_REMINDER,
    Lost,
    custom_reminder,
    event_reminder,
    late_note,
    lost_summary,
    merged,
    missed_summary,
    task_reminder,
    water_reminder,
)

SHANGHAI = ZoneInfo("Asia/Shanghai")
NEW_YORK = ZoneInfo("America/New_York")
DUE = dt.datetime(2026, 11, 25, 6, 0, tzinfo=dt.UTC)
AT_14 = dt.datetime(2026, 11, 25, 14, 0, tzinfo=SHANGHAI)
NAIVE = dt.datetime(2026, 11, 25, 6, 0)  # noqa: DTZ001 - naive on purpose, to be refused


def nbytes(text: str) -> int:
    return len(text.encode())


# --- single reminders ---


@pytest.mark.parametrize(
    ("minutes", "expected"),
    [
        pytest.param(30, "⏰ 30 分钟后：14:00 复诊", id="minutes"),
        pytest.param(60, "⏰ 1 小时后：14:00 复诊", id="one-hour"),
        pytest.param(90, "⏰ 1 小时 30 分钟后：14:00 复诊", id="hour-and-minutes"),
        pytest.param(0, "⏰ 现在：14:00 复诊", id="at-the-start"),
    ],
)
def test_an_event_reminder_says_how_long_until_the_start(minutes: int, expected: str) -> None:
    assert event_reminder("复诊", AT_14, minutes) == expected


@pytest.mark.parametrize(
    ("number", "cards", "expected"),
    [
        pytest.param(
            3,
            False,
            "⏰ 待办 3 到期：14:00 提交材料\n做完回复「完成 3」，改到明天回复「明天再说 3」",
            id="text-with-number",
        ),
        pytest.param(3, True, "⏰ 待办 3 到期：14:00 提交材料", id="cards-have-no-reply-words"),
        pytest.param(
            None,
            False,
            "⏰ 待办到期：14:00 提交材料\n做完回复「完成 提交材料」，改到明天回复「明天再说 提交材料」",
            id="text-without-number-quotes-the-title",
        ),
    ],
)
def test_a_task_reminder_says_how_to_answer_in_text_mode(
    number: int | None, cards: bool, expected: str
) -> None:
    assert task_reminder(number, "提交材料", AT_14, cards=cards) == expected


def test_a_custom_reminder_names_its_title() -> None:
    assert custom_reminder("吃药") == "⏰ 提醒：吃药"


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        pytest.param(False, WATER_REMINDER, id="text-asks-for-a-reply"),
        pytest.param(True, "该喝水了 💧", id="card-leaves-it-to-the-button"),
    ],
)
def test_the_water_reminder_has_reply_words_only_in_text_mode(cards: bool, expected: str) -> None:
    assert water_reminder(cards=cards) == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(event_reminder("长" * 2000, AT_14, 30), id="event"),
        pytest.param(task_reminder(None, "长" * 2000, AT_14, cards=False), id="task"),
        pytest.param(custom_reminder("长" * 2000), id="custom"),
    ],
)
def test_a_reminder_with_a_huge_title_still_fits_one_message(text: str) -> None:
    assert nbytes(text) <= TEXT_MAX_BYTES


# --- lateness ---


@pytest.mark.parametrize(
    ("late", "expected"),
    [
        pytest.param(dt.timedelta(0), None, id="on-time"),
        pytest.param(dt.timedelta(minutes=-3), None, id="early"),
        pytest.param(dt.timedelta(minutes=4, seconds=59), None, id="just-under-five-minutes"),
        pytest.param(dt.timedelta(minutes=5), "（晚了 5 分钟）", id="exactly-five-minutes"),
        pytest.param(
            dt.timedelta(minutes=12, seconds=40), "（晚了 12 分钟）", id="minutes-rounded-down"
        ),
        pytest.param(
            dt.timedelta(minutes=59, seconds=59), "（晚了 59 分钟）", id="just-under-an-hour"
        ),
        pytest.param(dt.timedelta(hours=1), "（晚了 1 小时）", id="exactly-an-hour"),
        pytest.param(dt.timedelta(minutes=65), "（晚了 1 小时 5 分钟）", id="hour-and-minutes"),
        pytest.param(dt.timedelta(hours=26), "（晚了 26 小时）", id="more-than-a-day"),
    ],
)
def test_a_late_notification_says_how_late_from_five_minutes_on(
    late: dt.timedelta, expected: str | None
) -> None:
    assert late_note(DUE, DUE + late) == expected


def test_the_lateness_threshold_is_five_minutes() -> None:
    assert LATE_AFTER_MINUTES == 5


def test_lateness_is_counted_in_real_minutes_across_a_dst_change() -> None:
    due = dt.datetime(2026, 11, 1, 1, 50, tzinfo=NEW_YORK)  # EDT, before clocks go back
    now = dt.datetime(2026, 11, 1, 1, 5, fold=1, tzinfo=NEW_YORK)  # EST, 15 minutes later
    assert late_note(due, now) == "（晚了 15 分钟）"


@pytest.mark.parametrize(("due", "now"), [(NAIVE, DUE), (DUE, NAIVE)], ids=["due", "now"])
def test_lateness_refuses_naive_datetimes(due: dt.datetime, now: dt.datetime) -> None:
    with pytest.raises(ValueError, match="naive"):
        late_note(due, now)


# --- merging ---


def test_merged_notifications_keep_their_order_with_a_clear_separator() -> None:
    assert merged(["⏰ 提醒：吃药", "该喝水了 💧"]) == "⏰ 提醒：吃药\n———\n该喝水了 💧"


def test_a_single_notification_is_merged_unchanged() -> None:
    assert merged([WATER_REMINDER]) == WATER_REMINDER


@pytest.mark.parametrize(
    ("parts", "kept", "more"),
    [
        pytest.param(["长" * 300] * 2, 2, None, id="two-that-fit"),
        pytest.param(["长" * 300] * 3, 2, "……还有 1 条提醒。", id="third-does-not-fit"),
        pytest.param(["长" * 300] * 10, 2, "……还有 8 条提醒。", id="many"),
        # 3 bytes a part, 11 a separator: 144 parts and the tail fill 2048 bytes.
        pytest.param(["短"] * 400, 144, "……还有 256 条提醒。", id="hundreds-of-short-ones"),
    ],
)
def test_merging_stops_at_the_byte_limit_and_says_how_many_more(
    parts: list[str], kept: int, more: str | None
) -> None:
    text = merged(parts)
    assert nbytes(text) <= TEXT_MAX_BYTES
    chunks = text.split("\n———\n")
    if more is None:
        assert chunks == parts
    else:
        assert chunks[:-1] == parts[:kept]
        assert chunks[-1] == more


def test_a_first_notification_too_long_alone_is_cut_to_fit() -> None:
    text = merged(["长" * 1000, "短"])
    assert nbytes(text) <= TEXT_MAX_BYTES
    assert text.endswith("…\n———\n……还有 1 条提醒。")


def test_merging_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="nothing"):
        merged([])


# --- after an outage ---


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        pytest.param(
            ["22:00 吃药", "13:30 复诊", "晨报"],
            "有 3 条提醒过了时间没能发出：22:00 吃药、13:30 复诊、晨报。没有补发。",
            id="a-few",
        ),
        pytest.param(["晨报"], "有 1 条提醒过了时间没能发出：晨报。没有补发。", id="one"),
        pytest.param(
            [f"提醒{i}" for i in range(7)],
            "有 7 条提醒过了时间没能发出：提醒0、提醒1、提醒2、提醒3、提醒4等。没有补发。",
            id="capped-at-five-then-etc",
        ),
    ],
)
def test_the_missed_summary_names_what_was_lost_and_says_it_was_not_resent(
    labels: list[str], expected: str
) -> None:
    assert missed_summary(labels) == expected


def test_the_missed_summary_stays_one_short_line_with_long_labels() -> None:
    text = missed_summary(["很长\n的提醒" * 100] * 9)
    assert "\n" not in text
    assert nbytes(text) < 500


def test_a_missed_summary_of_nothing_is_refused() -> None:
    with pytest.raises(ValueError, match="nothing"):
        missed_summary([])


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        pytest.param(
            [Lost(label="21:00 吃药", how="expired")],
            "有 1 条提醒过了时间没能发出：21:00 吃药。没有补发。",
            id="only-expired-reads-as-before",
        ),
        pytest.param(
            [
                Lost(label="13:30 复诊", how="failed", why="服务器 IP 不在企业可信 IP 中"),
                Lost(label="晨报", how="unknown"),
                Lost(label="21:00 吃药", how="expired"),
            ],
            "有 3 条提醒没能送到：13:30 复诊（发送失败：服务器 IP 不在企业可信 IP 中）、"
            "晨报（不确定是否送到）、21:00 吃药（过了时间）。没有补发。",
            id="failed-unknown-and-expired-in-one-line",
        ),
        pytest.param(
            [Lost(label="交材料", how="failed")],
            "有 1 条提醒没能送到：交材料（发送失败）。没有补发。",
            id="a-failure-without-a-known-reason",
        ),
    ],
)
def test_the_lost_summary_says_how_each_reminder_did_not_arrive(
    items: list[Lost], expected: str
) -> None:
    assert lost_summary(items) == expected


def test_the_lost_summary_stays_one_short_line() -> None:
    text = lost_summary([Lost(label="很长\n的提醒" * 100, how="failed", why="原因")] * 9)
    assert "\n" not in text
    assert nbytes(text) < 600
