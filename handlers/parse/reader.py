"""Chinese message text -> one `Command`, a `Confirm` question, or `ParseError`.

The parser is pure and total: no I/O, no clock (the caller passes `today`), and for
any string at all it returns a Command or raises ParseError, never anything else.

How a message is read, in order:
1. Over 2000 characters: refused before any other work.
2. Full-width characters become ASCII (`７２．４` -> `72.4`, `72。4` -> `72.4`); then
   `tidy` opens a leading 【】 label and drops trailing particles, punctuation, emoji.
3. Whole-message words (`今天`, `本周`, `任务`, `撤销`, `帮助`, `不` ...) -> a view or
   action; then a calendar subscription asked for in any words (`日历订阅`).
4. A leading command keyword (`体重`, `记账`, `任务`, `日程` ...) -> that keyword's
   reader, given the rest of the message. When it cannot read the rest, the strict
   natural readers get a chance (`日程有啥`, `体重是 70.1`) before its error is answered.
5. A record lead (`帮我记`, `记一下`) is dropped and the rest read from step 2.
6. The natural readers (`handlers.parse.natural`): questions, settings and changes in
   words, reminders in sentences, water, weight, task state, money in free order, a
   dated line, a lone number; the last four may answer with a `Confirm` question.
7. Anything else -> ParseError with a short answer (`texts.miss`, at most 3 lines).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from handlers import texts
from handlers.commands import (
    LOOKS,
    RECORDS,
    SHORTENED_OK,
    Command,
    CompleteTask,
    Confirm,
    Dismiss,
    ParseError,
    TaskRef,
    Undo,
)
from handlers.parse import intents, natural
from handlers.parse import slots as found_slots
from handlers.parse.admin import parse_admin
from handlers.parse.body import Body
from handlers.parse.calendar_feed import read_calendar_feed
from handlers.parse.channels import read_channels
from handlers.parse.cues import HOW_HINT, only_turn_off
from handlers.parse.lexicon import (
    DONE_WORDS,
    ENGLISH_SWITCHES,
    LOOK_LEADS,
    NOT_REMARK_TAILS,
    SPOKEN_FILLERS,
    STATE_VERBS,
    THANKS_WORDS,
)
from handlers.parse.normalise import (
    corrected,
    has_correction_word,
    has_frame_word,
    normalise,
    remark_clause,
    strip_separators,
    tidy,
    unspaced,
    with_clean_titles,
    without_frame,
)
from handlers.parse.patterns import (
    ADMIN_KEYWORDS,
    BA,
    BUDGET_KEYWORDS,
    CANCEL_BUDGET_KEYWORDS,
    CANCEL_EVENT_KEYWORDS,
    CANCEL_KEYWORDS,
    COMPLETE_KEYWORDS,
    DATE_WEEKDAY_NOTE_PATTERN,
    DELETE_KEYWORDS,
    DONE_SUFFIX,
    EDIT_EVENT_KEYWORDS,
    END_OF_MESSAGE_MARKS,
    ENGLISH_SWITCH_PATTERN,
    EVENT_KEYWORDS,
    FORMAL_AT_PATTERN,
    FORMAL_BA,
    GOAL_WEIGHT_KEYWORDS,
    JOURNAL_KEYWORDS,
    LE,
    LIST_ITEM_PATTERN,
    LOOK_LEAD_TAIL,
    PLEASE,
    POSTPONE_KEYWORDS,
    QUIET_KEYWORDS,
    REMARK_TAIL_PATTERN,
    REMINDER_KEYWORDS,
    SETTING_KEYWORDS,
    TAIL_MARKS,
    TASK_KEYWORDS,
    THAT,
    TIMED_RECORD_PATTERN,
    WATER_KEYWORDS,
    WATER_WORD,
    WEIGHT_KEYWORDS,
)
from handlers.parse.records import (
    LEDGER_DIRECTIONS,
    parse_journal,
    parse_ledger,
    parse_water,
    parse_weight_body,
)
from handlers.parse.review import parse_budget, parse_cancel_budget, parse_goal_weight
from handlers.parse.settings import (
    SWITCHES,
    parse_delete,
    parse_quiet,
    parse_reminder,
    parse_setting,
    parse_switch,
)
from handlers.parse.tasks import (
    parse_cancel,
    parse_cancel_event,
    parse_complete,
    parse_edit_event,
    parse_event,
    parse_postpone,
    parse_task,
)
from handlers.parse.views import MENU_KEYS, WHOLE_MESSAGES

MAX_LENGTH = 2000
_CHECK_MARKS = ("✅", "✔", "✔️", "☑", "☑️")

KEYWORDS: dict[str, Callable[[Body], Command | None]] = {
    # A reader returns None when the words are not its own (`取消晨报` is a setting
    # switched off, not a task): the intent families read them then.
    # Longer keywords first: `取消日程 2` is not `取消` (a task) + "日程 2".
    **dict.fromkeys(CANCEL_EVENT_KEYWORDS, parse_cancel_event),
    **dict.fromkeys(CANCEL_BUDGET_KEYWORDS, parse_cancel_budget),
    **dict.fromkeys(GOAL_WEIGHT_KEYWORDS, parse_goal_weight),
    **dict.fromkeys(BUDGET_KEYWORDS, parse_budget),
    **dict.fromkeys(EDIT_EVENT_KEYWORDS, parse_edit_event),
    **dict.fromkeys(POSTPONE_KEYWORDS, parse_postpone),
    **dict.fromkeys(QUIET_KEYWORDS, parse_quiet),
    **dict.fromkeys(DELETE_KEYWORDS, parse_delete),
    **dict.fromkeys(REMINDER_KEYWORDS, parse_reminder),
    **dict.fromkeys(WEIGHT_KEYWORDS, parse_weight_body),
    **dict.fromkeys(WATER_KEYWORDS, parse_water),
    **dict.fromkeys(LEDGER_DIRECTIONS, parse_ledger),
    **dict.fromkeys(TASK_KEYWORDS, parse_task),
    **dict.fromkeys(COMPLETE_KEYWORDS, parse_complete),
    **dict.fromkeys(CANCEL_KEYWORDS, parse_cancel),
    **dict.fromkeys(EVENT_KEYWORDS, parse_event),
    **dict.fromkeys(JOURNAL_KEYWORDS, parse_journal),
    **dict.fromkeys(SWITCHES, parse_switch),
    **dict.fromkeys(SETTING_KEYWORDS, parse_setting),
    **dict.fromkeys(ADMIN_KEYWORDS, parse_admin),
}


_KEYWORD = re.compile("|".join(map(re.escape, KEYWORDS)))
"""The keywords in `KEYWORDS` order (longer first), so `取消日程` wins over `取消`."""


def parse(text: str, *, today: dt.date, now_local: dt.datetime | None = None) -> Command:
    """Read one message. Returns a Command (maybe a `Confirm`) or raises ParseError.

    `today` is the user's local date; relative days (明天, 周五, 1号) resolve against
    it. `now_local` is the user's naive wall-clock time (for `提醒 30分钟后 ...` and
    `免打扰 到 8:00`); without it the day is taken to start now (00:00 of `today`).
    ParseError.message is the Chinese reply saying how to write it instead.
    """
    text = _LIST_ITEM.sub("", text, count=1)  # 1. 请添加待办：…: one request of a list
    text = _DATE_WEEKDAY_NOTE.sub("", text)  # 12月20日（周日）: the date says the day
    text = unspaced(text)  # 去 银行 取 钱: typed a character at a time
    try:
        return with_clean_titles(_read(text, today=today, now_local=now_local))
    except ParseError as error:
        for again in _read_again(text):
            try:
                return with_clean_titles(_read(again, today=today, now_local=now_local))
            except ParseError:
                continue
        head = without_remark_tail(text) or _without_remark_clauses(text)
        command = _said_with_remark(text, head, today, now_local) if head else None
        if command is None:
            command = _said_after_remark(text, today, now_local)
        if command is None:
            raise error from None
    return with_clean_titles(command)


def _said_with_remark(
    text: str, head: str, today: dt.date, now_local: dt.datetime | None
) -> Command | None:
    """`免打扰到中午12点 在考试`: the command of `head`, when it is only a setting or a
    task's state and the remark after it is no command of its own; else None."""
    try:
        command = _read(head, today=today, now_local=now_local)
    except ParseError:
        return None
    if not isinstance(command, SHORTENED_OK) or _reads(text[len(head) :], today, now_local):
        return None  # only a setting, and only with a remark: not two things
    return command


