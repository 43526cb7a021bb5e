"""Tasks and events as keyword commands: 任务, 完成, 取消, 明天再说, 日程, 改日程, 取消日程.

Natural forms (`取快递搞定了`, `不用买菜了`, `明天下午3点开会`) are read by
`handlers.parse.natural` and land here as the same commands.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal

from handlers import texts
from handlers.commands import (
    AddEvent,
    AddTask,
    CancelEvent,
    CancelTask,
    Command,
    CompleteTask,
    Confirm,
    EditEvent,
    EndQuiet,
    ParseError,
    PostponeTask,
    ShowEvents,
    ShowTasks,
    ShowToday,
    TaskRef,
    Undo,
)
from handlers.parse import cues
from handlers.parse.body import Body
from handlers.parse.cues import asks_to_see
from handlers.parse.lexicon import MOVE_VERBS
from handlers.parse.nag import take_until_done
from handlers.parse.normalise import strip_separators
from handlers.parse.numbers import small_int
from handlers.parse.patterns import (
    ALL_DAY_TAILS,
    BIND_TAIL,
    CANCEL_EVENT_KEYWORD,
    CANCEL_KEYWORD,
    DAY_INSIDE_PATTERN,
    DEFAULT_REMIND_UNIT,
    DONE_KEYWORD,
    EDIT_LEAD_PATTERN,
    EVENT_END_WORDS,
    EVENT_LASTS_PATTERN,
    EVENT_NUMBER_PATTERN,
    EVENT_STARTS_PATTERN,
    EVENT_WORD,
    HALF,
    INTERJECTION_PATTERN,
    LAST_RECORD_WORDS,
    LE,
    MOVE_VERB_ALTERNATIVES,
    NAG_HOUR_UNITS,
    NAMING_PATTERN,
    OF,
    ORDINAL_EVENT_PATTERN,
    PERIOD_THEN_HOUR_PATTERN,
    POSTPONE_KEYWORD,
    QUIET_WORDS_SAID,
    REMIND_BEFORE_PATTERN,
    REMIND_UNIT_MINUTES,
    SAID_PERIOD_PATTERN,
    SEVERAL_NUMBERS_PATTERN,
    TASK_FILLER_PATTERN,
    TASK_NUMBER_PATTERN,
    TASK_WORDS,
    THAT,
    THIS,
)
from handlers.parse.when import When, match_when

MAX_REMIND_MINUTES = 24 * 60
MAX_TASK_NUMBER = 99_999

_TASK_NUMBER = re.compile(
    TASK_NUMBER_PATTERN,
    re.IGNORECASE,
)
_TASK_NUMBER_LEAD = re.compile(rf"(?:{TASK_NUMBER_PATTERN})(?=[\s,]+\S)", re.IGNORECASE)
"""A task's number said first, then a remark (`待办5，甲方跑路了`)."""
_TASK_FILLER = re.compile(TASK_FILLER_PATTERN)
_INTERJECTION = re.compile(INTERJECTION_PATTERN)
_NAMING = re.compile(NAMING_PATTERN)
_SEVERAL_NUMBERS = re.compile(SEVERAL_NUMBERS_PATTERN)
_REMIND = re.compile(
    REMIND_BEFORE_PATTERN,
    re.IGNORECASE,
)
_EVENT_NUMBER = re.compile(EVENT_NUMBER_PATTERN)


def parse_task(body: Body) -> Command:
    """`任务 周五 提交材料` / `待办 明天 15:00 买菜` / `任务 交材料` (no date);
    `任务 明天 9:00 交材料 直到完成` (a time is needed: the nag starts then).

    A time without a day means today.
    """
    if not body.text:
        return ShowTasks()
    if asks_to_see(body.text):
        if cues.read(body.text).event_word is not None:
            return ShowToday()  # 待办和日程有哪些: both, the day's view
        return ShowTasks()  # 待办清单发我
    if (state := numbered_state(f"{body.keyword}{body.text}")) is not None:
        return state  # 待办2明天再弄: task 2's state, not a task titled "2明天再弄"
    text, until_done = take_until_done(body.text, interval_nags=True)
    task = task_from(when_anywhere(text, body.today), body)
    if until_done is None:
        return task
    if task.due_time is None:
        raise ParseError(texts.NAG_NEEDS_TIME)  # a nag starts at a moment
    return dataclasses.replace(task, until_done=until_done)


def numbered_state(text: str) -> Command | None:
    """`待办2明天再弄` / `2号任务取消掉` / `第3个待办搞定`: a numbered task's state."""
    found = cues.read(text)
    if found.task_state is None or found.task_number is None:
        return None
    ref = TaskRef(number=found.task_number)
    if found.task_state == "postpone":
        return PostponeTask(ref=ref)
    if found.task_state == "cancel":
        return CancelTask(ref=ref)
    return CompleteTask(ref=ref)


