"""Reminders and settings: 开启/暂停/恢复/关闭 喝水|晨报|晚报|提醒 [N], 设置 ...,
删除 提醒 N, 免打扰, and `提醒 <when> <what>` (its schedule is `schedules`'s).

Pure and total like the rest of the parser.
"""

from __future__ import annotations

import datetime as dt
import re

from handlers import texts
from handlers.commands import (
    ChangeRule,
    Command,
    DigestKind,
    ParseError,
    SetCards,
    SetDayWindow,
    SetDigest,
    SetQuiet,
    SetReview,
    SetWaterGoal,
    SetWaterInterval,
    ShowReminders,
    SwitchAllReminders,
    SwitchWater,
)
from handlers.parse.body import Body
from handlers.parse.cues import asks_to_see
from handlers.parse.cues import read as read_cues
from handlers.parse.lexicon import PERIOD_TIMES
from handlers.parse.numbers import small_int
from handlers.parse.patterns import (
    CARDS_ON_OFF,
    CARDS_SETTING,
    DAY_WINDOW_PATTERN,
    DAY_WINDOW_SETTING,
    EVENING_DIGEST_NAMES,
    MORNING_DIGEST_NAMES,
    QUIET_COUNTS,
    QUIET_FOR_PATTERN,
    QUIET_UNIT_MINUTES,
    QUIET_UNTIL_PATTERN,
    REVIEW_NAMES,
    RULE_PATTERN,
    RULE_VERBS,
    SETTING_NUMBER_PATTERN,
    SETTING_TIME_PATTERN,
    SWITCH_ON_WORDS,
    WATER_GOAL_SETTING,
    WATER_INTERVAL_SETTING,
    WATER_TARGETS,
)
from handlers.parse.patterns import SWITCHES as SWITCHES  # re-exported: its readers
from handlers.parse.review import parse_review_time
from handlers.parse.schedules import afternoon_asked, parse_custom_reminder
from handlers.parse.when import match_when
from storage.vocabulary import RuleKind

INTERVAL_RANGE = (30, 480)
GOAL_RANGE = (1, 30)
_WINDOW = re.compile(DAY_WINDOW_PATTERN)
_NUMBER = re.compile(SETTING_NUMBER_PATTERN)
DIGESTS: dict[str, DigestKind] = {
    **dict.fromkeys(MORNING_DIGEST_NAMES, RuleKind.DIGEST_MORNING),
    **dict.fromkeys(EVENING_DIGEST_NAMES, RuleKind.DIGEST_EVENING),
}
_RULE = re.compile(RULE_PATTERN)
MAX_RULE_NUMBER = 9999
_TIME = re.compile(SETTING_TIME_PATTERN)
MAX_QUIET_MINUTES = 7 * 24 * 60
QUIET_FOR = re.compile(
    QUIET_FOR_PATTERN,
    re.IGNORECASE,
)
_QUIET_UNTIL = re.compile(QUIET_UNTIL_PATTERN)


def parse_switch(body: Body) -> Command:
    """`开启 喝水` / `关闭 晚报` / `关闭 提醒` (all) / `暂停 提醒 3` (one)."""
    target = body.text.strip()
    on = body.keyword in SWITCH_ON_WORDS
    if target in WATER_TARGETS:
        return SwitchWater(action=SWITCHES[body.keyword])
    if target in DIGESTS:
        return SetDigest(kind=DIGESTS[target], on=on)
    if target in REVIEW_NAMES:
        return SetReview(on=on)
    if match := _RULE.fullmatch(target):
        if match["n"] is None:
            return SwitchAllReminders(on=on)
        return ChangeRule(verb=RULE_VERBS[body.keyword], number=rule_number(match["n"]))
    if not target:
        raise ParseError(texts.SWITCH_NEEDS_TARGET.format(keyword=body.keyword))
    raise ParseError(texts.SWITCH_UNKNOWN_TARGET)


def parse_delete(body: Body) -> Command:
    """`删除 提醒 3` (the number from 「提醒」)."""
    match = _RULE.fullmatch(body.text.strip())
    if match is None or match["n"] is None:
        raise ParseError(texts.DELETE_HINT)
    return ChangeRule(verb="delete", number=rule_number(match["n"]))


def rule_number(text: str) -> int:
    """A rule's number from 「提醒」, or ParseError outside 1-9999."""
    number = int(text[:6])  # no one has a million rules; keeps int() cheap
    if not 1 <= number <= MAX_RULE_NUMBER or len(text) > 6:
        raise ParseError(texts.RULE_NUMBER_INVALID)
    return number


def parse_quiet(body: Body) -> Command:
    """`免打扰 2小时` / `免打扰 半小时` / `免打扰 到 明天 8:00` / `免打扰 到 22:00`."""
    text = body.text.strip()
    if not text:
        raise ParseError(texts.QUIET_HINT)
    if until := _QUIET_UNTIL.match(text):
        return SetQuiet(until_local=_quiet_until(text[until.end() :], body))
    match = QUIET_FOR.fullmatch(text)
    if match is None:
        raise ParseError(texts.QUIET_HINT)
    minutes = quiet_minutes(match)
    if minutes < 1:
        raise ParseError(texts.QUIET_TOO_SHORT)
    if minutes > MAX_QUIET_MINUTES:
        raise ParseError(texts.QUIET_TOO_LONG)
    return SetQuiet(minutes=minutes)


