"""Settings and switches (handlers/parse/settings.py): digests, reminder rules, quiet
time and cards, with the event and task changes read beside them (parse/tasks.py) and
the card buttons (parse/views.py), as a table: text -> the exact command, on
Wednesday 2026-11-25 at 10:00 local."""

from __future__ import annotations

import datetime as dt

import pytest

from handlers.commands import (
    AdminHoldAll,
    CancelEvent,
    ChangeRule,
    CheckInWater,
    Command,
    CompleteTask,
    EditEvent,
    EndQuiet,
    PostponeTask,
    SetCards,
    SetDigest,
    SetQuiet,
    ShowEvents,
    ShowReminders,
    SnoozeWater,
    SwitchAllReminders,
    TaskRef,
)
from handlers.parse import parse, parse_card_key
from scheduler.core import cards

WEDNESDAY = dt.date(2026, 11, 25)


def local(y: int, m: int, d: int, hh: int, mm: int) -> dt.datetime:
    """A naive local wall-clock time: what the parser takes and gives."""
    return dt.datetime(y, m, d, hh, mm)  # noqa: DTZ001 -- naive by design


NOW_LOCAL = local(2026, 11, 25, 10, 0)
T = dt.time

COMMANDS: list[tuple[str, Command]] = [
    ("提醒", ShowReminders()),
    ("提醒列表", ShowReminders()),
    ("日程", ShowEvents()),
    ("设置 晨报 07:30", SetDigest(kind="digest_morning", on=True, at=T(7, 30))),
    ("设置晨报 7:30", SetDigest(kind="digest_morning", on=True, at=T(7, 30))),
    ("设置 晚报 21:00", SetDigest(kind="digest_evening", on=True, at=T(21, 0))),
    ("关闭 晨报", SetDigest(kind="digest_morning", on=False)),
    ("关闭 晚报", SetDigest(kind="digest_evening", on=False)),
    ("暂停 晚报", SetDigest(kind="digest_evening", on=False)),
    ("开启 晨报", SetDigest(kind="digest_morning", on=True)),
    ("恢复 晚报", SetDigest(kind="digest_evening", on=True)),
    ("关闭 提醒", SwitchAllReminders(on=False)),
    ("暂停 提醒", SwitchAllReminders(on=False)),
    ("开启 提醒", SwitchAllReminders(on=True)),
    ("恢复 提醒", SwitchAllReminders(on=True)),
    ("暂停 提醒 3", ChangeRule(verb="pause", number=3)),
    ("暂停提醒3", ChangeRule(verb="pause", number=3)),
    ("恢复 提醒 3", ChangeRule(verb="resume", number=3)),
    ("关闭 提醒 #2", ChangeRule(verb="pause", number=2)),
    ("删除 提醒 3", ChangeRule(verb="delete", number=3)),
    ("删除提醒 12", ChangeRule(verb="delete", number=12)),
    ("免打扰 2小时", SetQuiet(minutes=120)),
    ("免打扰 2 个小时", SetQuiet(minutes=120)),
    ("免打扰 30分钟", SetQuiet(minutes=30)),
    ("免打扰 半小时", SetQuiet(minutes=30)),
    ("免打扰 1个半小时", SetQuiet(minutes=90)),
    ("免打扰 1.5h", SetQuiet(minutes=90)),
    ("免打扰 两小时", SetQuiet(minutes=120)),
    ("免打扰 1天", SetQuiet(minutes=1440)),
    ("免打扰 到 明天 8:00", SetQuiet(until_local=local(2026, 11, 26, 8, 0))),
    ("免打扰到明天早上8点", SetQuiet(until_local=local(2026, 11, 26, 8, 0))),
    ("免打扰 到 15:00", SetQuiet(until_local=local(2026, 11, 25, 15, 0))),
    ("免打扰 到 8:00", SetQuiet(until_local=local(2026, 11, 26, 8, 0))),
    ("免打扰 至 周五 9:00", SetQuiet(until_local=local(2026, 11, 27, 9, 0))),
    ("取消免打扰", EndQuiet()),
    ("取消 免打扰", EndQuiet()),
    ("取消 日程 2", CancelEvent(number=2)),
    ("结束免打扰", EndQuiet()),
    ("设置 卡片 开", SetCards(on=True)),
    ("设置 卡片 关", SetCards(on=False)),
    ("设置卡片 关闭", SetCards(on=False)),
    ("取消日程 2", CancelEvent(number=2)),
    ("取消日程2", CancelEvent(number=2)),
    ("取消日程 #2", CancelEvent(number=2)),
    ("改日程 2 周五 15:00", EditEvent(number=2, day=dt.date(2026, 11, 27), start=T(15, 0))),
    ("改日程 2 16:00-17:00", EditEvent(number=2, start=T(16, 0), end=T(17, 0))),
    ("修改日程 3 复查", EditEvent(number=3, title="复查")),
    ("改日程 1 提前1小时", EditEvent(number=1, remind_minutes_before=60)),
    (
        "改日程 1 明天 9:00 复查 提前15分钟",
        EditEvent(
            number=1,
            day=dt.date(2026, 11, 26),
            start=T(9, 0),
            title="复查",
            remind_minutes_before=15,
        ),
    ),
    ("明天再说 3", PostponeTask(ref=TaskRef(number=3))),
    ("明天再说 交材料", PostponeTask(ref=TaskRef(title="交材料"))),
    ("稍后", SnoozeWater()),
    ("稍后提醒", SnoozeWater()),
    ("管理 暂停 全部", AdminHoldAll(hold=True)),
    ("管理 恢复 全部", AdminHoldAll(hold=False)),
    ("管理 暂停全部", AdminHoldAll(hold=True)),
]


@pytest.mark.parametrize(("text", "expected"), COMMANDS, ids=[t for t, _ in COMMANDS])
def test_a_reminder_command_becomes_its_command(text: str, expected: Command) -> None:
    assert parse(text, today=WEDNESDAY, now_local=NOW_LOCAL) == expected


CARD_KEYS: list[tuple[str, Command]] = [
    (cards.water_key("done"), CheckInWater(glasses=1)),
    (cards.water_key("later"), SnoozeWater()),
    (cards.task_key("done", 42), CompleteTask(ref=TaskRef(task_id=42))),
    (cards.task_key("tomorrow", 42), PostponeTask(ref=TaskRef(task_id=42))),
]


@pytest.mark.parametrize(("key", "expected"), CARD_KEYS, ids=[k for k, _ in CARD_KEYS])
def test_a_card_button_means_the_same_as_its_words(key: str, expected: Command) -> None:
    assert parse_card_key(key) == expected


@pytest.mark.parametrize("key", ["", "keeper:task:done:", "today", "keeper:water:maybe"])
def test_an_unknown_card_button_is_a_parse_error_not_a_crash(key: str) -> None:
    from handlers.commands import ParseError

    with pytest.raises(ParseError, match="失效"):
        parse_card_key(key)