def task_from(when: When, body: Body) -> AddTask:
    """The task `when` describes; ParseError without a title or with a time range."""
    if when.end is not None:
        raise ParseError(texts.TASK_ONE_TIME)
    title = " ".join(when.rest.split())
    title = _TASK_FILLER.sub("", title).strip() or title  # 要交月度报表: 交月度报表
    if title.isdigit():
        raise ParseError(texts.TASK_NEEDS_TITLE)  # 待办1 ✅: a number, not a title
    if not title:
        raise ParseError(texts.TASK_NEEDS_TITLE)
    day = when.day if when.day is not None or when.start is None else body.today
    return AddTask(title=title, due_date=day, due_time=when.start)


def task_ref(text: str, verb: str) -> TaskRef:
    """`3` / `#3` / `第3项` -> a number; anything else -> (part of) a title."""
    if not text:
        raise ParseError(texts.task_ref_missing(verb))
    if _SEVERAL_NUMBERS.fullmatch(text):
        raise ParseError(texts.task_one_at_a_time(verb))
    match = _TASK_NUMBER.fullmatch(text) or _TASK_NUMBER.fullmatch(_INTERJECTION.sub("", text))
    lead = _TASK_NUMBER_LEAD.match(text) if match is None else None
    if lead is not None and (lead["number"].isdigit() or any(w in lead[0] for w in TASK_WORDS)):
        match = lead  # 取消待办5，甲方跑路了: the number, then why
    if match is None:  # 把1推到明天: 把 names no title
        text = _INTERJECTION.sub("", text).strip() or text  # 算了 回访客户那个
        title = _NAMING.sub("", strip_separators(text)).strip() or text  # 交报告那个: 交报告
        return TaskRef(title=" ".join(title.split()))
    number = small_int(match["number"][:8]) or 0
    if not 1 <= number <= MAX_TASK_NUMBER:
        raise ParseError(texts.TASK_NUMBER_INVALID)
    return TaskRef(number=number)


def parse_complete(body: Body) -> Command:
    """`完成 3` / `完成 #3` / `完成 提交材料` / `完成了 3`."""
    return CompleteTask(ref=task_ref(strip_separators(body.text.removeprefix(LE)), DONE_KEYWORD))


def parse_cancel(body: Body) -> Command | None:
    """`取消 3` / `取消 提交材料`; `取消 免打扰` and `取消 日程 2` with a space mean
    what they mean without one (never a task whose title contains 免打扰)."""
    if body.text in QUIET_WORDS_SAID or body.text.startswith(QUIET_WORDS_SAID):
        return EndQuiet()
    if body.text.startswith(LAST_RECORD_WORDS):
        return Undo()  # 取消刚才记的那笔: the last record, not a task
    if (event := _ordinal_event(body.text)) is not None:
        return CancelEvent(number=event)  # 取消第二个日程
    if body.text.endswith(EVENT_WORD) and len(body.text) > len(EVENT_WORD):
        title = body.text.removesuffix(EVENT_WORD).removesuffix(OF).removesuffix(THAT).strip()
        return CancelEvent(title_ref=title)  # 取消和老同学吃饭的日程
    if body.text.startswith(EVENT_WORD):
        rest = strip_separators(body.text.removeprefix(EVENT_WORD))
        return parse_cancel_event(body.with_text(CANCEL_EVENT_KEYWORD, rest))
    if body.text.endswith(BIND_TAIL):
        raise ParseError(
            texts.task_ref_missing(CANCEL_KEYWORD)
        )  # 取消方糖的绑定: the channel readers'
    if cues.read(body.text).feature is not None:
        return None  # 取消晨报, 取消我的餐饮预算: a setting, read by the switches family
    return CancelTask(ref=task_ref(body.text, CANCEL_KEYWORD))


_ORDINAL_EVENT = re.compile(ORDINAL_EVENT_PATTERN)


def _ordinal_event(text: str) -> int | None:
    match = _ORDINAL_EVENT.fullmatch(text)
    return small_int(match["n"]) if match else None


def parse_postpone(body: Body) -> Command:
    """`明天再说 3`: the task moves to tomorrow."""
    return PostponeTask(ref=task_ref(body.text, POSTPONE_KEYWORD))


