"""Chinese message text -> one `Command`, or `ParseError` with the answer to give.

The parser is pure and total: no I/O, no clock (the caller passes `today`), and for
any string at all it returns a Command or raises ParseError, never anything else.

How a message is read, in order:
1. Over 2000 characters: refused before any other work.
2. Full-width characters become ASCII (`７２．４` -> `72.4`), outer space is dropped.
3. Whole-message words (`今天`, `本周`, `任务`, `撤销`, `帮助` ...) -> a view or action.
4. A leading command keyword (`体重`, `记账`, `任务`, `日程` ...) -> that keyword's
   small parse function, given the rest of the message.
5. A weight with its unit (`72.4kg`, `145斤`); a bare number is refused as ambiguous.
6. Anything else -> ParseError("没看懂这句。" + help).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from handlers import parse_reminders, texts
from handlers.commands import (
    AddEvent,
    AddTask,
    CancelEvent,
    CancelTask,
    CheckInWater,
    Command,
    CompleteTask,
    EditEvent,
    EndQuiet,
    Help,
    LedgerDirection,
    ParseError,
    PostponeTask,
    RecordLedger,
    RecordWeight,
    ShowEvents,
    ShowMonth,
    ShowReminders,
    ShowTasks,
    ShowToday,
    ShowWeek,
    SnoozeWater,
    TaskRef,
    Undo,
    WriteJournal,
)
from handlers.dates import match_when
from handlers.numbers import (
    is_bare_number,
    match_amount,
    normalise,
    parse_weight,
    small_int,
    strip_separators,
    words,
)
from handlers.parse_custom import parse_custom_reminder
from scheduler import cards

MAX_LENGTH = 2000
MAX_REMIND_MINUTES = 24 * 60
MAX_TASK_NUMBER = 99_999

_WHOLE_MESSAGES: dict[str, Callable[[], Command]] = {
    "今天": ShowToday, "今日": ShowToday,
    "本周": ShowWeek, "这周": ShowWeek,
    "本月": ShowMonth, "账单": ShowMonth,
    "任务": ShowTasks, "待办": ShowTasks, "任务列表": ShowTasks,
    "撤销": Undo, "撤回": Undo,
    "帮助": Help, "help": Help, "?": Help, "菜单": Help,
    "提醒": ShowReminders, "提醒列表": ShowReminders,
    "日程": ShowEvents, "日程列表": ShowEvents,
    "取消免打扰": EndQuiet, "结束免打扰": EndQuiet,
    "稍后": SnoozeWater, "稍后提醒": SnoozeWater, "等会儿": SnoozeWater,
}  # fmt: skip
_MENU_KEYS: dict[str, Callable[[], Command]] = {
    "today": ShowToday, "week": ShowWeek, "month": ShowMonth, "tasks": ShowTasks,
    "help": Help, "undo": Undo, "water": lambda: CheckInWater(glasses=1),
}  # fmt: skip
_LEDGER_DIRECTIONS: dict[str, LedgerDirection] = {
    "记账": "expense", "支出": "expense", "花了": "expense", "收入": "income",
}  # fmt: skip
_WATER = re.compile(
    r"(?P<sign>[+-]?)\s*(?P<count>[0-9]+|[零〇一二两三四五六七八九十]{1,3})\s*(?:杯水?)?"
)
_TASK_NUMBER = re.compile(r"(?:#|第|no\.?)?\s*(?P<number>[0-9]+)\s*(?:项|个|号)?", re.IGNORECASE)
_SEVERAL_NUMBERS = re.compile(r"#?[0-9]+(?:[\s,;、]+#?[0-9]+)+")
_REMIND = re.compile(
    r"提前\s*(?P<count>[0-9]+(?:\.[0-9]+)?|半)\s*(?P<unit>分钟|分|个?小时|个?钟头|天|min|h)?",
    re.IGNORECASE,
)
_MINUTES_PER = {"天": 1440, "小时": 60, "个小时": 60, "钟头": 60, "个钟头": 60, "h": 60}


@dataclass(frozen=True, slots=True)
class _Body:
    """What follows a command keyword: normalised, as typed, and the user's date."""

    keyword: str
    text: str  # normalised, outer separators stripped
    raw: str  # as typed, outer whitespace stripped (the journal keeps this)
    today: dt.date
    now_local: dt.datetime  # naive local wall clock (reminders: 30分钟后, 到 8:00)