def _said_after_remark(text: str, today: dt.date, now_local: dt.datetime | None) -> Command | None:
    """`网页打不开了 再发个链接`: a remark first, then the request in the last clause.
    Read only after the whole message was refused, and kept only for a look (a view, a
    link, help, a channel test: nothing written) or 撤销 (`刚才那杯水记多了，撤回`: it
    takes back, never adds) when the words before it start with no command word and are
    no command (`删除 提醒` stays refused)."""
    normal = normalise(text).rstrip(TAIL_MARKS + " ")
    cut = max(normal.rfind(","), normal.rfind(" "))
    if cut <= 0 or _KEYWORD.match(normal.strip()) is not None:
        return None
    last = text[cut + 1 :].strip()
    try:
        command = _read(last, today=today, now_local=now_local)
    except ParseError:
        return None
    head = text[:cut]
    if any(ch.isdigit() for ch in head) or found_slots.read(head, today).when_found:
        return None  # 周日中午十二点到两点 包场 帮俺记一下日程: the head said what to keep
    if not isinstance(command, (*LOOKS, Undo)) or _reads(head, today, now_local):
        return None
    return command


def _read_again(text: str) -> list[str]:
    """Other ways to read a message that was refused, each tried in turn: said twice
        (`知道了知道了`), after a spoken filler with no pause (`那个四十五分钟后提醒我…`),
        with an English switch word at its end (`晚报 off`), without a pointing 那个 inside
        (`喝水提醒那个每隔一个钟头…`), without a formal 于 before a time (`请于本周五…`),
    without a last clause that only repeats a turn-off (`买羽绒服不用了，取消吧`). A message already understood
        is never read again, so none of these can change what it meant."""
    normal = tidy(normalise(text))
    again = []
    if (said_twice := _REPEATED.fullmatch(normal)) is not None:
        again.append(said_twice["once"])
    if (filler := next((f for f in SPOKEN_FILLERS if normal.startswith(f)), None)) is not None:
        again.append(normal[len(filler) :])
    if (switch := _ENGLISH_SWITCH.search(normal)) is not None:
        again.append(normal[: switch.start()] + ENGLISH_SWITCHES[switch["word"].casefold()])
    if THAT in normal:  # 喝水提醒那个每隔一个钟头…: 那个 points, says nothing
        again.append(" ".join(normal.replace(THAT, " ").split()))
    if (formal := _FORMAL_AT.sub("", normal)) != normal:  # 请于本周五下午四点…
        again.append(formal)
    head, _, last = normal.rstrip(" ,").rpartition(",")
    if not head:
        head, _, last = normal.strip().rpartition(" ")
    if head.strip() and only_turn_off(last):  # 买羽绒服不用了，取消吧: said twice
        again.append(head)
    asked = normal.removeprefix(PLEASE)
    if asked.startswith(FORMAL_BA):  # 请将作息时间设置为…: 把
        again.append(BA + asked[len(FORMAL_BA) :])
    return [said for said in again if said.strip()]