def remind_minutes(text: str) -> tuple[int | None, str]:
    """`提前15分钟` / `提前1小时` / `提前半小时` anywhere in `text`: minutes and the rest.

    `提前` not followed by a number (`提前还款`) is left alone as part of the title.
    """
    match = _REMIND.search(text)
    if match is None:
        return None, text
    unit = (match["unit"] or DEFAULT_REMIND_UNIT).lower()
    said = match["count"]
    spoken = small_int(said) if not said[0].isdigit() and said != HALF else None
    count = Decimal("0.5") if said == HALF else Decimal(spoken if spoken is not None else said[:12])
    if HALF in unit:  # 提前一个半小时
        count, unit = count + Decimal("0.5"), unit.replace(HALF, "")
    minutes = count * REMIND_UNIT_MINUTES.get(unit, 1)
    if minutes != minutes.to_integral_value() or not 0 <= minutes <= MAX_REMIND_MINUTES:
        raise ParseError(texts.REMIND_FORMAT)
    return int(minutes), f"{text[: match.start()]} {text[match.end() :]}"


def parse_event(body: Body) -> Command:
    """`日程 周四 14:00-15:00 复诊` / `日程 明天 9:30 开会 提前15分钟` / `日程 明天 复诊`.

    A day is required; no time (or `全天`) makes an all-day event; a time with no day
    (`日程 14:00 复诊`) is asked, guessing today if the time is still ahead, else
    tomorrow. `日程 list`, `日程清单` show them.
    """
    if asks_to_see(body.text):
        return ShowEvents()
    when = when_anywhere(body.text, body.today)
    moved = any(verb in body.text for verb in MOVE_VERBS)  # 日程4时间改成…: an edit
    if when.day is None and when.start is not None and not moved:
        event = event_from(dataclasses.replace(when, day=body.today))
        asked = small_hours_asked(event, body.text)
        if isinstance(asked, Confirm) and isinstance(asked.guess, AddEvent):
            event = asked.guess  # 日程 3点 做B超: 15:00, then today if still ahead
        start = event.start or when.start
        ahead = start > body.now_local.time() and body.now_local.date() == body.today
        later = body.today + dt.timedelta(days=1)
        return Confirm(guess=event if ahead else dataclasses.replace(event, day=later))
    return small_hours_asked(event_from(when), body.text)


_CHANGE_WORDS = re.compile(MOVE_VERB_ALTERNATIVES)
_EDIT_LEAD = re.compile(EDIT_LEAD_PATTERN)


def _time_last(when: When) -> When:
    """A day said first and its time (or time range) said after the title."""
    words = when.rest.split()
    for cut in range(1, len(words)):
        try:
            tail = match_when(" ".join(words[cut:]), dt.date(2000, 1, 1))
        except ParseError:
            continue
        if tail.start is not None and tail.day is None and not tail.rest:
            rest = " ".join(words[:cut])
            return dataclasses.replace(when, start=tail.start, end=tail.end, rest=rest)
    return when


def period_then_hour(text: str) -> str:
    """`下周五晚上年会，六点半开始` -> `下周五晚上六点半 年会`: a period said first and its
    hour said after the title is one time, said first."""
    return _PERIOD_THEN_HOUR.sub(r"\g<when>\g<hour> \g<title>\g<after>", text)


_PERIOD_THEN_HOUR = re.compile(PERIOD_THEN_HOUR_PATTERN)


def when_anywhere(text: str, today: dt.date) -> When:
    """The day and time said first (`周五 交报告`) or last (`交水费 周五`, `面试 下周一
    上午十点半`): a when at the end, after the title, is read as if said first."""
    when = match_when(period_then_hour(text), today)
    if when.day is not None and when.start is None and when.rest:
        return _time_last(when)  # 周日 带娃打疫苗 上午十点
    if when.day is not None or when.start is not None:
        return when
    words = text.split()
    if not words or words[0][0].isdigit() or _CHANGE_WORDS.search(text):
        return when  # 日程2 改到 周六: a change, read by the change readers
    for cut in range(1, len(words)):
        try:
            tail = match_when(" ".join(words[cut:]), today)
        except ParseError:
            continue
        if (tail.day is not None or tail.start is not None) and not tail.rest:
            title = " ".join(words[:cut])
            return dataclasses.replace(tail, rest=title)
    inside = _DAY_INSIDE.search(text, 1)  # 客户明天下午三点半上门看电路: the day inside
    if inside is not None:
        try:
            later = match_when(text[inside.start() :], today)
        except ParseError:
            return when
        if later.day is not None:
            said = f"{text[: inside.start()].strip()} {later.rest}".strip()
            return dataclasses.replace(later, rest=said)
    return when


_DAY_INSIDE = re.compile(DAY_INSIDE_PATTERN)
SAID_PERIOD = re.compile(SAID_PERIOD_PATTERN)