def parse(text: str, *, today: dt.date, now_local: dt.datetime | None = None) -> Command:
    """Read one message. Returns a Command or raises ParseError, for any string.

    `today` is the user's local date; relative days (明天, 周五, 1号) resolve against
    it. `now_local` is the user's naive wall-clock time (for `提醒 30分钟后 ...` and
    `免打扰 到 8:00`); without it the day is taken to start now (00:00 of `today`).
    ParseError.message is the Chinese reply saying how to write it instead.
    """
    local = now_local if now_local is not None else dt.datetime.combine(today, dt.time())
    if len(text) > MAX_LENGTH:
        raise ParseError(texts.TOO_LONG)
    normal = normalise(text)
    start = len(normal) - len(normal.lstrip())
    whole = normal.strip().rstrip("。!").strip()
    if not whole:
        raise ParseError(texts.EMPTY_MESSAGE)
    if make := _WHOLE_MESSAGES.get(whole.casefold()):
        return make()
    for keyword, parse_body in _KEYWORDS.items():
        if normal.startswith(keyword, start):
            after = start + len(keyword)
            body_text = strip_separators(normal[after:].rstrip().rstrip("。!"))
            return parse_body(_Body(keyword, body_text, text[after:].strip(), today, local))
    return _parse_keywordless(whole)


def parse_event_key(key: str, *, today: dt.date) -> Command:
    """A WeCom menu click key: an English alias (`today`, `water` ...) or command text."""
    if make := _MENU_KEYS.get(key.strip().casefold()):
        return make()
    return parse(key, today=today)


def parse_card_key(key: str) -> Command:
    """A template card button (`scheduler.cards` keys) -> the command its words mean:
    喝了 = 喝水, 稍后 = 稍后, 完成 = 完成 <task>, 明天再说 = 明天再说 <task>."""
    action = cards.parse_key(key)
    if action is None:
        raise ParseError(texts.CARD_UNKNOWN)
    if action.kind == "water":
        return CheckInWater(glasses=1) if action.action == "done" else SnoozeWater()
    ref = TaskRef(task_id=action.task_id)
    return CompleteTask(ref=ref) if action.action == "done" else PostponeTask(ref=ref)


def _parse_keywordless(whole: str) -> Command:
    """A weight with its unit, or the help answer."""
    kg = parse_weight(whole, unit_required=True)
    if kg is not None:
        return RecordWeight(kg=kg)
    if is_bare_number(whole):
        raise ParseError(texts.BARE_NUMBER)
    raise ParseError(texts.UNKNOWN_COMMAND)


def _parse_weight(body: _Body) -> Command:
    """`体重 72.4` / `体重72.4kg` / `体重 145斤`."""
    kg = parse_weight(body.text, unit_required=False)
    if kg is None:
        raise ParseError(texts.WEIGHT_FORMAT)
    return RecordWeight(kg=kg)


def _parse_water(body: _Body) -> Command:
    """`喝水` (one glass) / `喝水 +2` / `喝水 -1` / `喝水 2杯`."""
    if not body.text:
        return CheckInWater(glasses=1)
    match = _WATER.fullmatch(body.text)
    count = small_int(match["count"]) if match else None
    if match is None or count is None:
        raise ParseError(texts.WATER_FORMAT)
    glasses = -count if match["sign"] == "-" else count
    if glasses == 0 or not -10 <= glasses <= 20:
        raise ParseError(texts.WATER_OUT_OF_RANGE)
    return CheckInWater(glasses=glasses)


