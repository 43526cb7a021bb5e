"""Sentences for tasks, events, reminders, water and settings, in the user's words.

`加个待办 明天买菜`, `记到日程 周五3点 复诊`, `每天早上七点半提醒我吃维生素`,
`四十分钟后提醒我关烤箱`, `喝了三杯水`, `打开早报`, `每隔一个半小时提醒我喝水`,
`作息 七点到十一点`, `喝水目标十杯`. Each reader returns a command, None when the
text is not its shape, or raises ParseError when it is its shape with a bad value.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

from handlers.commands import (
    AddTask,
    Command,
    Confirm,
    ParseError,
    SetDayWindow,
    SetDigest,
    SetWaterGoal,
    SetWaterInterval,
)
from handlers.parse.body import Body
from handlers.parse.changes import read_change
from handlers.parse.cues import only_view_words
from handlers.parse.lexicon import (
    EVENT_LEADS,
    REMIND_WORDS,
    REMINDER_LEADS,
    SWITCH_SYNONYMS,
    TASK_LEADS,
    VAGUE_PERIODS,
)
from handlers.parse.nag import clause_span
from handlers.parse.numbers import small_int
from handlers.parse.patterns import (
    AGAIN_WORD,
    BOOKED_LEADS,
    BOOKED_PATTERN,
    CUP,
    DAILY_LEADS,
    DIGEST_SWITCH_PATTERN,
    DIGEST_TIME_PATTERN,
    DRANK_WORDS,
    DRINK_WORD,
    GOAL_SAID_WORDS,
    HOUR_UNITS,
    INTERVAL_WORD,
    LATER_WORD,
    MORNING_PERIODS,
    NAMED_DAY_PATTERN,
    OF,
    POLITE_LEAD_PATTERN,
    QUESTION_MARKS,
    REMEMBER_WORD,
    REMIND_WORD,
    REPEAT_LEADS,
    REPEATS_PATTERN,
    ROUTINE_SET_PATTERN,
    TAKE_WORD,
    THEN_WORD,
    TOP_UP_WORD,
    TURN_ON_VERBS,
    VAGUE_WHEN_TAIL,
    WATER_GOAL_DAILY_PATTERN,
    WATER_GOAL_PATTERN,
    WATER_GOAL_SAID_PATTERN,
    WATER_INTERVAL_PATTERN,
    WATER_NOUN,
    WATER_SAID_PATTERN,
)
from handlers.parse.records import water
from handlers.parse.schedules import afternoon_asked, parse_custom_reminder
from handlers.parse.settings import (
    DIGESTS,
    GOAL_RANGE,
    INTERVAL_RANGE,
    SWITCHES,
    parse_switch,
)
from handlers.parse.tasks import (
    _time_last,
    event_from,
    parse_event,
    parse_task,
    period_then_hour,
    small_hours_asked,
    task_from,
)
from handlers.parse.when import match_time, match_when
from storage.vocabulary import RuleKind

_POLITE = re.compile(POLITE_LEAD_PATTERN)
_WATER = re.compile(WATER_SAID_PATTERN)
_DIGEST_TIME = re.compile(DIGEST_TIME_PATTERN)
_DIGEST_SWITCH = re.compile(DIGEST_SWITCH_PATTERN)
_INTERVAL = re.compile(WATER_INTERVAL_PATTERN)
_GOAL = re.compile(WATER_GOAL_PATTERN)
_GOAL_SAID = re.compile(WATER_GOAL_SAID_PATTERN)
"""`一天喝六杯就够了，喝水目标改成六杯`: the goal said at the end of a sentence."""
_GOAL_DAILY = re.compile(WATER_GOAL_DAILY_PATTERN)
_WINDOW = re.compile(ROUTINE_SET_PATTERN)
_DAY_TIME_TITLE = 20


def read_setting(text: str, context: Body) -> Command | None:
    """Digests, water and the day window in words; switches with 打开 / 关掉."""
    for reader in (_digest, _water_interval, _water_goal, _day_window):
        if (command := reader(text)) is not None:
            return command
    return read_change(text, context) or _switch(text, context)


def _digest(text: str) -> Command | None:
    if match := _DIGEST_SWITCH.fullmatch(text):
        verb = match["v1"] or match["v2"]
        if verb is None:
            return None
        on = verb in TURN_ON_VERBS
        return SetDigest(kind=DIGESTS[match["d"]], on=on)
    said = _DIGEST_TIME.fullmatch(text)
    if said and (at := _clock(_without_daily(said["t"]))) is not None:
        kind = DIGESTS[said["d"]]
        if kind == RuleKind.DIGEST_EVENING and at.hour < 12 and not _has_period(said["t"]):
            at = at.replace(hour=at.hour + 12)  # 晚报改成九点半: 21:30
        return SetDigest(kind=kind, on=True, at=at)
    return None


def _without_daily(said: str) -> str:
    """`每天7点` -> `7点`: a digest comes daily anyway."""
    for lead in DAILY_LEADS:
        said = said.removeprefix(lead)
    return said


def _clock(said: str) -> dt.time | None:
    """A whole-string time (`7:30`, `早上七点半`), or None."""
    found = match_time(said.strip())
    return found.time if found is not None and found.end == len(said.strip()) else None


def _water_interval(text: str) -> Command | None:
    if LATER_WORD in text or not (
        (DRINK_WORD in text and WATER_NOUN in text) or INTERVAL_WORD in text
    ):
        return None
    match = _INTERVAL.fullmatch(text)
    if match is None:
        return None
    count = small_int(match["n"]) if match["n"] else (0 if match["only_half"] else 1)
    if count is None:
        return None
    unit = 60 if match["unit"] in HOUR_UNITS else 1
    minutes = count * unit + (unit // 2 if match["half"] or match["only_half"] else 0)
    if not INTERVAL_RANGE[0] <= minutes <= INTERVAL_RANGE[1]:
        return None
    return SetWaterInterval(minutes=minutes)


def _water_goal(text: str) -> Command | None:
    match = _GOAL.fullmatch(text) or _GOAL_SAID.search(text)
    if match is None and any(word in text for word in GOAL_SAID_WORDS):
        match = _GOAL_DAILY.search(text)  # 一天喝够十杯就行
    if match is None:
        return None
    glasses = small_int(match["n"] or match["m"])
    if glasses is None or not GOAL_RANGE[0] <= glasses <= GOAL_RANGE[1]:
        return None
    return SetWaterGoal(glasses=glasses)


def _day_window(text: str) -> Command | None:
    match = _WINDOW.fullmatch(text)
    if match is None:
        return None
    wake, sleep = _clock(match["a"]), _clock(match["b"])
    if wake is None or sleep is None:
        return None
    if sleep.hour < 12 and not _has_period(match["b"]):
        sleep = sleep.replace(hour=sleep.hour + 12)  # nobody says 作息 7点到11点 meaning 11:00
    if wake >= sleep:
        return None
    return SetDayWindow(wake=wake, sleep=sleep)


def _has_period(said: str) -> bool:
    return any(word in said for word in MORNING_PERIODS)


_SWITCH_WORDS = (*SWITCH_SYNONYMS.items(), *((k, k) for k in SWITCHES))
"""Each switch word and the keyword it means, synonyms first (built once)."""


def _switch(text: str, context: Body) -> Command | None:
    """`打开早报`, `关掉喝水提醒`, `把喝水提醒关掉`: the switch keywords' synonyms."""
    text = text.removeprefix(TAKE_WORD)
    for synonym, keyword in _SWITCH_WORDS:
        target = ""
        if text.startswith(synonym):
            target = text[len(synonym) :].strip()
        elif text.endswith(synonym) and len(text) > len(synonym):
            target = text[: -len(synonym)].strip()
        if target:
            try:
                return parse_switch(Body(keyword, target, target, context.today, context.now_local))
            except ParseError:
                return None
    return None


