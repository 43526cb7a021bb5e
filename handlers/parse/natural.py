"""What people type without a keyword, read into the same commands.

`晚饭 48`, `称了下 70.1`, `喝了三杯水`, `地铁 4块`, `取快递搞定了`,
`每天早上七点半提醒我吃维生素`, `四十分钟后提醒我关烤箱`, `这周花了多少`, `刚才记错了`.

Precision beats coverage. A reading that could be wrong is returned as
`Confirm(guess=...)`, never as the record itself: a lone number, a weight that may be
in 斤, money whose direction or category is a guess, a dated line without a verb
(`周五交材料`). Questions and long diary-like sentences never become records.

`read` is given the message tidied (`normalise.tidy(..., drop_le=True)`); it returns
a Command or raises ParseError: the keyword reader's error when there was one
(`fallback`), else a short miss (`texts.miss`).
"""

from __future__ import annotations

import re

from handlers import texts
from handlers.commands import (
    CancelEvent,
    CancelTask,
    CheckInWater,
    Command,
    CompleteTask,
    Confirm,
    ParseError,
    PostponeTask,
    RecordWeight,
    Undo,
)
from handlers.parse import intents, money, phrasing
from handlers.parse.body import Body
from handlers.parse.cues import asks, thing_done
from handlers.parse.lexicon import (
    BUDGET_CUES,
    NOT_RECORD_VERB,
    RECORD_LEADS,
    RECORD_VERB,
    STRONG_UNDO,
    TODO_AFTER_RECORD_LEADS,
)
from handlers.parse.normalise import compact
from handlers.parse.numbers import (
    ANY_NUMBER,
    check_weight,
    is_bare_number,
    number_value,
    small_int,
)
from handlers.parse.patterns import (
    CANCEL_KEYWORD,
    DONE_KEYWORD,
    EVENT_BY_NUMBER_PATTERN,
    GLASSES_ONLY_PATTERN,
    JIN,
    LE,
    LIKELY_JIN_FROM,
    NATURAL_WEIGHT_PATTERN,
    NOT_A_TITLE_CHARS,
    POSTPONE_KEYWORD,
    TASK_CANCEL_REASON_PATTERN,
    TASK_CANCEL_TAIL_PATTERN,
    TASK_CANCEL_TITLE_END_PATTERN,
    TASK_DONE_AFTER_COMMA_PATTERN,
    TASK_DONE_FIRST_PATTERN,
    TASK_DONE_PATTERN,
    TASK_KEYWORD,
    TASK_NOT_NEEDED_AFTER_PATTERN,
    TASK_NOT_NEEDED_PATTERN,
    TASK_PRONOUNS,
    TASK_TOMORROW_PATTERN,
    THING_TAILS,
    TODAY_CANNOT_PATTERN,
)
from handlers.parse.tasks import _INTERJECTION, task_ref
from handlers.parse.views import read_question

_WEIGHT = re.compile(
    NATURAL_WEIGHT_PATTERN,
    re.IGNORECASE,
)
_DONE = re.compile(TASK_DONE_PATTERN)
_DONE_FIRST = re.compile(TASK_DONE_FIRST_PATTERN, re.IGNORECASE)
_POSTPONE = re.compile(TASK_TOMORROW_PATTERN)
_CANCEL = re.compile(TASK_NOT_NEEDED_PATTERN)
_CANCEL_AFTER = re.compile(TASK_NOT_NEEDED_AFTER_PATTERN)
_EVENT_BY_NUMBER = re.compile(EVENT_BY_NUMBER_PATTERN)
_DONE_AFTER_COMMA = re.compile(TASK_DONE_AFTER_COMMA_PATTERN)
_CANCEL_TAIL = re.compile(TASK_CANCEL_TAIL_PATTERN)
_TODAY_CANNOT = re.compile(TODAY_CANNOT_PATTERN)
_CANCEL_REASON = re.compile(TASK_CANCEL_REASON_PATTERN)
_CANCEL_TITLE_END = re.compile(TASK_CANCEL_TITLE_END_PATTERN)
MAX_NATURAL = 200
"""Longer messages are read only with a keyword (`日记 ...`, `提醒 ...`)."""
_LONE_NUMBER = re.compile(rf"[+]?\s*(?P<n>{ANY_NUMBER})")