def _parse_ledger(body: _Body) -> Command:
    """`记账 35 午饭` / `支出 35.5 交通 打车` / `收入 8000` (category defaults to 其他).

    Also forgives the amount coming second: `记账 午饭 35`.
    """
    direction = _LEDGER_DIRECTIONS[body.keyword]
    found = match_amount(body.text)
    if found is not None:
        amount, rest = found
        labels = words(rest)
    else:
        labels = words(body.text)
        found = match_amount(labels[1]) if len(labels) >= 2 else None
        if found is None or found[1].strip():
            raise ParseError(texts.ledger_needs_amount(body.keyword, income=direction == "income"))
        amount, labels = found[0], [labels[0], *labels[2:]]
    category = labels[0] if labels else "其他"
    note = " ".join(labels[1:])
    return RecordLedger(direction=direction, amount=amount, category=category, note=note)


def _parse_task(body: _Body) -> Command:
    """`任务 周五 提交材料` / `待办 明天 15:00 买菜` / `任务 交材料` (no date).

    A time without a day means today.
    """
    if not body.text:
        return ShowTasks()
    when = match_when(body.text, body.today)
    if when.end is not None:
        raise ParseError(texts.TASK_ONE_TIME)
    title = " ".join(when.rest.split())
    if not title:
        raise ParseError(texts.TASK_NEEDS_TITLE)
    day = when.day if when.day is not None or when.start is None else body.today
    return AddTask(title=title, due_date=day, due_time=when.start)


def _task_ref(body: _Body, verb: str) -> TaskRef:
    """`3` / `#3` / `第3项` -> a number; anything else -> (part of) a title."""
    if not body.text:
        raise ParseError(texts.task_ref_missing(verb))
    if _SEVERAL_NUMBERS.fullmatch(body.text):
        raise ParseError(texts.task_one_at_a_time(verb))
    match = _TASK_NUMBER.fullmatch(body.text)
    if match is None:
        return TaskRef(title=" ".join(body.text.split()))
    number = int(match["number"])
    if not 1 <= number <= MAX_TASK_NUMBER:
        raise ParseError(texts.TASK_NUMBER_INVALID)
    return TaskRef(number=number)


def _parse_complete(body: _Body) -> Command:
    """`完成 3` / `完成 #3` / `完成 提交材料`."""
    return CompleteTask(ref=_task_ref(body, "完成"))


def _parse_cancel(body: _Body) -> Command:
    """`取消 3` / `取消 提交材料`; `取消 免打扰` and `取消 日程 2` with a space mean
    what they mean without one (never a task whose title contains 免打扰)."""
    if body.text == "免打扰":
        return EndQuiet()
    if body.text.startswith("日程"):
        rest = strip_separators(body.text.removeprefix("日程"))
        return _parse_cancel_event(_Body("取消日程", rest, rest, body.today, body.now_local))
    return CancelTask(ref=_task_ref(body, "取消"))


def _remind_minutes(text: str) -> tuple[int | None, str]:
    """`提前15分钟` / `提前1小时` / `提前半小时` anywhere in `text`: minutes and the rest.

    `提前` not followed by a number (`提前还款`) is left alone as part of the title.
    """
    match = _REMIND.search(text)
    if match is None:
        return None, text
    unit = (match["unit"] or "分钟").lower()
    count = Decimal("0.5") if match["count"] == "半" else Decimal(match["count"])
    minutes = count * _MINUTES_PER.get(unit, 1)
    if minutes != minutes.to_integral_value() or not 0 <= minutes <= MAX_REMIND_MINUTES:
        raise ParseError(texts.REMIND_FORMAT)
    return int(minutes), f"{text[: match.start()]} {text[match.end() :]}"


