"""`直到完成` and the answers to a nag, as the parser reads them (a table), with the
refusals: each a clear short answer, and nothing saved (a ParseError)."""

from __future__ import annotations

import datetime as dt

import pytest

from handlers import texts
from handlers.commands import AddReminder, AddTask, AnswerNag, ParseError, RecordLedger, UntilDone
from handlers.parse import parse, parse_card_key
from scheduler.core import cards

TODAY = dt.date(2026, 11, 30)
NOW = dt.datetime(2026, 11, 30, 10, 0)  # noqa: DTZ001 -- the naive local clock the parser takes


def read(text: str) -> object:
    return parse(text, today=TODAY, now_local=NOW)


@pytest.mark.parametrize(
    ("text", "title", "once_at", "every", "cap"),
    [
        ("提醒 明天 9:00 交材料 直到完成", "交材料", "2026-12-01T09:00", 10, 6),
        ("提醒 今天 14:30 吃药 直到完成 每10分钟", "吃药", "2026-11-30T14:30", 10, 6),
        ("提醒 今天 14:30 吃药 每15分钟 直到完成", "吃药", "2026-11-30T14:30", 15, 6),
        ("提醒 今天 14:30 吃药 直到完成 每隔5分钟", "吃药", "2026-11-30T14:30", 5, 6),
        ("提醒 今天 14:30 吃药 直到完成 每2小时", "吃药", "2026-11-30T14:30", 120, 6),
        ("提醒 今天 14:30 吃药 直到完成 每半小时", "吃药", "2026-11-30T14:30", 30, 6),
        ("提醒 今天 14:30 吃药 直到完成 每隔一刻钟", "吃药", "2026-11-30T14:30", 15, 6),
        ("提醒 今天 14:30 吃药 每半个小时提醒一次 直到完成", "吃药", "2026-11-30T14:30", 30, 6),
        ("提醒 今天 14:30 吃药 直到完成 最多3次", "吃药", "2026-11-30T14:30", 10, 3),
        ("提醒 今天 14:30 吃药 直到收到 每二十分钟 最多十次", "吃药", "2026-11-30T14:30", 20, 10),
        ("提醒 30分钟后 关火 直到完成", "关火", "2026-11-30T10:30", 10, 6),
        ("明天9点提醒我交材料，直到我说完成", "交材料", "2026-12-01T09:00", 10, 6),
        ("下午3点提醒我吃药 每隔15分钟提醒一次 直到我回复收到", "吃药", "2026-11-30T15:00", 15, 6),
        ("今晚8点提醒我倒垃圾 一直提醒直到我说做完为止", "倒垃圾", "2026-11-30T20:00", 10, 6),
        ("提醒 今天 14:30 吃药 直到完成 每隔一个半小时", "吃药", "2026-11-30T14:30", 90, 6),
        ("提醒 今天 14:30 吃药 直到完成 每隔1个半小时", "吃药", "2026-11-30T14:30", 90, 6),
        ("提醒 今天 14:30 吃药 直到完成 每个小时", "吃药", "2026-11-30T14:30", 60, 6),
        ("提醒 今天 14:30 吃药 直到完成 每小时", "吃药", "2026-11-30T14:30", 60, 6),
        ("提醒 今天 14:30 吃药 直到完成 每半个钟头", "吃药", "2026-11-30T14:30", 30, 6),
        ("提醒 今天 14:30 吃药 直到完成 每刻钟", "吃药", "2026-11-30T14:30", 15, 6),
    ],
)
def test_until_done_makes_a_one_off_reminder_nag(
    text: str, title: str, once_at: str, every: int, cap: int
) -> None:
    command = read(text)
    assert isinstance(command, AddReminder)
    assert command.title == title
    assert command.schedule.once_at == dt.datetime.fromisoformat(once_at)
    assert command.until_done == UntilDone(every=every, cap=cap)


