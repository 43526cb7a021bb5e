"""The commands a user can give, as frozen values.

The parser (`handlers.parse.parse`) turns text into exactly one of these (or a
`Confirm` holding one, when the reading is a guess); the
dispatcher routes each type to one small handler. Commands carry resolved,
concrete values (a `date`, a `Decimal`), never raw text to be re-parsed later,
so a handler never needs to know what "周五" meant on the day it was said.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from handlers import texts
from handlers.channel_commands import (
    ChannelCommand,
    SendChannelTest,
    SetFallbackChannel,
    SetPrimaryChannel,
    ShowChannels,
    UnbindReceiver,
)
from scheduler.core.schedule import Schedule
from storage.vocabulary import LedgerDirection, RuleKind


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
    """`任务 周五 提交材料`: a task, optionally due on a day and at a time;
    `任务 明天 9:00 交材料 直到完成`: nagged from its due time until done (`until_done`)."""

    title: str
    due_date: dt.date | None = None
    due_time: dt.time | None = None
    until_done: UntilDone | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class TaskRef:
    """Which task a state command means: its short number, (part of) its title, or
    its row id (from a card button, which must not follow a reused number)."""

    number: int | None = None
    title: str | None = None
    task_id: int | None = None


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
    """`帮助` (also `?`, `help`, `菜单`): the menu; `帮助 记账`: one topic's page;
    `你是谁` (`about`): who keeper is, in at most 3 lines like any short answer."""

    topic: str = ""
    about: bool = False


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
    """`提醒`: every rule of the user with its number, state and next time."""


@dataclass(frozen=True, kw_only=True, slots=True)
class UntilDone:
    """`直到完成 每10分钟 最多6次`: repeat every `every` minutes, `cap` messages in all
    (see `scheduler.core.nag`)."""

    every: int
    cap: int


@dataclass(frozen=True, kw_only=True, slots=True)
class AddReminder:
    """`提醒 每天 22:00 吃药`: a reminder in the user's words; `重要` -> at least once;
    `直到完成` -> it nags (`until_done`, one-offs only)."""

    title: str
    schedule: Schedule
    important: bool = False
    until_done: UntilDone | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class AnswerNag:
    """`收到` / a bare `完成` (typed: the nag that fired last) or the nag card's 知道了
    (`rule_id`): stop nagging. `word` is what was typed, for the answer when no nag
    is nagging (the word's old meaning)."""

    word: str = texts.NAG_ACK
    rule_id: int | None = None


RuleVerb = Literal["delete", "pause", "resume"]


@dataclass(frozen=True, kw_only=True, slots=True)
class ChangeRule:
    """`删除 提醒 3` / `暂停 提醒 3` / `恢复 提醒 3`: one rule by its number in 提醒;
    `把吃药那个提醒删了`: by (part of) its title instead (`title_ref`, `number` 0)."""

    verb: RuleVerb
    number: int = 0
    title_ref: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class SwitchAllReminders:
    """`关闭 提醒` (every rule off in one step) / `开启 提醒` (those back on)."""

    on: bool


DigestKind = Literal[RuleKind.DIGEST_MORNING, RuleKind.DIGEST_EVENING]


@dataclass(frozen=True, kw_only=True, slots=True)
class SetDigest:
    """`设置 晨报 07:30` (at) / `开启 晨报` (on, same time) / `关闭 晚报` (off)."""

    kind: DigestKind
    on: bool
    at: dt.time | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class SetReview:
    """`设置 周报 周日 20:00` (weekday Monday 0, at) / `开启 周报` / `关闭 周报`."""

    on: bool
    weekday: int | None = None
    at: dt.time | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowReview:
    """`周报`: the full weekly review, ending with its one suggestion."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SetBudget:
    """`预算 餐饮 1500`: a monthly budget for an expense category (yuan)."""

    category: str
    amount: Decimal


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowBudgets:
    """`预算`: the budgets and this month's progress."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CancelBudget:
    """`取消预算 餐饮`."""

    category: str


@dataclass(frozen=True, kw_only=True, slots=True)
class SetGoalWeight:
    """`目标体重 68` (kg) / `取消目标体重` (kg None)."""

    kg: Decimal | None


@dataclass(frozen=True, kw_only=True, slots=True)
class MoveTasks:
    """The review's suggestion to move long-overdue tasks (by id) to `to`; made only
    by a `好` to that suggestion, never parsed from text."""

    task_ids: tuple[int, ...]
    to: dt.date


@dataclass(frozen=True, kw_only=True, slots=True)
class SetQuiet:
    """`免打扰 2小时` (minutes) / `免打扰 到 明天 8:00` (until, local wall clock)."""

    minutes: int | None = None
    until_local: dt.datetime | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class EndQuiet:
    """`取消免打扰`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SetCards:
    """`设置 卡片 开|关`: reminders as WeCom cards with buttons, or plain text."""

    on: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowEvents:
    """`日程` alone: upcoming events with their numbers."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CancelEvent:
    """`取消日程 2`: cancel an upcoming event and its reminder; `明天的会取消了`: by
    (part of) its title instead (`title_ref`, `number` 0), on `day` when one was said."""

    number: int = 0
    title_ref: str | None = None
    day: dt.date | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class EditEvent:
    """`改日程 2 周五 15:00` / `改日程 2 明天 9:00-10:00 复查 提前1小时`.

    Only what is given changes: a time without a day keeps the day, a day without a
    time keeps the time, no title keeps the title. `把复诊改到周五下午3点` names the
    event by (part of) its title instead (`title_ref`, `number` 0).
    """

    number: int = 0
    title_ref: str | None = None
    day: dt.date | None = None
    start: dt.time | None = None
    end: dt.time | None = None
    title: str | None = None
    remind_minutes_before: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class PostponeTask:
    """`明天再说 3` (or the card button): the task moves to tomorrow, same time."""

    ref: TaskRef


@dataclass(frozen=True, kw_only=True, slots=True)
class SnoozeWater:
    """`稍后` (or the card button): remind about water again in `minutes`."""

    minutes: int = 30


@dataclass(frozen=True, kw_only=True, slots=True)
class AdminStatus:
    """`管理 状态` (KEEPER_ADMINS only): per-channel delivery counts and the queue."""


@dataclass(frozen=True, kw_only=True, slots=True)
class AdminSettle:
    """`管理 对账 <job> 已收到|未收到`: settle an unknown send by hand."""

    job_id: int
    received: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class AdminHoldAll:
    """`管理 暂停 全部` / `管理 恢复 全部`: hold or release every send of every user."""

    hold: bool


@dataclass(frozen=True, kw_only=True, slots=True)
class Welcome:
    """Not typed by users: the `subscribe` event (the app was added)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Confirm:
    """A reading that could be wrong (`35`, `称了一下 140`, `周五交材料`): not done,
    asked. The reply is one short question with `guess`; `是` within 10 minutes does
    it, anything else drops it (see `handlers.confirm`)."""

    guess: Command


@dataclass(frozen=True, kw_only=True, slots=True)
class WhoAmI:
    """`我是谁` / `我的账号`: the member's WeCom UserID (what KEEPER_ADMINS lists)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Dismiss:
    """`不` / `不是` / `算了`: no to a question (the guess is already dropped by then);
    `谢谢` (`thanked`): nothing to do either, answered in kind."""

    thanked: bool = False


# --- Pages and export (issue 13) -------------------------------------------------


@dataclass(frozen=True, kw_only=True, slots=True)
class OpenPages:
    """`网页`: a one-time sign-in link to the member's own page; `管理 网页` (admin)
    one to the admin page."""

    admin: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class ExportData:
    """`导出`: a one-time download link to a ZIP of the member's own data."""


@dataclass(frozen=True, kw_only=True, slots=True)
class SubscribeCalendar:
    """`日历订阅`: a private calendar address for a phone to subscribe to;
    `日历订阅 重置` (`reset`): every earlier address stops working, and a new one."""

    reset: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class ShowYear:
    """`今年`: the year so far in a few lines."""


@dataclass(frozen=True, kw_only=True, slots=True)
class LinkMiniProgram:
    """`绑定 小程序`: a one-time code that links the water mini-program to this member."""


Command = (
    Confirm
    | Dismiss
    | WhoAmI
    | RecordWeight
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
    | AdminHoldAll
    | AddReminder
    | AnswerNag
    | ChangeRule
    | SwitchAllReminders
    | SetDigest
    | SetQuiet
    | EndQuiet
    | SetCards
    | ShowEvents
    | CancelEvent
    | EditEvent
    | PostponeTask
    | SnoozeWater
    | OpenPages
    | ExportData
    | SubscribeCalendar
    | ShowYear
    | SetReview
    | ShowReview
    | SetBudget
    | ShowBudgets
    | CancelBudget
    | SetGoalWeight
    | MoveTasks
    | ChannelCommand
    | LinkMiniProgram
)


class ParseError(Exception):
    """The text is not a command we understand.

    `message` is the user-facing Chinese answer (short, says how to do it right).
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


RECORDS = (RecordWeight, RecordLedger, CheckInWater, WriteJournal, AddTask, AddEvent, AddReminder)
"""The commands that write a fact: never made from a message read only in part."""

SHORTENED_OK = (
    SetQuiet, EndQuiet, SetDigest, SetReview, SwitchWater, SwitchAllReminders, SetCards,
    SetWaterGoal, SetWaterInterval, SetDayWindow, SnoozeWater, ChangeRule, CancelBudget,
    AdminHoldAll, AdminStatus, CompleteTask, CancelTask, PostponeTask, UnbindReceiver,
    SetPrimaryChannel, SetFallbackChannel, CancelEvent, EditEvent, SetBudget, SetGoalWeight,
)  # fmt: skip
"""What a message said with a remark after it (`免打扰到中午12点 在考试`) may make:
settings and task states, never a record."""

LOOKS = (
    ShowToday, ShowWeek, ShowMonth, ShowTasks, ShowReminders, ShowEvents, ShowYear,
    ShowReview, ShowBudgets, ShowChannels, OpenPages, Help, WhoAmI, SendChannelTest,
)  # fmt: skip
"""What writes no fact and sends nothing but an answer or a test: after a remark said
first (`网页打不开了 再发个链接`) the request said last may make one of these."""