def _parse_event(body: _Body) -> Command:
    """`日程 周四 14:00-15:00 复诊` / `日程 明天 9:30 开会 提前15分钟` / `日程 明天 复诊`.

    A day is required; no time (or `全天`) makes an all-day event.
    """
    when = match_when(body.text, body.today)
    if when.day is None:
        raise ParseError(texts.EVENT_NEEDS_DAY)
    if when.start is not None and when.end is not None and when.end <= when.start:
        raise ParseError(texts.EVENT_END_BEFORE_START)
    remind, rest = _remind_minutes(when.rest)
    title = " ".join(strip_separators(rest).split())
    if not title:
        raise ParseError(texts.EVENT_NEEDS_TITLE)
    return AddEvent(
        title=title, day=when.day, start=when.start, end=when.end, remind_minutes_before=remind
    )


_EVENT_NUMBER = re.compile(r"#?(?P<n>[0-9]{1,5})(?:号|项)?(?![0-9:：点])")


def _event_number(body: _Body, hint: str) -> tuple[int, str]:
    match = _EVENT_NUMBER.match(body.text)
    if match is None or int(match["n"]) < 1:
        raise ParseError(hint)
    return int(match["n"]), strip_separators(body.text[match.end() :])


def _parse_cancel_event(body: _Body) -> Command:
    """`取消日程 2` (the number from 「日程」)."""
    number, rest = _event_number(body, texts.CANCEL_EVENT_HINT)
    if rest:
        raise ParseError(texts.CANCEL_EVENT_HINT)
    return CancelEvent(number=number)


def _parse_edit_event(body: _Body) -> Command:
    """`改日程 2 周五 15:00` / `改日程 2 16:00-17:00` / `改日程 2 复查 提前1小时`."""
    number, rest = _event_number(body, texts.EDIT_EVENT_HINT)
    when = match_when(rest, body.today)
    if when.start is not None and when.end is not None and when.end <= when.start:
        raise ParseError(texts.EVENT_END_BEFORE_START)
    remind, title = _remind_minutes(when.rest)
    title = " ".join(strip_separators(title).split())
    if when.day is None and when.start is None and remind is None and not title:
        raise ParseError(texts.EDIT_EVENT_HINT)
    return EditEvent(
        number=number,
        day=when.day,
        start=when.start,
        end=when.end,
        title=title or None,
        remind_minutes_before=remind,
    )


def _parse_postpone(body: _Body) -> Command:
    """`明天再说 3`: the task moves to tomorrow."""
    return PostponeTask(ref=_task_ref(body, "明天再说"))


def _parse_reminder(body: _Body) -> Command:
    """`提醒 每天 22:00 吃药` (`提醒` alone lists them: a whole-message word)."""
    return parse_custom_reminder(body.text, now_local=body.now_local)


def _parse_journal(body: _Body) -> Command:
    """`日记 ……`: the text exactly as typed, only outer whitespace (and a `:`) removed."""
    text = body.raw.lstrip(" \t\r\n:：,，\u3000").strip()
    if not text:
        raise ParseError(texts.JOURNAL_NEEDS_TEXT)
    return WriteJournal(text=text)


_KEYWORDS: dict[str, Callable[[_Body], Command]] = {
    # Longer keywords first: `取消日程 2` is not `取消` (a task) + "日程 2".
    "取消日程": _parse_cancel_event,
    "改日程": _parse_edit_event,
    "修改日程": _parse_edit_event,
    "明天再说": _parse_postpone,
    "免打扰": parse_reminders.parse_quiet,
    "删除": parse_reminders.parse_delete,
    "提醒": _parse_reminder,
    "体重": _parse_weight,
    "喝水": _parse_water,
    **dict.fromkeys(_LEDGER_DIRECTIONS, _parse_ledger),
    "任务": _parse_task,
    "待办": _parse_task,
    "完成": _parse_complete,
    "取消": _parse_cancel,
    "日程": _parse_event,
    "日记": _parse_journal,
    **dict.fromkeys(parse_reminders.SWITCHES, parse_reminders.parse_switch),
    "设置": parse_reminders.parse_setting,
    "管理": parse_reminders.parse_admin,
}
