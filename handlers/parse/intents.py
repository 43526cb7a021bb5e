"""Intent families that read slots and cues, then decide (issue 19).

The older readers in `natural` and `phrasing` each match one shape of sentence. The
families here read a message the other way round: `slots` pulls the typed values out
of any position (an amount, a weight with its unit, a count of glasses, a list
number, a day and time) and `cues` finds the intent words from `lexicon` (markers
such as 记到日程, direction words, question, look, turn-off, done, budget, goal and
remark words). Each family then looks at what was found and decides, or passes
(None) so the next family, and then the older readers, get their turn.

The rules that keep a wrong fact out:
- an explicit marker beats a default (`…，记到日程` is an event, whatever else);
- a number next to a weight word is never money; a budget, goal or limit word is
  never an expense; a remark word (人均, 听说, 工号 …) makes no record at all;
- a look or question word with a thing to show is that view, never a record;
- a turn-off word with a feature's name turns that feature off.

Words live only in `lexicon`; this module holds decisions. Pure and total: every
family returns a Command or None, or raises ParseError for a value out of range.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal

from handlers.channel_commands import ShowChannels
from handlers.commands import (
    AddEvent,
    AddTask,
    AnswerNag,
    CancelBudget,
    CancelEvent,
    CancelTask,
    ChangeRule,
    Command,
    CompleteTask,
    Confirm,
    Dismiss,
    EditEvent,
    EndQuiet,
    ExportData,
    Help,
    LinkMiniProgram,
    OpenPages,
    ParseError,
    PostponeTask,
    RecordWeight,
    SetBudget,
    SetCards,
    SetDigest,
    SetGoalWeight,
    SetQuiet,
    SetReview,
    ShowBudgets,
    ShowEvents,
    ShowMonth,
    ShowReminders,
    ShowReview,
    ShowTasks,
    ShowToday,
    ShowWeek,
    ShowYear,
    SnoozeWater,
    SwitchAllReminders,
    SwitchWater,
    TaskRef,
    Undo,
    WaterAction,
    WhoAmI,
)
from handlers.parse import cues as found_cues
from handlers.parse import slots as found_slots
from handlers.parse.body import Body
from handlers.parse.changes import read_change
from handlers.parse.channels import read_channels
from handlers.parse.cues import Cues
from handlers.parse.lexicon import (
    ENOUGH_TAILS,
    EVENT_OFF_WORDS,
    HELP_TOPIC_FILLERS,
    ML_PER_GLASS,
    MOVE_VERBS,
    POINTED_TASK_MARKERS,
    QUIET_ASK_STARTS,
    REVIEW_ONLY_WORDS,
    SPOKEN_FILLERS,
    TASK_EDGE_WORDS,
    UNBIND_WORDS,
    UPCOMING_WORDS,
    WATER_MISSED,
    WATER_NOT_NOW,
    WATER_OVERCOUNTED,
    WEEKDAYS,
    WHEN_ASKED,
)
from handlers.parse.nag import take_until_done
from handlers.parse.nag import without_clause as nag_clauses_out
from handlers.parse.normalise import compact, remark_clause, strip_separators
from handlers.parse.numbers import check_weight, small_int
from handlers.parse.patterns import (
    ADMIN_WORD,
    ADVANCE_NOTICE_PATTERN,
    ADVANCE_WORD,
    AFTER_MARKER_WORDS,
    AFTER_WAIT_PATTERN,
    BEFORE_WORD,
    BIND_COMMAND,
    BOOKED_LEAD_PATTERN,
    BUDGET_WORD,
    CANCEL_KEYWORD,
    CHANNEL_HINT_PATTERN,
    CHANNEL_NOUN,
    CHANNEL_NOUN_ALT,
    CUP,
    CUPS_LAST_PATTERN,
    DAY_PERIODS,
    DIGEST_HINT_PATTERN,
    DISMISS_HINT_PATTERN,
    DRANK_PATTERN,
    EDIT_EVENT_KEYWORD,
    EVENING_PERIODS,
    EVENT_NAMES,
    EVENT_SAID_NUMBER_PATTERN,
    EVENT_VERBS_PATTERN,
    EVENT_WORD,
    FALLBACK_OFF_WORD,
    FALLBACK_WORDS,
    HALF,
    HELP_ALIASES,
    HELP_COMMAND,
    HELP_KEYWORD,
    HELP_TOPICS,
    HOUR_UNITS,
    JIN,
    LATER_BY_PATTERN,
    LE,
    LIKELY_JIN_FROM,
    LINK_WORDS,
    MARKER_EDGE_MARKS,
    MARKER_HINT_PATTERN,
    ME,
    MINI_PROGRAM,
    MY_WORD,
    NAMED_NOTICE_PATTERN,
    NAMED_REMIND_PATTERN,
    NAMED_RENAME_PATTERN,
    NOT_NEEDED_HINT_PATTERN,
    NOT_TOTAL_PATTERN,
    ORDINAL_WORD,
    PAUSE_FOR_PATTERN,
    PERSONAL_WECHAT,
    PLAN_WORD,
    QUIET_ASKED_PATTERN,
    QUIET_KEYWORD,
    REMIND_WORD,
    RENAME_PATTERN,
    REVIEW_HINT_PATTERN,
    SENTENCE_END_MARKS,
    SET_FALLBACK_COMMAND,
    SET_PRIMARY_COMMAND,
    TAKEN_OFF_WORDS,
    TASK_KEYWORD,
    THING_POINTED_PATTERN,
    TODAY_SHORT,
    TOTAL_WORDS,
    UNBIND_APART_PATTERN,
    UNBIND_COMMAND,
    UNBIND_WORD,
    UNTIL_BEFORE_PATTERN,
    UNTIL_FORMAL_PATTERN,
    UNTIL_LEAD,
    UNTIL_WORD,
    WATER_COUNTED_AS_PATTERN,
    WATER_HINT_PATTERN,
    WATER_LATER_PATTERN,
    WATER_MINUS_PATTERN,
    WATER_PLUS_LAST_PATTERN,
    WEIGHT_HINT_PATTERN,
    WHEN_START_PATTERN,
)
from handlers.parse.records import water as check_in
from handlers.parse.review import BUDGET_MAX
from handlers.parse.settings import parse_quiet
from handlers.parse.slots import Slots
from handlers.parse.tasks import (
    MAX_REMIND_MINUTES,
    numbered_state,
    parse_edit_event,
    parse_event,
    parse_task,
    remind_minutes,
)
from handlers.parse.views import read_help
from handlers.parse.when import match_when
from storage.vocabulary import RuleKind

Family = Callable[[str, Body, Cues, Slots], Command | None]

# Cheap first looks: a family whose words cannot be in the message stops at once (one
# search), before it asks for the cues and slots that cost more.
_REVIEW_HINT = re.compile(REVIEW_HINT_PATTERN, re.IGNORECASE)
_DIGEST_HINT = re.compile(DIGEST_HINT_PATTERN)
_MARKER_HINT = re.compile(MARKER_HINT_PATTERN, re.IGNORECASE)
_WEIGHT_HINT = re.compile(WEIGHT_HINT_PATTERN, re.IGNORECASE)
_WATER_HINT = re.compile(WATER_HINT_PATTERN, re.IGNORECASE)
_CHANNEL_HINT = re.compile(
    CHANNEL_HINT_PATTERN,
    re.IGNORECASE,
)
_NOT_NEEDED_HINT = re.compile(NOT_NEEDED_HINT_PATTERN)
_DISMISS_HINT = re.compile(DISMISS_HINT_PATTERN)


def understand(text: str, context: Body, *, strict: bool = False) -> Command | None:
    """The command the slots and cues of `text` decide, or None to let others read it.

    `strict`: a keyword led the message and its reader refused the rest (`体重 72.4
    磅`); only the families that act on a named thing run (`喝水提醒先停了吧`), never
    those that read a record or a view out of loose words."""
    cues = found_cues.read(compact(text))  # 所有 提醒 都 关掉: words typed apart
    slots = found_slots.read(text, context.today)
    for family in _STRICT_FAMILIES if strict else _FAMILIES:
        if (command := family(text, context, cues, slots)) is not None:
            return command
    return None


# --- explicit markers ----------------------------------------------------------------


def markers(text: str, context: Body, cues: Cues, _slots: Slots) -> Command | None:
    """`周五下午三点开会，记到日程` / `周五 交报告，加个待办`: the marker names the
    command wherever it stands, and its words leave the title."""
    if _MARKER_HINT.search(text) is None:
        return None
    text = context.as_said(text)  # 加个待办：周五前把化肥钱结了: the title keeps its 了
    text = found_cues.without_polite(text)
    said_last = text.endswith(EVENT_WORD) and not text.startswith(EVENT_WORD) and _slots.when_found
    asking = cues.question or cues.look or cues.mine
    if cues.event_marker is None and said_last and not asking and cues.turn_off is None:
        rest = text.removesuffix(EVENT_WORD).strip(" ,")  # 体检 周五 上午9点到11点 日程
        if found_cues.only_view_words(rest):
            return None  # 今天的待办和日程: a view, not an event titled 的待办和
        event = parse_event(context.with_text(EVENT_WORD, rest)) if rest else None
        if isinstance(event, AddEvent) and found_cues.only_view_words(event.title):
            return ShowEvents()  # 明天的日程: the list asked for, not an event titled 的
        return event
    if cues.event_marker is not None:
        rest = _without(text, cues.event_marker).removeprefix(ME).strip()
        rest = _LEAD_VERBS.sub("", rest)  # 约了周六上午9点半…: the day is what counts
        return parse_event(context.with_text(EVENT_WORD, rest)) if rest else None
    if cues.task_marker is not None:
        rest = _without(text, cues.task_marker)
        return parse_task(context.with_text(TASK_KEYWORD, rest)) if rest else None
    pointed = next((w for w in POINTED_TASK_MARKERS if w in text), None)
    if pointed and _slots.when_found and _only_said(text, asking):  # …这个待办到点一直催我
        rest = _without(text, pointed)
        return parse_task(context.with_text(TASK_KEYWORD, rest)) if rest else None
    if (task := _edge_before_nag(text, context)) is not None:
        return task  # 六点给小李发饮食计划 待办 每隔半小时催我一次 直到我做完
    edge = next((w for w in TASK_EDGE_WORDS if text.casefold().endswith(w)), None)
    if edge and not (asking or cues.task_state or cues.turn_off or cues.remind):
        rest = strip_separators(text[: -len(edge)].rstrip(MARKER_EDGE_MARKS))
        if rest and found_cues.only_view_words(rest):
            return None  # 今天的日程和待办: a view, not a task titled 的日程和
        try:
            task = parse_task(context.with_text(TASK_KEYWORD, rest)) if rest else None
        except ParseError:
            return None  # 今天的todo: no task to add, maybe a view
        if not isinstance(task, AddTask) or found_slots.read(task.title, None).when_found:
            return None  # 明天 后天 待办: a day left in the title is no title
        if found_cues.only_view_words(task.title):
            return ShowTasks()  # 明天的待办: the list asked for, not a task titled 的
        return None if task.title in HELP_TOPICS or task.title == HELP_KEYWORD else task
    return None


_LEAD_VERBS = re.compile(BOOKED_LEAD_PATTERN)


def _edge_before_nag(text: str, context: Body) -> Command | None:
    """A bare task word said last before a nag's words (`…发饮食计划 待办 每隔半小时催我
    一次 最多三次 直到我做完`): a task that nags, the task word out of its title."""
    try:
        said, terms = take_until_done(text, interval_nags=True)
    except ParseError:
        return None
    edge = next((w for w in TASK_EDGE_WORDS if said.casefold().endswith(f" {w}")), None)
    if terms is None or edge is None:
        return None
    at = text.casefold().find(f" {edge}")
    rest = text[:at] + text[at + len(edge) + 1 :]
    return parse_task(context.with_text(TASK_KEYWORD, rest))


def _only_said(text: str, asking: bool) -> bool:
    """Whether `text`, its nag clause aside, asks nothing and turns nothing off or on,
    and says nothing was done (`这个待办删了` points at a task, it adds none)."""
    said = found_cues.read(nag_clauses_out(text))
    return not (asking or said.task_state or said.turn_off or said.turn_on or said.done_title)


def _without(text: str, word: str) -> str:
    """The message without the marker and the polite words around it (`，帮我记到待办里`)."""
    at = text.find(word)
    before = found_cues.without_polite_tail(text[:at].rstrip(" ,"))
    after = text[at + len(word) :]
    for end in AFTER_MARKER_WORDS:
        after = after.removeprefix(end)
    parts = [" ".join(part.split()) for part in f"{before},{after}".split(",")]
    parts = [part for part in parts if part]
    rest = parts[0] if parts else ""
    for part in parts[1:]:  # a remark clause stays apart (`…跳绳，体育课要用`): titles drop it
        rest += f",{part}" if remark_clause(part) else f" {part}"
    return strip_separators(rest)


# --- views asked as questions -----------------------------------------------------------

_VIEWS: dict[str, Callable[[], Command]] = {
    "events": ShowEvents,
    "tasks": ShowTasks,
    "reminders": ShowReminders,
    "budgets": ShowBudgets,
    "review": ShowReview,
    "channels": ShowChannels,
    "today": ShowToday,
    "week": ShowWeek,
    "month": ShowMonth,
    "year": ShowYear,
}


def views(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`看看我的日程`, `我的待办有哪些`, `这个月的账`, `今天喝了几杯水`, `今年怎么样`."""
    asked = next((word for word in WHEN_ASKED if word in text), None)
    plain = asked is not None and not cues.remind and not slots.amounts
    if plain and not found_slots.read(text.replace(asked or "", " ")).when_found:
        return ShowEvents()  # 宝宝体检是哪天来着: the events list says when
    if cues.money_noun and found_cues.this_month(cues.text, _context.today):
        return ShowMonth()  # 12月的开销, on a day of December
    if found_cues.this_year(cues.text, _context.today):
        return ShowYear()  # 2026年过得怎么样
    said_alone = cues.scope is not None and found_cues.only_view_words(cues.text)
    given = (  # 来份周报 (给我来个待办 明天买菜 adds one)
        cues.give and cues.view_noun not in (None, "reminders") and not slots.when_found
    ) and found_cues.only_view_words(cues.text)
    asking = (
        cues.question
        or cues.look
        or cues.mine
        or (cues.scope and cues.money_noun)
        or said_alone
        or given
    )
    upcoming = next((word for word in UPCOMING_WORDS if text.startswith(word)), None)
    rest = text[len(upcoming) :] if upcoming else ""
    if upcoming and cues.view_noun in _DAY_LISTS and found_cues.only_view_words(rest):
        return _VIEWS[cues.view_noun]()  # 最近的日程, 接下来的待办: that list
    if not asking and cues.view_noun in _DAY_LISTS and _day_then_view_words(text, _context):
        return _VIEWS[cues.view_noun]()  # 明天的待办, 后天的日程安排: that list
    if not asking or slots.amounts or slots.weight_unit is not None or cues.remind:
        return None
    if cues.turn_off or cues.turn_on:
        return None
    if cues.scope == "week" and cues.view_word in REVIEW_ONLY_WORDS:
        return ShowReview()  # 这周复盘给我看下 (本周总结 stays the week's view)
    if cues.scope is not None and (cues.view_word == PLAN_WORD or found_cues.overlapping(cues)):
        return _VIEWS[cues.scope]()  # 今天有什么安排, 本周总结: the span's view
    if cues.scope == "year" and cues.view_noun == "review":
        return ShowYear()  # 今年回顾: the year's review is the year view
    if cues.views_named >= _DAY_LISTS_SET and cues.scope in (None, "today", "week"):
        return ShowWeek() if cues.scope == "week" else ShowToday()  # 待办和日程有哪些: both
    if CHANNELS_VIEW in cues.views_named and (cues.question or cues.look):
        return _VIEWS[CHANNELS_VIEW]()  # 提醒是通过什么渠道发的: what carries the reminders
    if cues.view_noun is not None:
        if cues.view_noun == "reminders" and (slots.list_number is not None or slots.when_found):
            return None  # 20分钟后 提醒 看一下烤箱: a reminder to make, not the list
        plain = cues.question or cues.look or given or _only_mine(text, cues) or said_alone
        if cues.view_noun == "budgets" or plain:
            return _VIEWS[cues.view_noun]()
    if cues.scope is not None and found_cues.only_view_words(text):
        if cues.scope == "today" and (cues.water_noun or cues.question or cues.look):
            return ShowToday()
        return _VIEWS[cues.scope]()
    if cues.look and cues.money_noun and cues.view_noun is None:
        return _VIEWS[cues.scope]() if cues.scope else ShowMonth()  # 花销明细看看, 这周的…花销
    if cues.question and cues.water_noun and not slots.count:
        return ShowToday()  # 喝了几杯水了
    return None


CHANNELS_VIEW = "channels"
"""The channels' list: asked with another list named, it is what was asked about."""
_DAY_LISTS = ("events", "tasks")
"""The lists a day can be asked of by name alone (`明天的待办`)."""
_DAY_LISTS_SET = frozenset(_DAY_LISTS)


def _day_then_view_words(text: str, context: Body) -> bool:
    """A day, then nothing but view words (`明天的日程`, `下周一的待办`)."""
    try:
        when = match_when(text, context.today)
    except ParseError:
        return False
    return when.day is not None and when.start is None and found_cues.only_view_words(when.rest)


def _only_mine(text: str, cues: Cues) -> bool:
    """`我的日程`: the thing alone after 我的, nothing else said."""
    return cues.view_word is not None and text.replace(MY_WORD, "").strip() == cues.view_word


# --- who I am, pages, export ------------------------------------------------------------


def identity_pages_export(text: str, _c: Body, cues: Cues, slots: Slots) -> Command | None:
    """`我的userid是多少`, `给我个网页链接`, `把我的记录导出`."""
    if not (cues.identity or cues.export or cues.page) or slots.amounts or slots.when_found:
        return None
    if cues.identity and (cues.question or cues.mine or cues.look):
        return WhoAmI()
    if cues.export and not cues.turn_off:
        return ExportData()
    asked = cues.give or cues.look or cues.question or cues.mine or found_cues.only_page_words(text)
    if cues.page and asked and not cues.turn_off:
        return OpenPages(admin=ADMIN_WORD in text)  # 打开管理后台网页
    return None


# --- turning things off and on by name ---------------------------------------------------


def switches(text: str, context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`不用免打扰了`, `晨报重新打开吧`, `喝水提醒先停了吧`, `提醒4先停一下`,
    `把吃药那个提醒删了`, `餐饮的预算不要了`, `不设目标体重了`, `明天的会取消了`."""
    off, on = cues.turn_off, cues.turn_on
    if cues.how is not None:
        return None  # 喝水提醒是怎么用的，想先弄明白了再打开: a question, read by help
    if cues.quiet and cues.feature is None:
        return None  # 一个小时内别发提醒: quiet time, read by the quiet readers
    named = cues.remind and re.search(NAMED_REMIND_PATTERN, text) is not None  # 叫我起床的提醒删了
    amounts = slots.amounts and not (len(slots.amounts) == 1 and _PAUSE_FOR.search(text))
    if (off is None) == (on is None) or amounts or (cues.remind and not named):
        return None  # (暂停两周: how long, no amount)
    feature = cues.feature
    if feature == "quiet":
        return EndQuiet() if off else None
    if feature in (RuleKind.DIGEST_MORNING, RuleKind.DIGEST_EVENING):
        return SetDigest(kind=found_cues.digest_kind(feature), on=on is not None)
    if feature == "review" and (off or not slots.when_found):  # 周日晚上那个周报不用推了
        return SetReview(on=on is not None)
    if feature == "water":
        if slots.count is not None or slots.water_ml is not None:
            return None  # 开了一上午车…喝了两杯: glasses drunk, not the reminder switched
        return SwitchWater(action=_water_action(off, on))
    if feature == "cards":
        return SetCards(on=on is not None)
    if feature == "all_reminders":
        return SwitchAllReminders(on=on is not None)
    if feature == "goal" and off:
        return SetGoalWeight(kg=None)
    if feature == "budget" and off:
        category = found_cues.category_in(text)
        return CancelBudget(category=category) if category else ShowBudgets()
    return _rule_or_event(text, cues, slots, off or on or "")


_PAUSE_FOR = re.compile(PAUSE_FOR_PATTERN)


def _water_action(off: str | None, on: str | None) -> WaterAction:
    if off is not None:
        return "pause" if off == "pause" else "close"
    return "resume" if on == "resume" else "enable"


def _rule_or_event(text: str, cues: Cues, slots: Slots, verb: str) -> Command | None:
    """A reminder by number or by title, or an event by title (`明天的会取消了`)."""
    rule_verb = {"pause": "pause", "close": "pause", "delete": "delete"}.get(verb, "resume")
    if cues.reminder_word:
        if slots.list_number is not None and slots.list_number >= 1:
            return ChangeRule(verb=rule_verb, number=slots.list_number)  # type: ignore[arg-type]
        title = found_cues.title_before(
            text, cues.reminder_word, cues.turn_off_word or cues.turn_on_word
        )
        if title:
            return ChangeRule(verb=rule_verb, title_ref=title)  # type: ignore[arg-type]
        return None
    if slots.list_number is not None:
        if cues.event_word == EVENT_WORD and cues.turn_off and ORDINAL_WORD in text:
            return CancelEvent(number=slots.list_number)  # 第3个日程不去了
        return None  # 日程2取消: the event readers take numbers
    if cues.turn_off and cues.event_word and cues.turn_off_word in EVENT_OFF_WORDS:
        if any(verb in text for verb in MOVE_VERBS):
            return None  # 复诊今天去不了了 改到周五: moved, not cancelled
        day = slots.day
        title = found_cues.event_title(text, cues)
        if title and title not in EVENT_NAMES:  # 取消日程: which one?
            return CancelEvent(title_ref=title, day=day)
    return None


# --- budgets and the weight goal -------------------------------------------------------


def budgets(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`娱乐每月最多花500`, `吃饭预算一千五`, `这个月预算还剩多少`: never an expense."""
    if not cues.budget:
        return None
    if cues.question or cues.look or not slots.amounts:
        if cues.turn_off:
            return None  # the switches family reads 预算不要了
        return ShowBudgets() if cues.question or cues.look or text == BUDGET_WORD else None
    if len(slots.amounts) != 1:
        raise ParseError(found_cues.BUDGET_ONE_AMOUNT)
    category = found_cues.category_in(text)
    amount = slots.amounts[0]
    if category is None:
        raise ParseError(found_cues.BUDGET_WHICH)
    if not Decimal(0) < amount < BUDGET_MAX:
        raise ParseError(found_cues.BUDGET_RANGE)
    return SetBudget(category=category, amount=amount.quantize(Decimal("0.01")))


def goal(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`我的目标是减到120斤`, `目标体重六十五公斤`."""
    if not cues.goal or cues.turn_off or slots.weight is None:
        return None
    if not (cues.weightish or slots.weight_unit):
        return None
    value, jin = slots.weight, slots.weight_unit == JIN
    if slots.weight_unit is None and value >= LIKELY_JIN_FROM:
        return Confirm(guess=SetGoalWeight(kg=check_weight(value, jin=True)))
    return SetGoalWeight(kg=check_weight(value, jin=jin))


# --- records with extra words ---------------------------------------------------------------


def weight(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`我现在66.6kg`, `70.2公斤 今早`, `量了下体重，72`: a weight, never money."""
    if _WEIGHT_HINT.search(text) is None:
        return None
    if slots.weight is None or cues.goal or cues.budget:
        return None
    clause = found_cues.read(_clause_with_number(cues.text))  # 女儿两岁了，今天我称了 58.3kg
    remark = clause.remark_not_exclaimed if slots.weight_unit else clause.remark
    if cues.past or clause.other_person or remark:  # 又胖了 69.4kg 离谱: only exclaims
        return None
    if cues.question or cues.remind or slots.amounts_with_currency:
        return None
    if not (cues.weightish or slots.weight_unit):
        return None
    if not cues.weightish and _THING_POINTED.search(text) is not None:
        return None  # 这袋米 25kg: a thing's weight, not mine
    value = slots.weight
    if slots.weight_unit is None and value >= LIKELY_JIN_FROM:
        return Confirm(guess=RecordWeight(kg=check_weight(value, jin=True)))
    try:
        kg = check_weight(value, jin=slots.weight_unit == JIN)
    except ParseError:
        return None
    return RecordWeight(kg=kg)


def _clause_with_number(text: str) -> str:
    """The last comma-separated part of `text` that holds a digit, else all of it."""
    parts = [part for part in text.split(",") if any(ch.isdigit() for ch in part)]
    return parts[-1] if parts else text


def weight_with_unit(text: str, context: Body, cues: Cues, slots: Slots) -> Command | None:
    """After a keyword's refusal, a weight only when its unit was said (`体重118斤，比
    过年那会儿轻了点`): `体重 72.4 磅` keeps the keyword's answer."""
    return weight(text, context, cues, slots) if slots.weight_unit else None


def water(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`一口气喝了两杯水`, `喝水x3`, `水 +2`, `多记了一杯水，帮我减掉一杯` (-1),
    `刚灌了两杯水`, `刚又喝了三杯水 送完一波单` (a remark after it)."""
    if _WATER_HINT.search(text) is None:
        return None
    if slots.water_times is not None:
        return _glasses(slots.water_times)
    if (minus := _WATER_MINUS.search(text)) is not None and 0 < int(minus["n"]) <= 20:
        return _glasses(-int(minus["n"]))  # 记错了 少喝一杯 喝水-1
    counted = _WATER_COUNTED_AS.search(text) if cues.water_noun else None
    if counted is not None and (glasses := small_int(counted["n"])) is not None:
        return _glasses(glasses)  # 又干了一瓶水 算两杯吧: the user's count
    if cues.other_drinker or cues.past or any(word in text for word in WATER_NOT_NOW):
        return None  # 他喝了三杯水, 昨天喝了5杯水, 如果每天喝8杯水: not glasses to add now
    if slots.water_ml is not None and not cues.question:
        glasses = max(1, round(slots.water_ml / ML_PER_GLASS))  # 喝了500ml水: two, asked
        return Confirm(guess=_glasses(glasses)) if glasses <= 20 else None
    drank = _DRANK.search(text)
    if drank is not None and not cues.question and not slots.amounts_with_currency:
        said = drank["m"] or drank["k"] or drank["n"] or drank["j"]
        count = small_int(said) if said else 1  # 上课前喝了杯水
        before = text[: drank.start()]
        total = any(word in before for word in TOTAL_WORDS) and not _NOT_TOTAL.search(before)
        if (
            count is not None and not total
        ):  # 今天喝了三杯水: a total, or three more? asked elsewhere
            return _glasses(count)
    plus = _WATER_PLUS_LAST.search(text)
    said = int(plus["n"] or plus["m"]) if plus is not None else 0
    if plus is not None and not slots.amounts_with_currency and 0 < said <= 20:
        return _glasses(said)  # 打包完货终于喝上水了 +2, 刚喝完 +1杯水
    cups = _CUPS_LAST.search(text) if cues.water_noun and not cues.question else None
    if cups is not None and small_int(cups["n"]) is not None:
        return _glasses(small_int(cups["n"]) or 1)  # 想起来喝水 一口气喝了两杯
    overcounted = any(w in text for w in WATER_OVERCOUNTED)
    taken_off = overcounted or any(w in text for w in TAKEN_OFF_WORDS)
    if slots.count and ((cues.water_noun and taken_off) or (CUP in text and overcounted)):
        # 喝水多记了一杯，减掉; 刚才那杯多记了，减一杯 (a glass counted twice is water's)
        return _glasses(-slots.count)
    if cues.water_noun and slots.count and any(w in text for w in WATER_MISSED):
        return _glasses(slots.count)  # 今天的水少记了两杯，补上
    return None


_NOT_TOTAL = re.compile(NOT_TOTAL_PATTERN)
_THING_POINTED = re.compile(THING_POINTED_PATTERN)
_WATER_COUNTED_AS = re.compile(WATER_COUNTED_AS_PATTERN)
_WATER_MINUS = re.compile(WATER_MINUS_PATTERN, re.IGNORECASE)


def _glasses(count: int) -> Command:
    return check_in(count)


# --- done in plain past tense -------------------------------------------------------------


def done_past(text: str, context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`快递取了`, `书还了`, `水费交了`: the thing, then the verb, then 了: done."""
    if cues.done_title is None or slots.amounts or slots.when_found:
        return None
    if not context.text.rstrip(SENTENCE_END_MARKS).endswith(LE):
        return None  # the 了 says it happened (帮助待办 is no 办 done)
    if cues.task_number is not None:
        return CompleteTask(ref=TaskRef(number=cues.task_number))  # 三号任务办完了
    return CompleteTask(ref=TaskRef(title=cues.done_title))


# --- settings said in sentences ------------------------------------------------------------


def digest_time(text: str, _context: Body, cues: Cues, _slots: Slots) -> Command | None:
    """`早上的计划改到七点发`: a digest named in words, at a new time."""
    if _DIGEST_HINT.search(text) is None:
        return None
    if cues.feature not in (RuleKind.DIGEST_MORNING, RuleKind.DIGEST_EVENING) or cues.turn_off:
        return None
    at = found_cues.time_in(text)
    if at is None:
        return None
    if cues.feature == RuleKind.DIGEST_EVENING and at.hour < 12:
        at = at.replace(hour=at.hour + 12)
    return SetDigest(kind=found_cues.digest_kind(cues.feature), on=True, at=at)


def review_schedule(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`周报改到周六早上九点`: the review's day and time."""
    if _REVIEW_HINT.search(text) is None or cues.feature != "review" or cues.turn_off:
        return None
    found = found_cues.weekday_time(text)
    if found is None:
        return None
    weekday, at = found
    return SetReview(on=True, weekday=WEEKDAYS[weekday], at=at)


_WHEN_START = re.compile(WHEN_START_PATTERN)


def _from_when_words(said: str) -> str:
    """`said` from its first day, period or o'clock word on (`跑夜班呢明早八点`)."""
    found = _WHEN_START.search(said)
    return said[found.start() :] if found is not None else said


_QUIET_ASKED_AFTER = re.compile("|".join(QUIET_ASK_STARTS))


def quiet_until(text: str, context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`别打扰我，到明早8点`: quiet until a wall-clock time."""
    if not cues.quiet or cues.turn_off_word == CANCEL_KEYWORD:
        return None
    text = _UNTIL_FORMAL.sub(UNTIL_WORD, text)  # 免打扰至今天17:00
    if "," in text and UNTIL_WORD not in text:  # 夜班要补觉,下午四点前都别吵我: the clause with 前
        text = next((part for part in text.split(",") if BEFORE_WORD in part), text.split(",")[-1])
    period = next((p for p in EVENING_PERIODS if p in text[: max(text.find(UNTIL_WORD), 0)]), "")

    at = text.find(UNTIL_WORD)
    before = re.search(UNTIL_BEFORE_PATTERN, text)
    if at >= 0:
        end = before.start() if before is not None and before.start() > at else len(text)
        said = _QUIET_ASKED_AFTER.split(text[at:end], maxsplit=1)[0].strip()  # 到两点别打扰我
        if period and not any(p in said for p in DAY_PERIODS):
            said = f"{UNTIL_LEAD}{period}{said[1:].strip()}"  # 下午别打扰我，到五点: 17:00
    elif before is not None:
        said = UNTIL_LEAD + text[: before.start()].strip()  # 今天下午六点前都别发消息给我
        if len(said.split()) > 2:
            said = UNTIL_LEAD + said.split()[-1]  # 今晚夜班 明早八点前…: the time said last
        said = UNTIL_LEAD + _from_when_words(said[2:])  # 跑夜班呢明早八点前: the words before go
    else:
        return None
    said = _QUIET_ASKED.sub("", said).strip(" ,")  # 到明天早上七点请开启免打扰
    try:
        command = parse_quiet(context.with_text(QUIET_KEYWORD, said))
    except ParseError:
        return None
    if not isinstance(command, SetQuiet):
        return None
    starts = found_cues.time_in(text[:at]) if at > 0 else None
    later = starts is not None and starts > context.now_local.time() and TODAY_SHORT in text[:at]
    return Confirm(guess=command) if later else command  # 今晚十点到明早七点: from now?


# --- channels, undo, help, numbered tasks, short answers ---------------------------


_UNBIND_APART = re.compile(UNBIND_APART_PATTERN)
"""`解除WxPusher的绑定`: the unbind verb and 绑定 with the channel between them."""


def channels(text: str, _context: Body, cues: Cues, _slots: Slots) -> Command | None:
    """`备用渠道设成微信`, `主渠道改回企业微信`, `以后提醒发我微信上`, `方糖解绑`,
    `我的server酱key是SCT… 帮我绑上`."""
    if _CHANNEL_HINT.search(text) is None:
        return None
    linked = any(word in text for word in LINK_WORDS)
    if MINI_PROGRAM in text and linked and UNBIND_WORD not in text:
        return LinkMiniProgram()  # 帮我绑一下小程序
    said = found_cues.channel_key(text)
    if said is not None and UNBIND_WORD not in text:
        return read_channels(BIND_COMMAND.format(said=said))  # a key is written only to be bound
    target = found_cues.channel_target(text)
    unbind = any(word in text for word in UNBIND_WORDS) or _UNBIND_APART.search(text) is not None
    if target is None and unbind:
        target = found_cues.channel_target(text, negated_too=True)  # 不要wxpusher了 解绑吧
    if target is None:
        named = CHANNEL_NOUN in text or CHANNEL_NOUN_ALT in text or text.startswith(FALLBACK_WORDS)
        off = cues.fallback and cues.turn_off and named
        return read_channels(SET_FALLBACK_COMMAND.format(target=FALLBACK_OFF_WORD)) if off else None
    if unbind:
        personal = target in PERSONAL_WECHAT
        return None if personal else read_channels(UNBIND_COMMAND.format(target=target))
    if cues.fallback:
        return read_channels(
            SET_FALLBACK_COMMAND.format(target=FALLBACK_OFF_WORD if cues.turn_off else target)
        )
    if cues.channel and not cues.turn_off_before_target:
        return read_channels(SET_PRIMARY_COMMAND.format(target=target))
    return None


def undo(text: str, _context: Body, cues: Cues, _slots: Slots) -> Command | None:
    """`刚那条记错了 删掉`, `上一笔不对 撤了吧`, `undo`."""
    return Undo() if cues.undo else None


def help_asked(
    text: str, _context: Body, cues: Cues | None = None, _slots: Slots | None = None
) -> Help | None:
    """`你能干嘛`, `有哪些指令`, `记账咋用`, `提醒怎么弄成每天的`."""
    cues = cues or found_cues.read(compact(text))
    if cues.how is not None:
        at = text.find(cues.how)
        topic = text[:at].strip() or text[at + len(cues.how) :].strip()  # 怎么设提醒
        topic = topic.replace(",", " ")  # 咋设提醒啊，教教我呗: 提醒
        topic = topic.split()[0] if topic.split() else ""  # 记账咋弄 教我一下: 记账
        while topic.endswith(HELP_TOPIC_FILLERS):
            topic = next(topic.removesuffix(f) for f in HELP_TOPIC_FILLERS if topic.endswith(f))
        while topic.startswith(SPOKEN_FILLERS):  # 那个记账咋弄的: 记账
            topic = next(topic.removeprefix(f) for f in SPOKEN_FILLERS if topic.startswith(f))
        found = read_help(HELP_COMMAND.format(topic=topic)) if topic else None
        if found is not None and found.topic:
            return found
        named = _longest_word(text[at + len(cues.how) :], _HELP_WORDS)  # 怎样记录支出: 支出
        if named is not None:
            return Help(topic=HELP_ALIASES.get(named, named))
    return Help() if cues.help else None


_HELP_WORDS = sorted({*HELP_TOPICS, *HELP_ALIASES}, key=len, reverse=True)
"""Every help topic and its other words, longest first."""


def _longest_word(text: str, words: list[str]) -> str | None:
    """The first of `words` (longest first) inside `text`, or None."""
    return next((word for word in words if word in text), None)


def event_edit(text: str, context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`日程3 时间改成晚上八点`, `日程2 提前半小时提醒我`, `日程1 改名成 年终述职`: an
    event by its number."""
    match = _EVENT_NUMBER.match(text)
    if match is None:
        return None
    renamed = _RENAME.match(compact(text[match.end() :]))
    if renamed is not None and renamed["title"].strip():
        return EditEvent(
            number=small_int(match["n"] or match["o"]) or 0, title=renamed["title"].strip()
        )
    rest = _EVENT_VERBS.sub(" ", text[match.end() :]).strip()
    if not rest or not (slots.when_found or ADVANCE_WORD in rest):
        return None
    try:
        number = small_int(match["n"] or match["o"]) or 0
        return parse_edit_event(context.with_text(EDIT_EVENT_KEYWORD, f"{number} {rest}"))
    except ParseError:
        return None


_DRANK = re.compile(DRANK_PATTERN)
_WATER_PLUS_LAST = re.compile(WATER_PLUS_LAST_PATTERN, re.IGNORECASE)
"""`…终于喝上水了 +2`: the water said, then the count added, last."""
_CUPS_LAST = re.compile(CUPS_LAST_PATTERN)
"""`喝水…喝了两杯`: glasses counted at a clause's end, the water named before."""
_RENAME = re.compile(RENAME_PATTERN)
_EVENT_NUMBER = re.compile(EVENT_SAID_NUMBER_PATTERN)
_EVENT_VERBS = re.compile(EVENT_VERBS_PATTERN)


def advance_notice(text: str, context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`下周三上午九点半 护士资格考试 提前一小时提醒`: a thing at a time, to be told
    of before it: an event with its reminder, not a reminder titled 提前一小时."""
    if (
        ADVANCE_WORD not in text
        or not slots.when_found
        or (cues.remind is False and REMIND_WORD not in text)
    ):
        return None
    if _ADVANCE.search(text) is None:
        return None
    try:
        event = parse_event(context.with_text(EVENT_WORD, text))
    except ParseError:
        return None
    if isinstance(event, AddEvent) and event.start is not None and event.remind_minutes_before:
        return event
    return None


_ADVANCE = re.compile(ADVANCE_NOTICE_PATTERN)


def event_moved(text: str, context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`日程 开会 改到 明天下午三点`: an event named by its title after 日程, moved."""
    if not text.startswith(EVENT_WORD) or not slots.when_found:
        return None
    rest = text.removeprefix(EVENT_WORD).strip()
    if not rest or rest[0].isdigit():
        return None
    found = read_change(rest, context)
    return found if isinstance(found, (EditEvent, Confirm)) else None


def event_notice(text: str, context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`家长会那个提前二十分钟提醒我`, `组会那个日程名字改成 开题汇报`: an event named
    by its title, told ahead or renamed."""
    if (renamed := _NAMED_RENAME.fullmatch(text)) is not None and renamed["title"].strip():
        return EditEvent(title_ref=renamed["ref"], title=renamed["title"].strip())
    match = _NAMED_NOTICE.fullmatch(text)
    if match is None:
        return None
    try:
        minutes, rest = remind_minutes(match["notice"])
    except ParseError:
        return None
    rest = rest.strip()
    for tail in ENOUGH_TAILS:
        rest = rest.removesuffix(tail).strip()  # 提前15分钟提醒我就行
    if minutes is None or rest or not 0 < minutes <= MAX_REMIND_MINUTES:
        return None
    return EditEvent(title_ref=match["title"].strip(), remind_minutes_before=minutes)


_NAMED_NOTICE = re.compile(NAMED_NOTICE_PATTERN)
_NAMED_RENAME = re.compile(NAMED_RENAME_PATTERN)
_UNTIL_FORMAL = re.compile(UNTIL_FORMAL_PATTERN)


def task_not_needed(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`奶粉不用买了`, `银行不用去了`: the task is dropped (`周报不用发了` is a setting)."""
    if not _NOT_NEEDED_HINT.search(text):
        return None
    if slots.amounts or cues.feature or (title := found_cues.not_needed(text)) is None:
        return None
    return CancelTask(ref=TaskRef(title=title))


def named_task(text: str, _context: Body, cues: Cues, _slots: Slots) -> Command | None:
    """`报表那件事不用做了`, `给老王回电话那事儿打完了`, `交作业的todo取消`: a task named
    by its thing, and what happened to it."""
    found = found_cues.named_thing(text)
    if found is None or cues.event_word is not None:
        return None  # 年会那个不去了，日程删掉: an event's, read by the switches
    thing, state = found
    ref = TaskRef(title=thing)
    if state == "done":
        return CompleteTask(ref=ref)
    return CancelTask(ref=ref) if state == "cancel" else PostponeTask(ref=ref)


def numbered_task(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`待办2明天再弄`, `2号任务取消掉`, `第3个待办搞定`: a task by its number."""
    if cues.task_state is None or cues.task_number is None:
        return None
    return numbered_state(text)


def water_later(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`过四十分钟再叫我喝水`: the water reminder put off, not a new reminder."""
    match = _WATER_LATER.fullmatch(cues.text)
    if match is None:
        return None
    minutes = _snooze_minutes(match)
    return SnoozeWater(minutes=minutes) if minutes is not None else None


def _snooze_minutes(match: re.Match[str]) -> int | None:
    """The minutes a water reminder is put off by (`四十分钟`, `半小时`): its `n` and
    `unit` groups, or None outside 5..180."""
    count = Decimal("0.5") if match["n"] == HALF else Decimal(small_int(match["n"]) or 0)
    minutes = int(count * (60 if match["unit"] in HOUR_UNITS else 1))
    return minutes if 5 <= minutes <= 180 else None


_LATER_BY = re.compile(LATER_BY_PATTERN)
_QUIET_ASKED = re.compile(QUIET_ASKED_PATTERN)
_AFTER_WAIT = re.compile(AFTER_WAIT_PATTERN)
_WATER_LATER = re.compile(WATER_LATER_PATTERN)


def short_answers(text: str, _context: Body, cues: Cues, slots: Slots) -> Command | None:
    """`好嘞知道了` (a nag's answer), `晚点再喝` (the water card's 稍后), `算了算了
    不记了` (no to a question)."""
    if _DISMISS_HINT.search(text) is not None and found_cues.only_dismissal(cues.text):
        return Dismiss()
    if cues.nag_answer is not None:
        return AnswerNag(word=cues.nag_answer)
    if cues.snooze or (cues.water_noun and cues.snooze_word and not cues.question):
        later = _LATER_BY.search(text) or _AFTER_WAIT.search(text)  # 一小时后吧, 过四十分钟
        if later is not None and (minutes := _snooze_minutes(later)) is not None:
            return SnoozeWater(minutes=minutes)
        return SnoozeWater()  # 晚点再喝, 喝水的过会儿再提醒我
    waited = _AFTER_WAIT.search(text)  # 喝水过一小时再提醒我, 喝水提醒推迟一小时
    if cues.water_noun and waited and not cues.question and slots.count is None:
        return SnoozeWater(minutes=minutes) if (minutes := _snooze_minutes(waited)) else None
    return None


_STRICT_FAMILIES: tuple[Family, ...] = (
    markers,
    event_edit,
    event_moved,
    short_answers,
    weight_with_unit,
    help_asked,
    channels,
    numbered_task,
    identity_pages_export,
    budgets,
    goal,
    review_schedule,
    quiet_until,
    switches,
    views,
)
"""The families that act on a named thing: they run even after a keyword's reader
refused the rest (`喝水提醒先停了吧` starts with 喝水)."""
_FAMILIES: tuple[Family, ...] = (
    markers,
    water_later,
    advance_notice,
    event_notice,
    short_answers,
    undo,
    help_asked,
    channels,
    event_edit,
    numbered_task,
    named_task,
    task_not_needed,
    identity_pages_export,
    budgets,
    goal,
    review_schedule,
    digest_time,
    quiet_until,
    switches,
    views,
    weight,
    water,
    done_past,
)
"""Every family, in order: markers first (they beat any default), records last."""