def _said_done(loose: str) -> bool:
    """`2 done ✅`: a done word already said before the check mark."""
    said = loose.casefold()
    return any(word in said for word in _DONE_SAID)


_DONE_SAID = tuple({*DONE_WORDS, *(word for word, verb in STATE_VERBS.items() if verb == "done")})
"""The words that already say a task is done (a check mark after them adds nothing)."""
_FORMAL_AT = re.compile(FORMAL_AT_PATTERN)
_ENGLISH_SWITCH = re.compile(ENGLISH_SWITCH_PATTERN, re.IGNORECASE)
_TAIL = re.compile(REMARK_TAIL_PATTERN)


def _without_remark_clauses(text: str) -> str | None:
    """`周报改成周日晚上九点发吧，那会儿孩子睡了我才有空看`: the message without the
    remark clauses said last (after a comma, no number, a sentence of their own), or
    None. Like a short remark's, read only after a refusal, and kept only for a
    setting or a task's state (never a record: `停车费一个月要400，太离谱了`)."""
    clauses = normalise(text).split(",")  # the same length as text
    kept = len(clauses)
    while kept > 1 and remark_clause(clauses[kept - 1]):
        kept -= 1
    if kept == len(clauses):
        return None
    return ",".join(clauses[:kept])


def _reads(tail: str, today: dt.date, now_local: dt.datetime | None) -> bool:
    """Whether `tail` alone is a command (`快递取了，房租也交了`: two things said)."""
    try:
        said = _read(tail.strip(TAIL_MARKS), today=today, now_local=now_local)
    except ParseError:
        return False
    return not isinstance(said, Dismiss)  # 解绑wxpusher 不用了: a no-word is a remark