def small_hours_asked(event: AddEvent, said: str) -> Command:
    """`日程 周四 两点到三点 复诊`: an appointment at 2 a.m. is rarely meant. A start
    between 1 and 6 o'clock said without 上午/下午 (or a 24-hour `2:00`) is asked,
    guessing the afternoon."""
    start, end = event.start, event.end
    if start is None or not 1 <= start.hour <= 6 or SAID_PERIOD.search(said):
        return event
    later = start.replace(hour=start.hour + 12)
    later_end = end.replace(hour=end.hour + 12) if end is not None and end.hour < 12 else end
    return Confirm(guess=dataclasses.replace(event, start=later, end=later_end))


def event_from(when: When) -> AddEvent:
    """The event `when` describes, or ParseError saying what is missing."""
    if when.day is None:
        raise ParseError(texts.EVENT_NEEDS_DAY)
    if when.start is not None and when.end is not None and when.end <= when.start:
        raise ParseError(texts.EVENT_END_BEFORE_START)
    remind, rest = remind_minutes(when.rest)
    end = when.end
    lasts = _EVENT_LASTS.search(rest) if when.start is not None and end is None else None
    if lasts is not None and rest[: lasts.start()].strip():  # 张总私教课 一个小时
        end = _end_after(when.start, lasts)
        rest = rest[: lasts.start()] if end is not None else rest
    title = " ".join(strip_separators(rest).split())
    title = title.removeprefix(THAT).removeprefix(THIS).strip() or title  # 明天那个体检
    for tail in ALL_DAY_TAILS:  # 茶博会 一整天: all day, as an event without a time is
        title = title.removesuffix(tail).strip() or title
    if not title:
        raise ParseError(texts.EVENT_NEEDS_TITLE)
    return AddEvent(
        title=title, day=when.day, start=when.start, end=end, remind_minutes_before=remind
    )


def _end_after(start: dt.time | None, lasts: re.Match[str]) -> dt.time | None:
    """The end of an event lasting `lasts` from `start`, or None past midnight."""
    if start is None:
        return None
    hours = lasts["unit"] in NAG_HOUR_UNITS if lasts["unit"] else True
    count = (
        0.5
        if lasts["only_half"]
        else float(small_int(lasts["n"]) or 0) + (0.5 if lasts["half"] else 0)
    )
    minutes = int(count * 60) if hours else int(count)
    at = dt.datetime.combine(dt.date(2000, 1, 1), start) + dt.timedelta(minutes=minutes)
    return at.time() if minutes > 0 and at.date() == dt.date(2000, 1, 1) else None


_EVENT_LASTS = re.compile(EVENT_LASTS_PATTERN)
_STARTS_ONLY = re.compile(EVENT_STARTS_PATTERN)


def _event_number(text: str, hint: str) -> tuple[int, str]:
    match = _EVENT_NUMBER.match(text)
    if match is None or int(match["n"]) < 1:
        raise ParseError(hint)
    return int(match["n"]), strip_separators(text[match.end() :])


def parse_cancel_event(body: Body) -> Command:
    """`取消日程 2` (the number from 「日程」)."""
    number, rest = _event_number(body.text, texts.CANCEL_EVENT_HINT)
    if rest and not _a_reason(body.text, rest):
        raise ParseError(texts.CANCEL_EVENT_HINT)
    return CancelEvent(number=number)  # 取消日程1，客户临时改了时间: the reason is no part


def _a_reason(text: str, rest: str) -> bool:
    """`…1，客户临时改了时间`: words after a comma with no number, a reason said."""
    return text[: len(text) - len(rest)].rstrip().endswith(",") and not any(
        ch.isdigit() for ch in rest
    )


def parse_edit_event(body: Body) -> Command:
    """`改日程 2 周五 15:00` / `改日程 2 16:00-17:00` / `改日程 2 复查 提前1小时`."""
    number, rest = _event_number(body.text, texts.EDIT_EVENT_HINT)
    rest = _EDIT_LEAD.sub("", rest)  # 修改日程2 时间换成下午三点: the time, not a new title
    when = match_when(rest, body.today)
    if when.start is not None and when.end is not None and when.end <= when.start:
        raise ParseError(texts.EVENT_END_BEFORE_START)
    remind, title = remind_minutes(when.rest)
    title = " ".join(strip_separators(title).split())
    start, end = when.start, when.end
    if title in EVENT_END_WORDS and start is not None and end is None:
        start, end, title = None, start, ""  # 日程2改成下午四点结束: the end moves
    if start is not None and _STARTS_ONLY.fullmatch(title):
        title = ""  # 日程2的时间请改为14:30开始: the start moves, no new title
    when = dataclasses.replace(when, start=start, end=end)
    if (
        when.day is None
        and when.start is None
        and when.end is None
        and remind is None
        and not title
    ):
        raise ParseError(texts.EDIT_EVENT_HINT)
    return EditEvent(
        number=number,
        day=when.day,
        start=when.start,
        end=when.end,
        title=title or None,
        remind_minutes_before=remind,
    )