def read(text: str, context: Body, *, fallback: ParseError | None) -> Command:
    """The command `text` means, or ParseError (`fallback`, else a short miss)."""
    if fallback is not None:
        try:
            command = read_command(text, context, strict=True)
            if command is None and (joined := compact(text)) != text:
                command = read_command(joined, context, strict=True)  # 提醒 全部 打开
        except ParseError:
            command = None  # the keyword's own answer says more than a second reading's
        if command is None:
            raise fallback
        return command
    try:
        command = read_command(text, context)
    except ParseError:
        if (joined := compact(text)) == text or (command := _quiet_read(joined, context)) is None:
            raise
    if command is None and (joined := compact(text)) != text:
        command = read_command(joined, context)  # 今年 过的 咋样: words typed apart
    if command is not None:
        return command
    raise ParseError(texts.BARE_NUMBER if is_bare_number(text) else texts.miss(text))


def _quiet_read(text: str, context: Body) -> Command | None:
    """`read_command`, or None where it would refuse (a second reading's refusal
    never replaces the first one's)."""
    try:
        return read_command(text, context)
    except ParseError:
        return None


def read_command(text: str, context: Body, *, strict: bool = False) -> Command | None:
    """The natural readers in order; None when none of them fits.

    `strict` (a keyword was typed but its reader refused the rest) leaves out the
    loose readers (money in free order, dated lines, lone numbers): `记账 35x` gets
    the keyword's answer, never a guess.
    """
    if not text or len(text) > MAX_NATURAL:
        return None  # a long text is a diary, not a command said in passing
    if (command := intents.understand(text, context, strict=strict)) is not None:
        return command
    if (command := read_question(text)) is not None:
        return command
    for leading in (
        phrasing.read_setting,
        phrasing.read_lead,
        phrasing.read_reminder,
        phrasing.read_water,
    ):
        if (command := leading(text, context)) is not None:
            return command
    if (command := read_weight(text, guess_jin=not strict)) is not None:
        return command
    if (command := read_task_state(text)) is not None or strict:
        return command
    if (command := money.read_money(text)) is not None:
        return command
    return phrasing.read_dated(text, context) or read_lone_number(text)


def read_weight(text: str, *, guess_jin: bool = True) -> Command | None:
    """`称了下 70.1` / `体重是七十二点四` / `空腹 140斤` / `70.1kg`; None if not a weight.

    Without a unit, a value of 100 or more is probably 斤: asked, not recorded
    (`guess_jin`), or left to the keyword's answer.
    """
    match = _WEIGHT.fullmatch(text)
    if match is None or (match["unit0"] and match["unit"]):
        return None
    unit = match["unit"] or match["unit0"]  # 空腹 kg 66.8: the unit said first
    if not (match["verb"] or match["fast"] or unit):
        return None
    value = number_value(match["n"])
    if value is None:
        return None
    if unit is None and value >= LIKELY_JIN_FROM:
        if not guess_jin:
            return None
        return Confirm(guess=RecordWeight(kg=check_weight(value, jin=True)))
    return RecordWeight(kg=check_weight(value, jin=unit == JIN))