def without_remark_tail(text: str) -> str | None:
    """`免打扰到中午12点 在考试`, `解绑wxpusher 不用了`: the message without a short
    remark after its last separator (no digits, not a unit), or None when there is
    none. Read only after the whole message was refused."""
    match = _TAIL.search(text)
    if match is None or not text[: match.start()].strip():
        return None
    tail = normalise(match["tail"]).casefold()
    if tail.startswith(NOT_REMARK_TAILS):
        return None  # 体重 72.4 磅: the unit is part of what was said
    return text[: match.start()]


def _read(text: str, *, today: dt.date, now_local: dt.datetime | None) -> Command:
    local = now_local if now_local is not None else dt.datetime.combine(today, dt.time())
    if len(text) > MAX_LENGTH:
        raise ParseError(texts.TOO_LONG)
    normal = normalise(text)
    clean = tidy(normal)
    if clean.casefold() in THANKS_WORDS:
        return Dismiss(thanked=True)  # 谢了, 👌好的谢谢: nothing to do
    framed = has_frame_word(normal)
    if framed and (feed := read_calendar_feed(clean)) is not None:
        return feed  # 手机日历能订阅日程吗？给我个链接: the question names what is asked for
    if framed or has_correction_word(normal):  # most messages have neither: normalised once
        text = corrected(without_frame(text, normal) if framed else text)
        normal = normalise(text)
        clean = tidy(normal)
    whole = normal.strip().rstrip(END_OF_MESSAGE_MARKS).strip()
    if not whole:
        raise ParseError(texts.EMPTY_MESSAGE)
    if make := WHOLE_MESSAGES.get(whole.casefold()):
        return make()
    around = WHOLE_MESSAGES.get(_after_look(clean)) or WHOLE_MESSAGES.get(_before_look(clean))
    if make := WHOLE_MESSAGES.get(clean.casefold()) or around:
        return make()  # 显示管理状态, 管理状态查询: a look word around a whole-message command
    if (feed := read_calendar_feed(clean)) is not None:
        return feed  # 我想在手机日历里看日程: before 日程 and 提醒 are read as keywords
    if (looked := _looked_command(clean, today, local)) is not None:
        return looked  # 显示一下管理状态
    if (channel_command := read_channels(clean)) is not None:
        return channel_command  # 设置 渠道 / 备用, 绑定, 解绑: before the 设置 reader
    if (checked := _NUMBER_CHECKED.match(normal.strip())) is not None:
        return CompleteTask(ref=TaskRef(number=int(checked["n"])))  # 5 ✔ 发票整理完了
    loose = tidy(normal, drop_le=True)
    if (timed := _TIMED_RECORD.match(clean)) is not None:  # 07:10 体重 74.05: when it was taken
        clean, loose = clean[timed.end() :], tidy(loose[timed.end() :], drop_le=True)
    done_mark = normal.rstrip().endswith(_CHECK_MARKS) and WATER_WORD not in loose  # 又一杯水 ✅
    if done_mark and loose and not clean.endswith(LE) and not _said_done(loose):
        loose += DONE_SUFFIX  # `2 ✅`: the check mark is the word
    context = Body("", clean, text, today, local)
    if HOW_HINT.search(clean) and (asked := intents.help_asked(clean, context)) is not None:
        return asked  # 待办怎么用: a question about a feature, before its keyword's reader
    first_error: ParseError | None = None
    for candidate in (clean, loose):
        try:
            command = read_keyword(candidate, context, normal_raw=normal)
        except ParseError as error:
            first_error = first_error or error
            continue
        if command is not None:
            return command
    if first_error is None and (rest := natural.strip_record_lead(loose)):
        raw_rest = natural.strip_record_lead(text.strip())  # 帮我记一下日记，…: as typed
        try:
            return _read(raw_rest or rest, today=today, now_local=local)  # `帮我记 晚饭 48`
        except ParseError as error:
            try:
                return natural.read(loose, context, fallback=None)  # 记一个日程 …: a marker
            except ParseError:
                if (glasses := natural.glasses_after_lead(rest)) is not None:
                    return glasses  # 记一杯
                if (todo := natural.to_do_after_lead(rest)) is not None:
                    return _read(todo, today=today, now_local=local)  # 帮我记一下要买猫粮
                raise error from None
    return natural.read(loose, context, fallback=first_error)