@pytest.mark.parametrize(
    "text",
    [
        "提醒 明天 9:00 交材料",
        "提醒 每天 22:00 吃药",
        "明天9点提醒我交材料",
        "提醒 今天 14:30 完成报告",
    ],
)
def test_a_reminder_without_until_done_does_not_nag(text: str) -> None:
    command = read(text)
    assert isinstance(command, AddReminder)
    assert command.until_done is None


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("提醒 每天 22:00 吃药 直到完成", texts.NAG_ONCE_ONLY),
        ("提醒 工作日 9:00 打卡 直到完成", texts.NAG_ONCE_ONLY),
        ("提醒 今天 14:30 吃药 直到完成 每3分钟", texts.NAG_EVERY_RANGE),
        ("提醒 今天 14:30 吃药 直到完成 每121分钟", texts.NAG_EVERY_RANGE),
        ("提醒 今天 14:30 吃药 直到完成 每3小时", texts.NAG_EVERY_RANGE),
        ("提醒 今天 14:30 吃药 直到完成 最多1次", texts.NAG_CAP_RANGE),
        ("提醒 今天 14:30 吃药 直到完成 最多30次", texts.NAG_CAP_RANGE),
        ("提醒 今天 14:30 直到完成", texts.NEEDS_TITLE),
        ("提醒 今天 14:30 吃药 直到完成 每99999分钟", texts.NAG_EVERY_RANGE),
        ("提醒 今天 14:30 吃药 直到完成 每10分钟 每20分钟", texts.NAG_EVERY_TWICE),
        ("提醒 今天 14:30 吃药 直到完成 每半小时 每刻钟", texts.NAG_EVERY_TWICE),
        ("提醒 今天 14:30 吃药 直到完成 每1.5小时", texts.NAG_EVERY_UNREAD),
        ("提醒 今天 14:30 吃药 直到完成 每一个半分钟", texts.NAG_EVERY_UNREAD),
        ("提醒 今天 14:30 吃药 直到完成 最多3次 最多5次", texts.NAG_CAP_TWICE),
        ("提醒 今天 14:30 吃药 直到完成 最多三点五次", texts.NAG_CAP_UNREAD),
        ("提醒 今天 14:30 吃药 直到完成 每两个半小时", texts.NAG_EVERY_RANGE),
        ("提醒 今天 14:30 吃药 直到完成 最多99999次", texts.NAG_CAP_RANGE),
        ("提醒 今天 8:00 吃药 直到完成", texts.IN_THE_PAST),
    ],
)
def test_a_nag_that_cannot_be_kept_is_refused_with_a_clear_answer(text: str, answer: str) -> None:
    with pytest.raises(ParseError) as refused:
        read(text)
    assert refused.value.message == answer


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("收到", "收到"),
        ("收到了", "收到了"),
        ("知道了", "知道了"),
        ("完成", "完成"),
        ("完成了", "完成了"),
        ("做完了", "做完了"),
        ("做完", "做完"),
        ("搞定", "搞定"),
        ("搞定了", "搞定了"),
        ("弄完", "弄完"),
        ("弄完了", "弄完了"),
        ("好的收到", "收到"),  # politeness before 收到: the answer a channel test reads too
    ],
)
def test_a_bare_answer_word_is_the_answer_to_a_nag(text: str, word: str) -> None:
    assert read(text) == AnswerNag(word=word)


def test_money_received_is_still_income() -> None:
    command = read("收到工资 8000")
    assert isinstance(command, RecordLedger)
    assert command.direction == "income"


def test_the_nag_cards_button_answers_its_own_nag() -> None:
    assert parse_card_key(cards.nag_key("ack", 7)) == AnswerNag(word="知道了", rule_id=7)


@pytest.mark.parametrize(
    ("text", "due_date", "due_time", "every"),
    [
        ("任务 明天 9:00 交材料 直到完成", "2026-12-01", "09:00", 10),
        ("待办 今天 15:00 交报告 直到完成 每20分钟", "2026-11-30", "15:00", 20),
    ],
)
def test_a_task_with_until_done_is_nagged_from_its_due_time(
    text: str, due_date: str, due_time: str, every: int
) -> None:
    command = read(text)
    assert isinstance(command, AddTask)
    assert (command.due_date, command.due_time) == (
        dt.date.fromisoformat(due_date),
        dt.time.fromisoformat(due_time),
    )
    assert command.until_done == UntilDone(every=every, cap=6)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("任务 明天 交材料 直到完成", texts.NAG_NEEDS_TIME),
        ("任务 交材料 直到完成", texts.NAG_NEEDS_TIME),
        ("任务 明天 9:00 交材料 直到完成 每200分钟", texts.NAG_EVERY_RANGE),
    ],
)
def test_a_task_nag_without_a_time_or_with_a_bad_interval_is_refused(
    text: str, answer: str
) -> None:
    with pytest.raises(ParseError) as refused:
        read(text)
    assert refused.value.message == answer
