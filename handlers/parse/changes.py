"""Switches and changes said in words: quiet time, cards, every reminder, one rule,
one event, the digest's time, the day window and the water plan.

`两小时内别打扰我`, `关掉免打扰`, `打开卡片`, `关掉所有提醒`, `删掉提醒3`,
`把日程2改到周五下午三点`, `把复诊改到周五下午3点`, `日程2取消`, `每天早上7点半发晨报`, `我一般7点起床11点睡`,
`提醒我喝水`. Each reader returns a command or None (never guesses).
"""

from __future__ import annotations

import dataclasses
import re

from handlers.commands import (
    CancelEvent,
    ChangeRule,
    Command,
    Confirm,
    EditEvent,
    EndQuiet,
    ParseError,
    SetCards,
    SetDayWindow,
    SetDigest,
    SetQuiet,
    SwitchAllReminders,
    SwitchWater,
)
from handlers.parse.body import Body
from handlers.parse.cues import read as read_cues
from handlers.parse.lexicon import (
    END_WORDS,
    EVENT_TITLE_WORDS,
    FEATURE_NOUNS,
    QUIET_WORDS,
)
from handlers.parse.normalise import strip_separators
from handlers.parse.numbers import small_int
from handlers.parse.patterns import (
    ALL_REMINDERS_PATTERN,
    CANNOT_THEN_MOVE_PATTERN,
    CARDS_PATTERN,
    CLOCK_SAID_PATTERN,
    DAY_UNIT,
    DAY_WINDOW_SETTING,
    DIGEST_DAILY_PATTERN,
    EDIT_EVENT_KEYWORD,
    EVENT_CANCEL_PATTERN,
    EVENT_EDIT_PATTERN,
    EVENT_MOVE_PATTERN,
    EVENT_NAMING_PATTERN,
    EVENT_STARTS_PATTERN,
    EVENT_WORD,
    FOR_THIS_PATTERN,
    LE,
    PAUSE_LEADS,
    PAUSE_WORD,
    ROUTINE_CHANGE_PATTERN,
    ROUTINE_PATTERN,
    RULE_CHANGE_PATTERN,
    RULE_CHANGE_WORDS,
    SAME_TIME_WORDS,
    SLEEP_WORD,
    SOFT_TAIL,
    SWITCH_ON_PATTERN,
    TASK_WORDS,
    TODAY_CANNOT_PATTERN,
    TOMORROW,
    WAKE_SLEEP_NAMED_PATTERN,
    WAKE_SLEEP_PATTERN,
    WAKE_WORD,
    WATER_WORDS_PATTERN,
)
from handlers.parse.settings import (
    DIGESTS,
    MAX_QUIET_MINUTES,
    QUIET_FOR,
    quiet_minutes,
    rule_number,
)
from handlers.parse.tasks import SAID_PERIOD as _SAID_PERIOD
from handlers.parse.tasks import parse_edit_event
from handlers.parse.when import match_time, match_when

_RULE = re.compile(RULE_CHANGE_PATTERN)
_CARDS = re.compile(CARDS_PATTERN)
_ALL = re.compile(ALL_REMINDERS_PATTERN)
_EVENT_EDIT = re.compile(EVENT_EDIT_PATTERN)
_TODAY_CANNOT = re.compile(TODAY_CANNOT_PATTERN)
_CANNOT_THEN_MOVE = re.compile(CANNOT_THEN_MOVE_PATTERN)
_EVENT_MOVE = re.compile(EVENT_MOVE_PATTERN)
_EVENT_CANCEL = re.compile(EVENT_CANCEL_PATTERN)
_STARTS = re.compile(EVENT_STARTS_PATTERN)
_EVENT_NAMING = re.compile(EVENT_NAMING_PATTERN)
_DIGEST_DAILY = re.compile(DIGEST_DAILY_PATTERN)
_WAKE_SLEEP = re.compile(WAKE_SLEEP_PATTERN)
_ROUTINE_CHANGE = re.compile(ROUTINE_CHANGE_PATTERN)
"""`作息时间改一下 早上6:30起 晚上11点睡`: the words that only say a change follows."""
_ROUTINE = re.compile(ROUTINE_PATTERN)
"""`我的作息是早上六点到晚上十点`: the day window as a span."""
_WAKE_SLEEP_NAMED = re.compile(WAKE_SLEEP_NAMED_PATTERN)
_FOR_THIS = re.compile(FOR_THIS_PATTERN)
"""`…晚上十点就睡了你按这个时间提醒我喝水`: where what it is for begins."""
_CLOCK = re.compile(CLOCK_SAID_PATTERN)
_WATER_WORDS = re.compile(WATER_WORDS_PATTERN)