def read_lead(text: str, context: Body) -> Command | None:
    """`加个待办 明天买菜` / `记到日程 周五3点 复诊`: the lead names the command."""
    text = _POLITE.sub("", text)
    for leads, reader in ((TASK_LEADS, parse_task), (EVENT_LEADS, parse_event)):
        for lead in leads:
            if text.startswith(lead):
                rest = text[len(lead) :].lstrip(" :,")
                return reader(context.with_text(lead, rest)) if rest else None
    return None


_REMIND_WORDS = (*REMIND_WORDS, REMIND_WORD)


def read_reminder(text: str, context: Body) -> Command | None:
    """`每天早上七点半提醒我吃维生素`, `四十分钟后提醒我关烤箱`, `叫我 8点 起床`."""
    command = _read_reminder(text, context)
    return afternoon_asked(command, text, context.now_local) if command is not None else None


def _read_reminder(text: str, context: Body) -> Command | None:
    """`每天早上七点半提醒我吃维生素`, `四十分钟后提醒我关烤箱`, `叫我 8点 起床`."""
    text = context.as_said(text)  # 提醒我把衣服晾了: the title keeps its 了
    for lead in REMINDER_LEADS:
        if text.startswith(lead) and len(text) > len(lead):
            text = text[len(lead) :].lstrip(" ,:")
            if not any(word in text for word in _REMIND_WORDS):  # 帮我设个提醒，下周二上午十点…
                return parse_custom_reminder(text, now_local=context.now_local)
            break
    clause = clause_span(text)
    said_at = [
        (at, -len(w), w)
        for w in _REMIND_WORDS
        if (at := text.find(w)) >= 0 and (clause is None or not clause[0] <= at < clause[1])
    ]
    if not said_at and clause is not None and _has_when(text[: clause[0]]):
        return parse_custom_reminder(
            text, now_local=context.now_local
        )  # 明天寄快递 没寄就一直提醒我
    for at, _, word in sorted(said_at)[:1]:  # the first said, the longest there
        if at >= 0:
            before = text[:at].rstrip().removesuffix(AGAIN_WORD).removesuffix(REMEMBER_WORD)
            before = before.removesuffix(THEN_WORD).rstrip()
            before = _last_when(before)  # 今晚夜班 明天凌晨两点: the time said last
            said = f"{before} {text[at + len(word) :]}".strip()
            try:
                return parse_custom_reminder(said, now_local=context.now_local)
            except ParseError:
                if (swapped := _when_last(said)) is None:
                    raise
                return parse_custom_reminder(swapped, now_local=context.now_local)
    return None