def read_task_state(text: str) -> Command | None:
    """`2 完成了` / `取快递搞定了` / `搞定 2` / `不用买菜了` / `买菜明天再说` (了 dropped);
    never a question (`我还有哪些事项尚未完成？`)."""
    if asks(text):
        return None
    if (match := _DONE_FIRST.fullmatch(text)) and _is_title(match["what"]):
        return CompleteTask(ref=task_ref(match["what"].strip(), DONE_KEYWORD))
    if (match := _POSTPONE.fullmatch(text)) and _is_title(match["what"]):
        said = match["what"].strip().rstrip(",")
        what = _TODAY_CANNOT.sub("", said).strip() or said
        for tail in THING_TAILS:
            what = what.removesuffix(tail).rstrip()  # 拿体检报告的事明天再说, 挂号 这个事
        if match["verb"] and not what.startswith(match["verb"]):
            what = match["verb"] + what  # 洗衣液明天再买: 买洗衣液
        return PostponeTask(ref=task_ref(what, POSTPONE_KEYWORD))  # 年度总结今天搞不完了 挪到明天
    if (match := _DONE.fullmatch(text)) and _is_title(match["what"]):
        return CompleteTask(ref=task_ref(thing_done(match["what"]), DONE_KEYWORD))
    if (done := _DONE_AFTER_COMMA.fullmatch(text)) and _is_title(done["what"]):
        return CompleteTask(
            ref=task_ref(done["what"].strip(), DONE_KEYWORD)
        )  # 给张阿姨回电话，已经打过了
    if any(cue in text for cue in BUDGET_CUES):
        return None  # 兴趣班花得太多了，教育每个月定个三千的预算: a budget, not a task
    text = _CANCEL_TAIL.sub("", text)  # 银行办卡不去了，取消掉
    match = _CANCEL.fullmatch(text) or _CANCEL_AFTER.fullmatch(text)
    if match and (event := _EVENT_BY_NUMBER.fullmatch(match["what"].strip())):
        return CancelEvent(number=small_int(event["n"] or event["m"]) or 0)  # 3号日程不去了
    if match and any(word in match["what"] for word in STRONG_UNDO):
        return Undo()  # 刚才记错了 不要: the last record, not a task titled 刚才记错
    if match and _is_title(match["what"]):
        what = _CANCEL_REASON.split(match["what"])[0]
        what = _INTERJECTION.sub("", what.strip())  # 算了 回访客户那个不做了
        what = _CANCEL_TITLE_END.split(what)[0].strip().removesuffix(LE)  # …了 名额满了
        return CancelTask(
            ref=task_ref(what or match["what"].strip(), CANCEL_KEYWORD)
        )  # 不用去接女儿了,…
    return None


def _is_title(said: str) -> bool:
    """A task title, not a question or a number (`都搞定` has no title)."""
    said = said.strip()
    if said in TASK_PRONOUNS:
        return False
    return bool(said) and not any(q in said for q in NOT_A_TITLE_CHARS)


def read_lone_number(text: str) -> Command | None:
    """`72.4` / `35` / `七十二点四`: asked, with the likelier reading as the guess.

    A value with decimals in 20-300 looks like a weight; anything else like money.
    """
    match = _LONE_NUMBER.fullmatch(text)
    if match is None:
        return None
    value = number_value(match["n"])
    if value is None:
        return None
    if value != value.to_integral_value() and 20 <= value <= 300:
        return Confirm(guess=RecordWeight(kg=check_weight(value, jin=False)))
    guess = money.guess_expense(value)
    return None if guess is None else Confirm(guess=guess)


_RECORD_LEADS = sorted(RECORD_LEADS, key=len, reverse=True)


def to_do_after_lead(rest: str) -> str | None:
    """`要买猫粮 明天` after `帮我记一下`: the task it says, as `待办 买猫粮 明天`; None
    when it is not that (a number is said: a record's, read elsewhere)."""
    lead = next((word for word in TODO_AFTER_RECORD_LEADS if rest.startswith(word)), None)
    said = rest[len(lead) :].strip() if lead else ""
    if len(said) < 2 or any(ch.isdigit() for ch in said):
        return None
    return f"{TASK_KEYWORD} {said}"


def glasses_after_lead(rest: str) -> Command | None:
    """`一杯` after `记` (`记一杯`): that many glasses of water; None otherwise."""
    match = _GLASSES_ONLY.fullmatch(rest.strip())
    count = small_int(match["n"]) if match is not None else None
    return CheckInWater(glasses=count) if count else None


_GLASSES_ONLY = re.compile(GLASSES_ONLY_PATTERN)


def strip_record_lead(text: str) -> str | None:
    """`记一下 晚饭 48` / `帮我记 称了 70.1`: what follows the lead, or None."""
    for lead in _RECORD_LEADS:
        if text.startswith(lead) and len(text) > len(lead):
            return text[len(lead) :].lstrip(" :,")
    if text.startswith(RECORD_VERB) and not text.startswith(NOT_RECORD_VERB, len(RECORD_VERB)):
        return text[len(RECORD_VERB) :].lstrip(" :,") or None  # 记两杯水, 记 72.4
    return None