def read_change(text: str, context: Body) -> Command | None:
    """Any of the module's changes, or None."""
    for reader in (_quiet, _cards, _all_reminders, _rule, _event_change, _digest_daily):
        if (command := reader(text, context)) is not None:
            return command
    return _wake_sleep(text) or _water_words(text)


def _quiet(text: str, _context: Body) -> Command | None:
    """`两小时内别打扰我` / `免打扰1小时` / `关掉免打扰` / `免打扰结束`."""
    word = next((w for w in QUIET_WORDS if w in text), None)
    if word is None:
        return None
    if any(noun in text for noun, feature in FEATURE_NOUNS.items() if feature != "quiet"):
        return None  # 这两天先别提醒喝水了: that feature is paused, not all messages
    if any(end in text for end in END_WORDS):
        return EndQuiet()
    match = QUIET_FOR.search(text)
    if match is None or (match["unit"] == DAY_UNIT and match["n"] is None):
        return None
    minutes = quiet_minutes(match)
    return SetQuiet(minutes=minutes) if 1 <= minutes <= MAX_QUIET_MINUTES else None


def _cards(text: str, _context: Body) -> Command | None:
    if (match := _CARDS.fullmatch(text)) is None:
        return None
    if match["v3"] or match["v4"]:
        return SetCards(on=True)  # 提醒用卡片发吧，带按钮的那种
    return SetCards(on=re.fullmatch(SWITCH_ON_PATTERN, match["v1"] or match["v2"]) is not None)


def _all_reminders(text: str, _context: Body) -> Command | None:
    if (match := _ALL.fullmatch(text)) is None:
        return None
    return SwitchAllReminders(
        on=re.fullmatch(SWITCH_ON_PATTERN, match["v1"] or match["v2"]) is not None
    )


def _rule(text: str, _context: Body) -> Command | None:
    """`删掉提醒3` / `删除第3个提醒` / `提醒3 删掉` / `把提醒2暂停`."""
    if (match := _RULE.fullmatch(text)) is None:
        return None
    verb = match["v1"] or match["v2"] or match["v3"]
    said = match["a"] or match["b"] or match["c"] or match["d"]
    number = small_int(said)
    if number is None:
        return None
    return ChangeRule(verb=RULE_CHANGE_WORDS[verb], number=rule_number(str(number)))


def _event_change(text: str, context: Body) -> Command | None:
    """`把日程2改到周五下午三点` / `日程2取消` / `删除日程 2`."""
    if match := _EVENT_CANCEL.fullmatch(text):
        return CancelEvent(number=small_int(match["a"] or match["b"] or match["c"]) or 0)
    if match := _EVENT_EDIT.fullmatch(text):
        number = small_int(match["n"] or match["o"] or match["p"])
        return parse_edit_event(context.with_text(EDIT_EVENT_KEYWORD, f"{number} {match['rest']}"))
    return _event_move(text, context)