_REPEATS = re.compile(REPEATS_PATTERN)
_NAMED_DAY = re.compile(NAMED_DAY_PATTERN)


def _last_when(before: str) -> str:
    """`今晚夜班 明天凌晨两点` -> `明天凌晨两点`: when the words before a reminder
    word hold a remark with a time and then the time itself, the time said last."""
    chunks = before.split()
    if len(chunks) < 2 or _REPEATS.search(before) or not _NAMED_DAY.match(chunks[-1]):
        return before  # 每周一 早上8点: one schedule; 下周出差 周三…: which 周三?
    try:
        whole, last = (
            match_when(before, dt.date(2000, 1, 1)),
            match_when(chunks[-1], dt.date(2000, 1, 1)),
        )
    except ParseError:
        return before
    said_time = (whole.day or whole.start) is not None  # the remark holds a time too: 今晚夜班
    if said_time and whole.rest.strip() and not last.rest.strip() and (last.day or last.start):
        return chunks[-1]
    return before


def _has_when(said: str) -> bool:
    """Whether `said` starts with a day or a time (`明天寄快递`)."""
    try:
        first = match_when(said, dt.date(2000, 1, 1))
    except ParseError:
        return False
    return first.day is not None or first.start is not None


def _when_last(said: str) -> str | None:
    """`喝药,每天早上8点` -> `每天早上8点 喝药`: the time said after the title (only
    when nothing at the start is a time: `今天 8:00 开会` keeps its own answer)."""
    try:
        first = match_when(said, dt.date(2000, 1, 1))
    except ParseError:
        return None
    if first.day is not None or first.start is not None or said.startswith(REPEAT_LEADS):
        return None
    title, comma, when = said.rpartition(",")
    if not comma:
        title, comma, when = said.partition(" ")  # 吃药 每晚9点
    if not comma or not title.strip() or not when.strip():
        return None
    return f"{when.strip()} {title.strip()}"


