"""The commands a user can give, as frozen values.

The parser (`handlers.parser.parse`) turns text into exactly one of these; the
dispatcher routes each type to one small handler. Commands carry resolved,
concrete values (a `date`, a `Decimal`), never raw text to be re-parsed later,
so a handler never needs to know what "周五" meant on the day it was said.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

LedgerDirection = Literal["expense", "income"]


@dataclass(frozen=True, kw_only=True, slots=True)
class RecordWeight:
    """`体重 72.4` / `145斤`: a weight in kilograms (斤 already converted)."""

    kg: Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class CheckInWater:
    """`喝水` / `喝水 +2` / `喝水 -1`: glasses to add (negative corrects a slip)."""

    glasses: int


@dataclass(frozen=True, kw_only=True, slots=True)
class RecordLedger:
    """`记账 35 午饭` / `支出 35.5 交通 打车` / `收入 8000 工资`.

    `amount` is always positive; `direction` says which way the money went.
    `category` defaults to "其他" when the user gives none.
    """

    direction: LedgerDirection
    amount: Decimal
    category: str
    note: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class AddTask:
    """`任务 周五 提交材料`: a task, optionally due on a day and at a time."""

    title: str
    due_date: dt.date | None = None
    due_time: dt.time | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskRef:
    """Which task a state command means: its short number or (part of) its title."""

    number: int | None = None
    title: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class CompleteTask:
    """`完成 3` / `完成 提交材料`."""

    ref: TaskRef


@dataclass(frozen=True, kw_only=True, slots=True)
class CancelTask:
    """`取消 3` / `取消 提交材料`."""

    ref: TaskRef


@dataclass(frozen=True, kw_only=True, slots=True)
class AddEvent:
    """`日程 周四 14:00-15:00 复诊` / `日程 明天 9:30 开会 提前15分钟`.

    `start` is None for an all-day event. `end` is None when not given.
    `remind_minutes_before` is None when the user did not say 提前N分钟.
    """

    title: str
    day: dt.date
    start: dt.time | None = None
    end: dt.time | None = None
    remind_minutes_before: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class WriteJournal:
    """`日记 ……`: free text, kept verbatim (trimmed)."""

    text: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowToday:
    """`今天`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowWeek:
    """`本周`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowMonth:
    """`本月` / `账单`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowTasks:
    """`任务` (with nothing after it): open tasks with their short numbers."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Undo:
    """`撤销`: undo the user's last record."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Help:
    """`帮助` (also `?`, `help`, `菜单`)."""


WaterAction = Literal["enable", "pause", "resume", "close"]


@dataclass(frozen=True, kw_only=True, slots=True)
class SwitchWater:
    """`开启 喝水` / `暂停 喝水` / `恢复 喝水` / `关闭 喝水`: the water reminders."""

    action: WaterAction


@dataclass(frozen=True, kw_only=True, slots=True)
class SetDayWindow:
    """`设置 作息 08:00-22:00`: reminders only between waking and sleeping."""

    wake: dt.time
    sleep: dt.time


@dataclass(frozen=True, kw_only=True, slots=True)
class SetWaterInterval:
    """`设置 喝水间隔 120`: minutes from a check-in to the next reminder (30-480)."""

    minutes: int


@dataclass(frozen=True, kw_only=True, slots=True)
class SetWaterGoal:
    """`设置 喝水目标 8`: glasses a day; once reached, reminders rest until tomorrow."""

    glasses: int


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowReminders:
    """`提醒`: the water plan's state and the next reminder time."""


@dataclass(frozen=True, kw_only=True, slots=True)
class AdminStatus:
    """`管理 状态` (KEEPER_ADMINS only): per-channel delivery counts and the queue."""


@dataclass(frozen=True, kw_only=True, slots=True)
class AdminSettle:
    """`管理 对账 <job> 已收到|未收到`: settle an unknown send by hand."""

    job_id: int
    received: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Welcome:
    """Not typed by users: the `subscribe` event (the app was added)."""


Command = (
    RecordWeight
    | CheckInWater
    | RecordLedger
    | AddTask
    | CompleteTask
    | CancelTask
    | AddEvent
    | WriteJournal
    | ShowToday
    | ShowWeek
    | ShowMonth
    | ShowTasks
    | Undo
    | Help
    | Welcome
    | SwitchWater
    | SetDayWindow
    | SetWaterInterval
    | SetWaterGoal
    | ShowReminders
    | AdminStatus
    | AdminSettle
)


class ParseError(Exception):
    """The text is not a command we understand.

    `message` is the user-facing Chinese answer (short, says how to do it right).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