def _event_move(text: str, context: Body) -> Command | None:
    """`把复诊改到周五下午3点` / `复诊推迟到明天`: an event named by its title, moved to
    a new day or time (nothing else: a title change needs the number)."""
    text = _CANNOT_THEN_MOVE.sub("", text)  # 复诊今天去不了了 改到周五: why it moves, dropped
    if (match := _EVENT_MOVE.fullmatch(text)) is None or match["title"].startswith(EVENT_WORD):
        return None
    if any(word in match["title"] for word in TASK_WORDS):
        return None  # 续交房租那个待办推到明天: a task, not an event
    if DAY_WINDOW_SETTING in match["title"] or read_cues(match["title"]).feature is not None:
        return None  # 作息时间调整为6:30至22:30, 晨报改到七点: a setting, not an event
    if match["rest"].strip(SOFT_TAIL) == TOMORROW and not any(
        w in match["title"] for w in EVENT_TITLE_WORDS
    ):
        return None  # 修空调改到明天吧: put off to tomorrow is a task's 明天再说
    title = _EVENT_NAMING.sub("", match["title"]).strip() or match["title"]
    title = _TODAY_CANNOT.sub("", title).strip() or title  # 体检今天去不成了 推到明天
    said = match["rest"]
    for same in SAME_TIME_WORDS:
        said = said.replace(same, "")  # 挪到周四同一时间: the day moves, the time stays
    said = _STARTS.sub("", said.strip())  # 改成10:30开始
    said = strip_separators(said).removesuffix(LE)  # 产检改到下周四了，时间不变
    try:
        when = match_when(said.strip(), context.today)
    except ParseError:
        return None
    if (when.day is None and when.start is None) or when.rest:
        return None
    if when.start is not None and when.end is not None and when.end <= when.start:
        return None
    move = EditEvent(title_ref=title, day=when.day, start=when.start, end=when.end)
    new_period = _SAID_PERIOD.search(match["rest"])  # 下午的培训推到四点: 下午 names the event
    if when.start is not None and 1 <= when.start.hour <= 6 and not new_period:
        later = when.start.replace(hour=when.start.hour + 12)  # 开会改到3点: 15:00, asked
        end = when.end.replace(hour=when.end.hour + 12) if when.end and when.end.hour < 12 else None
        return Confirm(guess=dataclasses.replace(move, start=later, end=end or when.end))
    return move


def _digest_daily(text: str, _context: Body) -> Command | None:
    """`每天早上7点半发晨报`."""
    if (match := _DIGEST_DAILY.fullmatch(text)) is None:
        return None
    found = match_time(match["t"].strip())
    if found is None or found.end != len(match["t"].strip()):
        return None
    return SetDigest(kind=DIGESTS[match["d"]], on=True, at=found.time)


def _wake_sleep(text: str) -> Command | None:
    """`我一般7点起床11点睡`, `起床时间7点 睡觉时间23点`: the day window, evening
    hours read as evening."""
    if (changed := _ROUTINE_CHANGE.sub("", text)) != text and (
        WAKE_WORD in changed or SLEEP_WORD in changed
    ):
        text = changed
    first, comma, rest = _FOR_THIS.sub(",", text, count=1).partition(",")
    if comma and _CLOCK.search(rest) is None:
        # 早上六点起晚上十点睡，喝水提醒就按这个时间来吧: the clause that says it
        said = first.split()
        while len(said) > 1 and _CLOCK.search(said[-1]) is None:
            said.pop()  # …十点睡 喝水提醒你就按这个来: the words with no time go too
        text = " ".join(said)
    match = _WAKE_SLEEP.fullmatch(text) or _WAKE_SLEEP_NAMED.fullmatch(text)
    if match is None and (match := _ROUTINE.fullmatch(text)) is None:
        return None
    wake, sleep = match_time(match["a"].strip()), match_time(match["b"].strip())
    if wake is None or sleep is None:
        return None
    late = sleep.time
    if late.hour < 12 and sleep.period is None:
        late = late.replace(hour=late.hour + 12)
    return SetDayWindow(wake=wake.time, sleep=late) if wake.time < late else None


def _water_words(text: str) -> Command | None:
    """`提醒我喝水` turns the water plan on; `不要提醒我喝水` turns it off."""
    if (match := _WATER_WORDS.fullmatch(text) or _WATER_WORDS.match(text)) is None:
        return None
    if not match["neg"]:
        if match.end() != len(text):
            return None
        return SwitchWater(action="resume" if match["again"] else "enable")  # 继续提醒我喝水
    paused = PAUSE_WORD in text or text.startswith(PAUSE_LEADS)  # 先别提醒我喝水了
    return SwitchWater(action="pause" if paused else "close")