def read_water(text: str, _context: Body) -> Command | None:
    """`喝了三杯水` / `一杯水` / `补水一杯` / `喝了` (the card's button, typed); asked:
    `喝了三杯` (of what?), `喝了一瓶`, and `今天喝了三杯水` (a total, or three more?)."""
    match = _WATER.fullmatch(text)
    if match is None:
        return None
    if match["n2"]:
        count = small_int(match["n2"])
        return None if count is None else water(count)
    if not match["n"]:
        said_water = match["one"] or WATER_NOUN in text
        return water(1) if said_water or text in DRANK_WORDS else None
    count = small_int(match["n"])
    if count is None:
        return None
    guess = water(count)
    said_water = (
        match["water"] or text.startswith(TOP_UP_WORD) or WATER_NOUN in text[: match.start("n")]
    )
    if match["unit"] != CUP or not said_water or match["total"]:
        return Confirm(guess=guess)
    return guess


_VAGUE_WHEN = re.compile("(?:" + "|".join(map(re.escape, VAGUE_PERIODS)) + VAGUE_WHEN_TAIL)

_BOOKED = re.compile(BOOKED_PATTERN)


def read_dated(text: str, context: Body) -> Command | None:
    """`周五交材料` / `明天下午3点开会`: a day, maybe a time, and a short title, with no
    verb saying which it is: asked, as a task (no time) or an event (a time)."""
    if any(mark in text for mark in QUESTION_MARKS):
        return None
    booked = text.startswith(BOOKED_LEADS)  # 约了周五晚上八点跟老同学吃饭
    said = _BOOKED.sub("", text) if booked else text
    said = period_then_hour(said)  # 周四下午去医院看眼睛 两点
    if (vague := _VAGUE_WHEN.fullmatch(said)) is not None:
        return Confirm(guess=AddTask(title=vague["title"].strip()))  # 下周要交年终总结: which day?
    try:
        when = match_when(said, context.today)
    except ParseError:
        return None
    when = dataclasses.replace(when, rest=when.rest.removeprefix(OF).strip())  # 8点的飞机
    if not booked and when.rest.startswith(BOOKED_LEADS):  # 周六早上十点约了私教课
        booked = True
        when = dataclasses.replace(when, rest=_BOOKED.sub("", when.rest).strip())
    if when.day is None and when.start is not None:  # 下午四点半开教研会: today, or tomorrow
        today_at = dt.datetime.combine(context.today, when.start)
        day = (
            context.today if today_at > context.now_local else context.today + dt.timedelta(days=1)
        )
        when = dataclasses.replace(when, day=day)
    if when.day is not None and when.start is None:
        when = _time_last(when)  # 12月18号 公司年会 晚上六点半
    if when.day is None or not when.rest or len(when.rest) > _DAY_TIME_TITLE:
        return None
    if only_view_words(when.rest):
        return None  # 明天的待办, 后天的日程安排: a list asked for, not a thing to do
    if when.day < context.today or (when.start is None and when.day == context.today):
        return None
    try:
        if when.start is None:
            return Confirm(guess=task_from(when, context))
        event = small_hours_asked(event_from(when), text)
    except ParseError:
        return None
    if booked and not isinstance(event, Confirm):
        return event  # an appointment the user made: an event, not a guess
    return event if isinstance(event, Confirm) else Confirm(guess=event)