def quiet_minutes(match: re.Match[str]) -> int:
    """Minutes of a `QUIET_FOR` match (`2小时`, `半小时`, `1个半小时`, `九十分钟`)."""
    words = QUIET_COUNTS
    said = match["n"]
    spoken = small_int(said) if said and not said[0].isdigit() and said not in words else None
    count = words[said] if said in words else float(spoken if spoken is not None else said)
    count += 0.5 if match["half"] else 0.0
    return round(count * QUIET_UNIT_MINUTES.get(match["unit"].lower(), 1))


_PERIODS_LONGEST = sorted(PERIOD_TIMES, key=len, reverse=True)


def _quiet_until(text: str, body: Body) -> dt.datetime:
    """A local wall-clock end: the day given, else today, or tomorrow if it has passed."""
    when = match_when(text, body.now_local.date())
    start, rest = when.start, when.rest.strip()
    if start is None:  # 到中午, 到明天早上: a period word alone means its usual hour
        period = next((word for word in _PERIODS_LONGEST if word in text), None)
        start = None if period is None else PERIOD_TIMES[period]
        rest = rest.removeprefix(period or "").strip()
    if start is None or rest or when.end is not None:
        raise ParseError(texts.QUIET_HINT)
    day = when.day or body.now_local.date()
    until = dt.datetime.combine(day, start)
    if until <= body.now_local and when.day is None:
        until += dt.timedelta(days=1)
    if until <= body.now_local:
        raise ParseError(texts.QUIET_IN_THE_PAST)
    if until - body.now_local > dt.timedelta(minutes=MAX_QUIET_MINUTES):
        raise ParseError(texts.QUIET_TOO_LONG)
    return until


def parse_setting(body: Body) -> Command:
    """`设置 作息 08:00-22:00` / `设置 喝水间隔 120` / `设置 喝水目标 8` /
    `设置 晨报 07:30` / `设置 晚报 21:00` / `设置 卡片 开`."""
    name, value = _setting_parts(body.text)
    if name in DIGESTS:
        return SetDigest(kind=DIGESTS[name], on=True, at=_clock_time(value))
    if name in REVIEW_NAMES:
        return parse_review_time(value)
    if name == CARDS_SETTING:
        if value not in CARDS_ON_OFF:
            raise ParseError(texts.CARDS_HINT)
        return SetCards(on=CARDS_ON_OFF[value])
    if name == DAY_WINDOW_SETTING:
        return _day_window(value)
    if name == WATER_INTERVAL_SETTING:
        return SetWaterInterval(minutes=_number(value, INTERVAL_RANGE, texts.INTERVAL_HINT))
    if name == WATER_GOAL_SETTING:
        return SetWaterGoal(glasses=_number(value, GOAL_RANGE, texts.GOAL_HINT))
    raise ParseError(texts.SETTING_UNKNOWN)


_SETTING_NAMES = (
    DAY_WINDOW_SETTING,
    WATER_INTERVAL_SETTING,
    WATER_GOAL_SETTING,
    *DIGESTS,
    *REVIEW_NAMES,
    CARDS_SETTING,
)


def _setting_parts(text: str) -> tuple[str, str]:
    """`晨报 07:30` or `晨报07:30`: the setting's name and its value."""
    for name in _SETTING_NAMES:
        if text.startswith(name):
            return name, text[len(name) :].strip()
    name, _, value = text.partition(" ")
    return name, value.strip()


def _clock_time(value: str) -> dt.time:
    match = _TIME.fullmatch(value)
    if match is None or int(match["h"]) > 23 or int(match["m"]) > 59:
        raise ParseError(texts.DIGEST_TIME_HINT)
    return dt.time(int(match["h"]), int(match["m"]))


def _day_window(value: str) -> SetDayWindow:
    match = _WINDOW.fullmatch(value)
    if match is None:
        raise ParseError(texts.WINDOW_HINT)
    try:
        wake = dt.time(int(match["wh"]), int(match["wm"]))
        sleep = dt.time(int(match["sh"]), int(match["sm"]))
    except ValueError:
        raise ParseError(texts.WINDOW_HINT) from None
    if wake >= sleep:
        raise ParseError(texts.WINDOW_ORDER)
    return SetDayWindow(wake=wake, sleep=sleep)


def _number(value: str, bounds: tuple[int, int], hint: str) -> int:
    match = _NUMBER.fullmatch(value)
    if match is None or not bounds[0] <= int(match["n"]) <= bounds[1]:
        raise ParseError(hint)
    return int(match["n"])


def parse_reminder(body: Body) -> Command:
    """`提醒 每天 22:00 吃药` (`提醒` alone lists them: a whole-message word;
    `提醒 list`, `提醒清单` too)."""
    said = read_cues(body.text)
    if asks_to_see(body.text) and said.turn_on is None and said.turn_off is None:
        return ShowReminders()  # not 提醒都打开: that switches them on
    command = parse_custom_reminder(body.text, now_local=body.now_local)
    return afternoon_asked(command, body.text, body.now_local)