def read_keyword(normal: str, context: Body, *, normal_raw: str | None = None) -> Command | None:
    """The command of a leading keyword in `normal`; None when there is none.

    The keyword's reader gets the rest tidied; `raw` is the original text after the
    keyword (the journal keeps what was typed, decoration and all). `normal_raw`: the
    raw text already normalised, when the caller has it (not normalised twice).
    """
    start = len(normal) - len(normal.lstrip())
    found = _KEYWORD.match(normal, start)
    if found is None:
        return None
    keyword = found[0]
    body_text = strip_separators(normal[found.end() :].rstrip())
    at = (normalise(context.raw) if normal_raw is None else normal_raw).find(keyword)
    raw_body = context.raw[at + len(keyword) :].strip()
    body = Body(keyword, body_text, raw_body, context.today, context.now_local)
    return KEYWORDS[keyword](body)


def parse_event_key(key: str, *, today: dt.date) -> Command:
    """A WeCom menu click key: an English alias (`today`, `water` ...) or command text."""
    if make := MENU_KEYS.get(key.strip().casefold()):
        return make()
    return parse(key, today=today)


_REPEATED = re.compile(r"(?P<once>\S.{0,5}?\S)(?:[\s,]*(?P=once)){1,3}")
"""A short answer said two to four times (`知道了知道了`): read once."""
_NUMBER_CHECKED = re.compile(
    r"(?P<n>[1-9][0-9]{0,2})\s*(?:" + "|".join(sorted(_CHECK_MARKS, key=len, reverse=True)) + ")"
)
"""A task's number ticked first, whatever follows (`5 ✔ 发票整理完了`)."""
_TIMED_RECORD = re.compile(TIMED_RECORD_PATTERN)
_LIST_ITEM = re.compile(LIST_ITEM_PATTERN)
_DATE_WEEKDAY_NOTE = re.compile(DATE_WEEKDAY_NOTE_PATTERN)
_LOOK_WORDS = "|".join(sorted(map(re.escape, LOOK_LEADS), key=len, reverse=True))
_LOOK_LEAD = re.compile(f"^(?:{_LOOK_WORDS}{LOOK_LEAD_TAIL}")


def _after_look(text: str) -> str:
    """`显示一下管理状态` -> `管理状态`: the words after a leading look word ('' if none)."""
    match = _LOOK_LEAD.match(text)
    return text[match.end() :].strip().casefold() if match else ""


def _before_look(text: str) -> str:
    """`管理状态查询` -> `管理状态`: the words before a trailing look word ('' if none)."""
    match = _LOOK_TAIL.search(text)
    return text[: match.start()].strip().casefold() if match else ""


_LOOK_TAIL = re.compile(f"(?:{_LOOK_WORDS})\\s*$")


def _looked_command(text: str, today: dt.date, local: dt.datetime) -> Command | None:
    """The view or status a look word asks for (`显示管理状态`: `管理状态`), read
    as if said alone; None unless that reading is a command that writes nothing."""
    rest = _after_look(text) or _before_look(text)  # 查询管理状态, 管理状态查询
    if not rest or _KEYWORD.match(rest) is None:
        return None
    try:
        command = read_keyword(rest, Body("", rest, rest, today, local))
    except ParseError:
        return None
    return None if command is None or isinstance(command, (*RECORDS, Confirm)) else command
