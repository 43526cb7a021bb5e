"""What people type without a keyword (handlers/parse/natural.py, money.py, phrasing.py,
changes.py), read on Tuesday 2026-12-01 09:30. The broad table is the corpus
(tests/corpus); these rows pin the issue's own examples and the rules of precision."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from handlers.commands import (
    AddEvent,
    AddReminder,
    AddTask,
    CancelTask,
    CheckInWater,
    Command,
    CompleteTask,
    Confirm,
    EditEvent,
    Help,
    ParseError,
    PostponeTask,
    RecordLedger,
    RecordWeight,
    SetDayWindow,
    SetDigest,
    SetQuiet,
    SetWaterGoal,
    SetWaterInterval,
    ShowEvents,
    ShowTasks,
    ShowToday,
    ShowWeek,
    SwitchWater,
    TaskRef,
    Undo,
)
from handlers.parse import parse

TODAY = dt.date(2026, 12, 1)
NOW = dt.datetime(2026, 12, 1, 9, 30)  # noqa: DTZ001 -- the user's naive wall clock


def spend(amount: str, category: str, note: str) -> RecordLedger:
    return RecordLedger(direction="expense", amount=Decimal(amount), category=category, note=note)


def earn(amount: str, category: str, note: str) -> RecordLedger:
    return RecordLedger(direction="income", amount=Decimal(amount), category=category, note=note)


ROWS: list[tuple[str, Any]] = [
    # the issue's first paragraph (reminders are checked in test_parse_schedules' terms below)
    ("晚饭 48", spend("48", "餐饮", "晚饭")),
    ("称了下 70.1", RecordWeight(kg=Decimal("70.1"))),
    ("喝了三杯水", CheckInWater(glasses=3)),
    ("地铁 4块", spend("4", "交通", "地铁")),
    ("取快递搞定了", CompleteTask(ref=TaskRef(title="取快递"))),
    ("这周花了多少", ShowWeek()),
    ("刚才记错了", Undo()),
    # numbers in every form
    ("十八块五 奶茶", spend("18.5", "餐饮", "奶茶")),
    ("两千五 房租", spend("2500", "居住", "房租")),
    ("宵夜28", spend("28", "餐饮", "宵夜")),
    ("1.2w 奖金", earn("12000", "奖金", "奖金")),
    ("收到工资8000", earn("8000", "工资", "工资")),
    ("电费 一百零五", spend("105", "居住", "电费")),
    ("体重是七十二点四", RecordWeight(kg=Decimal("72.4"))),
    ("空腹140斤", RecordWeight(kg=Decimal("70"))),
    ("72。4kg", RecordWeight(kg=Decimal("72.4"))),
    # tasks, events, views, settings in words
    ("2 完成了", CompleteTask(ref=TaskRef(number=2))),
    ("不用买菜了", CancelTask(ref=TaskRef(title="买菜"))),
    ("买菜明天再说", PostponeTask(ref=TaskRef(title="买菜"))),
    ("加个待办 明天买菜", AddTask(title="买菜", due_date=dt.date(2026, 12, 2))),
    (
        "把复诊改到周五下午3点",
        EditEvent(title_ref="复诊", day=dt.date(2026, 12, 4), start=dt.time(15)),
    ),
    ("今天咋样了", ShowToday()),
    ("还有什么没做", ShowTasks()),
    ("日程有啥", ShowEvents()),
    ("上一条不要了", Undo()),
    ("撤销上一步", Undo()),
    ("这周体重", ShowWeek()),
    ("撤回刚才那个", Undo()),
    ("帮助 记账", Help(topic="记账")),
    ("打开早报", SetDigest(kind="digest_morning", on=True)),
    ("每隔一个半小时提醒我喝水", SetWaterInterval(minutes=90)),
    ("作息 七点到十一点", SetDayWindow(wake=dt.time(7), sleep=dt.time(23))),
    ("目标十杯", SetWaterGoal(glasses=10)),
    ("关掉喝水提醒", SwitchWater(action="close")),
    ("两小时内别打扰我", SetQuiet(minutes=120)),
    ("把晚报关了", SetDigest(kind="digest_evening", on=False)),
    ("把喝水提醒关了", SwitchWater(action="close")),
    ("一天喝8杯水", SetWaterGoal(glasses=8)),
    ("交了房租3500", spend("3500", "居住", "房租")),
    ("工资到账 12000", earn("12000", "工资", "工资")),
    # asked, never recorded
    ("35", Confirm(guess=spend("35", "其他", ""))),
    ("称了一下 140", Confirm(guess=RecordWeight(kg=Decimal("70")))),
    ("张三 200", Confirm(guess=spend("200", "其他", "张三"))),
    ("喝了三杯", Confirm(guess=CheckInWater(glasses=3))),
    ("周五交材料", Confirm(guess=AddTask(title="交材料", due_date=dt.date(2026, 12, 4)))),
    ("昨天打车 30", Confirm(guess=spend("30", "交通", "昨天打车"))),
    ("12/5 体检", Confirm(guess=AddTask(title="体检", due_date=dt.date(2026, 12, 5)))),
    (
        "明天8点的飞机",
        Confirm(guess=AddEvent(title="飞机", day=dt.date(2026, 12, 2), start=dt.time(8))),
    ),
]


@pytest.mark.parametrize(("text", "expected"), ROWS, ids=[text for text, _ in ROWS])
def test_a_natural_phrasing_reads_as_its_command(text: str, expected: Command) -> None:
    assert parse(text, today=TODAY, now_local=NOW) == expected


@pytest.mark.parametrize(
    "text",
    [
        "听说隔壁房租涨到4000了",
        "小时候一块钱能买好多零食",
        "今天走了8000步",
        "我今年30岁",
        "花了2个小时",
        "72.4 磅",
        "午饭35贵吗",
        "一起吃饭",
        "体重多少合适",
        "基金亏了300",
        "他借了我500",
        "心率72",
        "跑了10公里用了50分钟",
    ],
)
def test_a_story_with_a_number_never_becomes_a_record(text: str) -> None:
    try:
        result = parse(text, today=TODAY, now_local=NOW)
    except ParseError:
        return
    assert isinstance(result, Confirm | ShowToday | Help), result


def test_the_first_paragraphs_reminders_are_read() -> None:
    daily = parse("每天早上七点半提醒我吃维生素", today=TODAY, now_local=NOW)
    later = parse("四十分钟后提醒我关烤箱", today=TODAY, now_local=NOW)
    assert isinstance(daily, AddReminder)
    assert isinstance(later, AddReminder)
    assert (daily.title, daily.schedule.cron) == ("吃维生素", (("hour", "7"), ("minute", "30")))
    assert (later.title, later.schedule.once_at) == ("关烤箱", NOW + dt.timedelta(minutes=40))
