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
    RuleVerb,
    SetCards,
    SetDayWindow,
    SetDigest,
    SetQuiet,
    SwitchAllReminders,
    SwitchWater,
)
from handlers.parse.body import Body
from handlers.parse.lexicon import (
    END_WORDS,
    EVENT_TITLE_WORDS,
    FEATURE_NOUNS,
    MOVE_VERBS,
    QUIET_WORDS,
)
from handlers.parse.numbers import LIST_N, small_int
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

_N = LIST_N
_ON = r"打开|开启|开|恢复|启用"
_OFF = r"关掉|关闭|关|停掉|停用"
_RULE_WORDS: dict[str, RuleVerb] = {"删掉": "delete", "删除": "delete", "删了": "delete"}
_RULE_WORDS |= dict.fromkeys(("暂停", "关掉", "关闭", "停掉"), "pause")
_RULE_WORDS |= dict.fromkeys(("恢复", "打开", "开启"), "resume")
_RULE_VERB = "|".join(_RULE_WORDS)
_RULE = re.compile(
    rf"(?:把)?(?:第)?(?P<a>{_N})(?:个|条)提醒\s*(?P<v1>{_RULE_VERB})"
    rf"|(?:把)?提醒\s*#?(?P<b>{_N})\s*(?P<v2>{_RULE_VERB})"
    rf"|(?P<v3>{_RULE_VERB})\s*(?:第\s*(?P<c>{_N})\s*(?:个|条)\s*提醒|提醒\s*#?(?P<d>{_N}))"
)
_CARDS = re.compile(
    rf"(?:(?P<v1>{_ON}|{_OFF})\s*(?:提醒)?卡片|卡片\s*(?P<v2>{_ON}|{_OFF}))(?:模式)?"
    rf"|(?:把)?(?:提醒|消息|通知)?(?:都)?(?P<v3>用|改用|换成|改成|要|想要)卡片(?:发|的形式|形式|那种)?.*"
    rf"|(?:我)?(?:想要|要)(?P<v4>卡片)(?:那种|形式)?(?:的)?提醒"
)
_ALL = re.compile(
    rf"(?P<v1>{_ON}|{_OFF})\s*(?:所有|全部)的?提醒|(?:所有|全部)(?:的)?提醒\s*(?:都|全)?\s*(?P<v2>{_ON}|{_OFF})"
)
_MOVE = "|".join(MOVE_VERBS)
_EVENT_EDIT = re.compile(
    rf"(?:把)?(?:日程\s*(?P<n>{LIST_N})|第\s*(?P<o>{LIST_N})\s*个\s*日程|(?P<p>{LIST_N})\s*号日程)\s*(?:的时间|的)?\s*(?:{_MOVE}|改)\s*(?P<rest>.+)"
)
_EVENT_MOVE = re.compile(rf"(?:把)?(?P<title>[^\s0-9]{{1,12}}?)\s*(?:{_MOVE})\s*(?P<rest>.+)")
_EVENT_CANCEL = re.compile(
    rf"(?:把)?(?:取消|删除|删掉)\s*日程\s*(?P<a>{LIST_N})"
    rf"|(?:(?:把)?日程\s*(?P<b>{LIST_N})|(?P<c>{LIST_N})号日程)\s*(?:取消|删掉|删除|删了|删|不去了?)"
    r"(?:[,\s]*(?:取消|删掉|删了|删除)?\s*吧?)?(?:[,\s].{0,12})?"
)
_STARTS = re.compile(r"(?:开始|开|举行|进行|见面)$")
_EVENT_NAMING = re.compile(r"(?:那个|这个|的)?(?:日程|会议|安排)?$|那个$")
_DIGEST_DAILY = re.compile(
    r"(?:每天)?(?P<t>.+?)\s*(?:再)?(?:发|推送|给我发|发我|发一下|来)(?:个|一下)?(?P<d>晨报|早报|晚报)"
    r"(?:给我|吧)?"
)
_WAKE_SLEEP = re.compile(
    r"(?:我|俺|咱)?(?:一般|平时|每天|通常)?(?P<a>.+?)起(?:床|来)?[\s,]*(?P<b>.+?)(?:就)?睡(?:觉)?了?"
)
_ROUTINE_CHANGE = re.compile(
    r"^作息(?:时间)?\s*(?:改一下|改成|改为|调整一下|调一下|换成)?\s*[:：]?\s*"
)
"""`作息时间改一下 早上6:30起 晚上11点睡`: the words that only say a change follows."""
_ROUTINE = re.compile(
    r"(?:我的?|俺的?)?(?:日常)?作息(?:时间)?(?:一般|大概)?(?:是|为)?\s*(?P<a>[^\s,到至]+?)\s*(?:到|至|-|~)\s*(?P<b>.+)"
)
"""`我的作息是早上六点到晚上十点`: the day window as a span."""
_WAKE_SLEEP_NAMED = re.compile(
    r"起床(?:时间)?(?:是|在)?\s*(?P<a>[^\s,]+?)[\s,]*睡觉(?:时间)?(?:是|在)?\s*(?P<b>.+)"
)
_FOR_THIS = re.compile(r"(?=你?(?:就)?(?:按|照)这个)")
"""`…晚上十点就睡了你按这个时间提醒我喝水`: where what it is for begins."""
_CLOCK = re.compile(r"[0-9]|[一二两三四五六七八九十]\s*点")
_WATER_WORDS = re.compile(
    r"(?:今天|这两天|以后|今后|再也|先)*(?:就)?(?:开始)?(?P<neg>不要|别|不用)?(?P<again>继续|恢复|重新)?"
    r"(?:再)?(?:提醒我?|叫我)喝水(?:了)?"
)


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
    if match is None or (match["unit"] == "天" and match["n"] is None):
        return None
    minutes = quiet_minutes(match)
    return SetQuiet(minutes=minutes) if 1 <= minutes <= MAX_QUIET_MINUTES else None


def _cards(text: str, _context: Body) -> Command | None:
    if (match := _CARDS.fullmatch(text)) is None:
        return None
    if match["v3"] or match["v4"]:
        return SetCards(on=True)  # 提醒用卡片发吧，带按钮的那种
    return SetCards(on=re.fullmatch(_ON, match["v1"] or match["v2"]) is not None)


def _all_reminders(text: str, _context: Body) -> Command | None:
    if (match := _ALL.fullmatch(text)) is None:
        return None
    return SwitchAllReminders(on=re.fullmatch(_ON, match["v1"] or match["v2"]) is not None)


def _rule(text: str, _context: Body) -> Command | None:
    """`删掉提醒3` / `删除第3个提醒` / `提醒3 删掉` / `把提醒2暂停`."""
    if (match := _RULE.fullmatch(text)) is None:
        return None
    verb = match["v1"] or match["v2"] or match["v3"]
    said = match["a"] or match["b"] or match["c"] or match["d"]
    number = small_int(said)
    if number is None:
        return None
    return ChangeRule(verb=_RULE_WORDS[verb], number=rule_number(str(number)))


def _event_change(text: str, context: Body) -> Command | None:
    """`把日程2改到周五下午三点` / `日程2取消` / `删除日程 2`."""
    if match := _EVENT_CANCEL.fullmatch(text):
        return CancelEvent(number=small_int(match["a"] or match["b"] or match["c"]) or 0)
    if match := _EVENT_EDIT.fullmatch(text):
        number = small_int(match["n"] or match["o"] or match["p"])
        return parse_edit_event(context.with_text("改日程", f"{number} {match['rest']}"))
    return _event_move(text, context)


def _event_move(text: str, context: Body) -> Command | None:
    """`把复诊改到周五下午3点` / `复诊推迟到明天`: an event named by its title, moved to
    a new day or time (nothing else: a title change needs the number)."""
    if (match := _EVENT_MOVE.fullmatch(text)) is None or match["title"].startswith("日程"):
        return None
    if any(word in match["title"] for word in ("待办", "任务")):
        return None  # 续交房租那个待办推到明天: a task, not an event
    if match["rest"].strip(" 吧了") == "明天" and not any(
        w in match["title"] for w in EVENT_TITLE_WORDS
    ):
        return None  # 修空调改到明天吧: put off to tomorrow is a task's 明天再说
    title = _EVENT_NAMING.sub("", match["title"]).strip() or match["title"]
    said = match["rest"]
    for same in ("同一时间", "原来的时间", "时间不变", "同一个时间", "老时间"):
        said = said.replace(same, "")  # 挪到周四同一时间: the day moves, the time stays
    said = _STARTS.sub("", said.strip())  # 改成10:30开始
    try:
        when = match_when(said.strip(), context.today)
    except ParseError:
        return None
    if (when.day is None and when.start is None) or when.rest:
        return None
    if when.start is not None and when.end is not None and when.end <= when.start:
        return None
    move = EditEvent(title_ref=title, day=when.day, start=when.start, end=when.end)
    if when.start is not None and 1 <= when.start.hour <= 6 and not _SAID_PERIOD.search(text):
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
    if (changed := _ROUTINE_CHANGE.sub("", text)) != text and ("起" in changed or "睡" in changed):
        text = changed
    first, comma, rest = _FOR_THIS.sub(",", text, count=1).partition(",")
    if comma and _CLOCK.search(rest) is None:
        text = (
            first.strip()
        )  # 早上六点起晚上十点睡，喝水提醒就按这个时间来吧: the clause that says it
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
    paused = "暂停" in text or text.startswith(("先", "今天", "这两天"))  # 先别提醒我喝水了
    return SwitchWater(action="pause" if paused else "close")
