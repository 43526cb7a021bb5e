"""The intent cues of a message: which of the lexicon's cue words it holds (issue 19).

`read` looks every cue table of `lexicon` up once and returns a frozen `Cues`; the
intent families in `intents` decide from it. Nothing here decides what a message
means: a cue only says that a word is there (and, for markers and titles, where).
"""

from __future__ import annotations

import datetime as dt
import re

from handlers import texts
from handlers.commands import DigestKind
from handlers.parse.lazy import lazy
from handlers.parse.lexicon import (
    AHEAD_BEFORE,
    ANSWER_LE_PARTICLES,
    BUDGET_CUES,
    CALLED_OFF_WORDS,
    CHANNEL_CUES,
    CHANNEL_TARGETS,
    CLAUSE_THING_DROPS,
    COUNT_ONE,
    DISMISS_WORDS,
    DONE_PAST_VERBS,
    EVENT_MARKERS,
    EVENT_NOUNS,
    EVENT_OFF_WORDS,
    EVENT_PLACES,
    EXCLAMATIONS,
    EXPENSE_SYNONYMS,
    EXPORT_WORDS,
    FALLBACK_CUES,
    FEATURE_NOUNS,
    GIVE_WORDS,
    GOAL_CUES,
    HELP_CUES,
    HOW_ASKS,
    HOW_DOINGS,
    HOW_WORDS,
    IDENTITY_WORDS,
    INTERJECTIONS,
    LOOK_WORDS,
    MARKER_COUNTS,
    MARKER_ENDS,
    MARKER_LINKS,
    MARKER_PLACE_LEADS,
    MARKER_PLACE_LINKS,
    MARKER_VERBS,
    MAY_WORDS,
    MONEY_NOUNS,
    NAG_ANSWER_TAILS,
    NAG_ANSWERS,
    NAG_STOP_ANSWER,
    NAG_STOP_TAILS,
    OTHER_PEOPLE,
    PAGE_WORDS,
    PAST_WORDS,
    PERIOD_TIMES,
    PERSON_OBJECT_VERBS,
    POLITE_LEADS,
    QUESTION_CUES,
    QUIET_WORDS,
    REMARK_WORDS,
    REMIND_WORDS,
    REMINDER_NOUNS,
    SAID_AGAIN_PARTICLES,
    SCOPE_WORDS,
    SNOOZE_CUES,
    SNOOZE_PHRASES,
    STATE_VERBS,
    STRONG_UNDO,
    TASK_MARKERS,
    TASK_PLACES,
    THING_NAMERS,
    THING_WEIGHT,
    TURN_OFF_WORDS,
    TURN_ON_WORDS,
    UNDO_CUES,
    UNDO_FILLER,
    UNDO_NOT_WITH,
    UNDO_VERBS,
    VIEW_FILLER_WORDS,
    VIEW_NOUNS,
    WATER_NOUNS,
    WEIGHT_CUES,
    WORK_VERBS,
)
from handlers.parse.money import category_of
from handlers.parse.numbers import small_int
from handlers.parse.patterns import (
    ALREADY_WORD,
    CANCEL_REST_PATTERN,
    CN_COUNT_CHARS,
    COMPARE_WORDS,
    DAY_LEADS,
    DOER_TAILS,
    DONE_ANY_VERB_PATTERN,
    DONE_PAST_PATTERN,
    DONE_REST_PATTERN,
    EVENT_TITLE_TAILS,
    EVENT_WORD,
    FINISHED_PATTERN,
    GENERIC_VERBS,
    LAST_ONE_PATTERN,
    LE,
    LEAD_SIGH_PATTERN,
    ME,
    MONTH_SAID_PATTERN,
    MY_WORDS,
    NAMED_PATTERN,
    NEGATED_SEND,
    NOT_NEEDED_LEADS,
    NOT_NEEDED_PATTERN,
    NOT_NEEDED_TAILS,
    OF,
    OTHER_LIST_NAMES,
    PAGE_FILLER,
    PAUSE_SPAN_PATTERN,
    REVIEW_TAIL_PATTERN,
    SAID_WORD,
    SCHEDULE_WORDS_PATTERN,
    SEE_LIST_EXTRA,
    SERVERCHAN_NAME,
    TAKE_WORD,
    TASK_NAMES,
    TASK_SAID_NUMBER_PATTERN,
    THAT,
    THING_FINISHED_TAIL_PATTERN,
    THING_TAILS,
    TITLE_EDGE_MARKS,
    TITLE_FILLER,
    TITLE_NOISE_PATTERN,
    TODAY_CANNOT_PATTERN,
    UNDO_VERB_WORDS,
    VERB_BASE,
    VERB_ENDS,
    WEEK_LEADS,
    WEEK_WORD,
    WEEKDAY_CHARS,
    WEEKDAY_TIME_PATTERN,
    WEIGHT_CHAR,
    WEIGHT_WORD,
    YEAR_SAID_PATTERN,
)
from handlers.parse.when import match_time
from storage.vocabulary import RuleKind

BUDGET_ONE_AMOUNT = texts.BUDGET_HINT
BUDGET_WHICH = texts.BUDGET_CATEGORY_UNKNOWN
BUDGET_RANGE = texts.BUDGET_OUT_OF_RANGE


_PATTERNS: dict[int, re.Pattern[str]] = {}


def _pattern(words: object) -> re.Pattern[str]:
    """One alternation of a cue table, longest words first, compiled once per table:
    a table's words are looked up in one pass, in C, not one `in` each."""
    key = id(words)
    found = _PATTERNS.get(key)
    if found is None:
        ordered = sorted(set(words), key=len, reverse=True)  # type: ignore[call-overload]
        lettered = any(ch.isascii() and ch.isalpha() for word in ordered for ch in word)
        flags = re.IGNORECASE if lettered else 0  # case-folding costs sre its fast first look
        found = re.compile("|".join(map(re.escape, ordered)) or "(?!)", flags)
        _PATTERNS[key] = found
    return found


def _longest(text: str, words: object) -> str | None:
    """The longest word of `words` inside `text` (case-folded), or None."""
    best: str | None = None
    for match in _pattern(words).finditer(text):
        said = match[0].casefold()
        if best is None or len(said) > len(best):
            best = said
    return best


def _any(text: str, words: object) -> bool:
    """Whether a word of `words` is inside `text`."""
    return _pattern(words).search(text) is not None


_PAUSE_SPAN = re.compile(PAUSE_SPAN_PATTERN)
_TODAY_CANNOT = re.compile(TODAY_CANNOT_PATTERN)
_THING_FINISHED_TAIL = re.compile(THING_FINISHED_TAIL_PATTERN)


def _remark(text: str) -> bool:
    """A remark word, or a thing's weight (`行李箱重量`; 体重量了一下 is mine)."""
    things_weight = THING_WEIGHT in text.replace(WEIGHT_CHAR + THING_WEIGHT, "")
    return _any(text, REMARK_WORDS) or things_weight


def _turn_word(text: str, table: object) -> str | None:
    """The longest turn word of `table` in `text`; a one-character word (关 开 停 删
    别) counts only where it stands as a verb: last, or before 了 掉 吧 一下 ... (not
    the 开 of 开会 or the 关 of 关火)."""
    best: str | None = None
    pattern = _pattern(table)
    match = pattern.search(text)
    while match is not None:  # every start, overlapping ones too (先停几天: 停几天)
        at = match.start()
        for word in _prefixes(table, text, at, len(match[0])):
            after = text[at + len(word) : at + len(word) + 1]
            alone = len(word) > 1 or not after or after in VERB_ENDS or not after.isalnum()
            alone = alone or _counted_feature(text, at + len(word))  # 开个喝水提醒
            alone = alone or _PAUSE_SPAN.match(text, at + len(word)) is not None  # 停三天
            if alone and (best is None or len(word) > len(best)):
                best = word
                break
        match = pattern.search(text, at + 1)
    return best


def _counted_feature(text: str, at: int) -> bool:
    """Whether a count word, then a feature, follows `at` (`开个喝水提醒`: 开 is a verb)."""
    count = next((word for word in COUNT_ONE if text.startswith(word, at)), None)
    return count is not None and _pattern(FEATURE_NOUNS).match(text, at + len(count)) is not None


def _prefixes(table: object, text: str, at: int, longest: int) -> list[str]:
    """The words of `table` that start at `at`, longest first."""
    said = text[at : at + longest]
    return [said[:n] for n in range(longest, 0, -1) if said[:n] in table]  # type: ignore[operator]


def _nearest(text: str, table: object, anchor: str | None) -> str | None:
    """The word of `table` said nearest the turn word (`不要晚报了 早报留着`: 晚报),
    else the longest one."""
    if anchor is None or anchor not in text:
        return _longest(text, table)
    at = text.find(anchor)
    found = [(abs(m.start() - at), -len(m[0]), m[0]) for m in _pattern(table).finditer(text)]
    return min(found)[2] if found else None


def _composed(places: tuple[str, ...]) -> re.Pattern[str]:
    def one_of(words: tuple[str, ...]) -> str:
        return "|".join(map(re.escape, words))

    verb, link, count = one_of(MARKER_VERBS), one_of(MARKER_LINKS), one_of(MARKER_COUNTS)
    place, end = one_of(places), one_of(MARKER_ENDS)
    return re.compile(
        f"(?:{verb})(?:{link})?(?:{count})?(?:{place})(?:{end})?"
        f"|(?:{one_of(MARKER_PLACE_LEADS)})(?:{place})(?:{end})?(?:{verb})(?:{one_of(MARKER_PLACE_LINKS)})?"
        f"(?:{count})?",  # 在日程里加一个
        re.IGNORECASE,
    )


_EVENT_MARKER = _composed(EVENT_PLACES)
_TASK_MARKER = _composed(TASK_PLACES)


def _marker(text: str, listed: object, composed: re.Pattern[str]) -> str | None:
    """The longest explicit marker in `text`: one of the listed ones, or one composed
    of the lexicon's marker parts (`记成待办`, `加到日历里`)."""
    best = _longest(text, listed)
    for match in composed.finditer(text):
        said = match[0].casefold()
        if best is None or len(said) > len(best):
            best = said
    return best


class Cues:
    """Which cue words a message holds (None / False: none of that table), each
    looked up only when a family asks for it (most families stop at their first cue)."""

    def __init__(self, text: str) -> None:
        self.text = text

    @lazy
    def _view_word(self) -> str | None:
        return _longest(self.text, VIEW_NOUNS)

    @lazy
    def _scope_word(self) -> str | None:
        return _longest(self.text, SCOPE_WORDS)

    @lazy
    def _turn_words(self) -> tuple[str | None, str | None]:
        off_word = _turn_word(self.text, TURN_OFF_WORDS)
        on_word = _turn_word(self.text, TURN_ON_WORDS)
        if off_word and on_word and (off_word in on_word or on_word in off_word):
            on_word = None if len(off_word) >= len(on_word) else on_word
            off_word = None if on_word else off_word
        return off_word, on_word

    @lazy
    def _feature_word(self) -> str | None:
        off_word, on_word = self._turn_words
        return _nearest(self.text, FEATURE_NOUNS, off_word or on_word)

    @lazy
    def event_marker(self) -> str | None:
        return _marker(self.text, EVENT_MARKERS, _EVENT_MARKER)

    @lazy
    def task_marker(self) -> str | None:
        return _marker(self.text, TASK_MARKERS, _TASK_MARKER)

    @lazy
    def question(self) -> bool:
        return _any(self.text, QUESTION_CUES)

    @lazy
    def look(self) -> bool:
        return _any(self.text, LOOK_WORDS)

    @lazy
    def mine(self) -> bool:
        return any(word in self.text for word in MY_WORDS)

    @lazy
    def give(self) -> bool:
        return _any(self.text, GIVE_WORDS)

    @lazy
    def remind(self) -> bool:
        return _any(self.text, REMIND_WORDS)

    @lazy
    def view_noun(self) -> str | None:
        return VIEW_NOUNS[self._view_word] if self._view_word else None

    @lazy
    def view_word(self) -> str | None:
        return self._view_word

    @lazy
    def views_named(self) -> frozenset[str]:
        """Every list named (`待办和日程`: both tasks and events)."""
        return frozenset(noun for word, noun in VIEW_NOUNS.items() if word in self.text)

    @lazy
    def scope(self) -> str | None:
        return SCOPE_WORDS[self._scope_word] if self._scope_word else None

    @lazy
    def money_noun(self) -> bool:
        return _any(self.text, MONEY_NOUNS)

    @lazy
    def water_noun(self) -> bool:
        return _any(self.text, WATER_NOUNS)

    @lazy
    def turn_off(self) -> str | None:
        return TURN_OFF_WORDS[self._turn_words[0]] if self._turn_words[0] else None

    @lazy
    def turn_off_word(self) -> str | None:
        return self._turn_words[0]

    @lazy
    def turn_on(self) -> str | None:
        return TURN_ON_WORDS[self._turn_words[1]] if self._turn_words[1] else None

    @lazy
    def feature(self) -> str | None:
        return FEATURE_NOUNS[self._feature_word] if self._feature_word else None

    @lazy
    def reminder_word(self) -> str | None:
        return _longest(self.text, REMINDER_NOUNS)

    @lazy
    def event_word(self) -> str | None:
        return _longest(self.text, EVENT_NOUNS)

    @lazy
    def budget(self) -> bool:
        return _any(self.text, BUDGET_CUES)

    @lazy
    def goal(self) -> bool:
        return _any(self.text, GOAL_CUES)

    @lazy
    def weightish(self) -> bool:
        return _any(self.text, WEIGHT_CUES) or WEIGHT_WORD in self.text

    @lazy
    def remark(self) -> bool:
        return _remark(self.text)

    @lazy
    def remark_not_exclaimed(self) -> bool:
        """A remark word other than an exclamation (`离谱` alone only exclaims)."""
        said = self.text
        for word in EXCLAMATIONS:
            said = said.replace(word, " ")
        return _remark(said)

    @lazy
    def other_person(self) -> bool:
        return _someone_elses(self.text)

    @lazy
    def other_drinker(self) -> bool:
        return _someone_elses(self.text, taken_ok=True)

    @lazy
    def identity(self) -> bool:
        return _longest(self.text, IDENTITY_WORDS) is not None

    @lazy
    def export(self) -> bool:
        return _any(self.text, EXPORT_WORDS)

    @lazy
    def page(self) -> bool:
        return _any(self.text, PAGE_WORDS)

    @lazy
    def quiet(self) -> bool:
        return _any(self.text, QUIET_WORDS)

    @lazy
    def done_title(self) -> str | None:
        return _done_title(self.text)

    @lazy
    def past(self) -> bool:
        return _past(self.text)

    @lazy
    def turn_on_word(self) -> str | None:
        return self._turn_words[1]

    @lazy
    def undo(self) -> bool:
        return _undo(self.text)

    @lazy
    def help(self) -> bool:
        return _any(self.text, HELP_CUES)

    @lazy
    def how(self) -> str | None:
        listed = _longest(self.text, HOW_WORDS)
        composed = _HOW.search(self.text)
        if composed is not None and (listed is None or len(composed[0]) > len(listed)):
            return composed[0]
        return listed

    @lazy
    def nag_answer(self) -> str | None:
        return _nag_answer(self.text)

    @lazy
    def snooze(self) -> bool:
        return _any(self.text, SNOOZE_PHRASES)

    @lazy
    def snooze_word(self) -> bool:
        return _any(self.text, SNOOZE_CUES)

    @lazy
    def fallback(self) -> bool:
        return _any(self.text, FALLBACK_CUES)

    @lazy
    def channel(self) -> bool:
        return _any(self.text, CHANNEL_CUES)

    @lazy
    def turn_off_before_target(self) -> bool:
        return _off_first(self.text)

    @lazy
    def task_state(self) -> str | None:
        if state := _longest(self.text, STATE_VERBS):
            return STATE_VERBS[state]
        task_said = any(word in self.text for word in TASK_PLACES)
        if task_said and _FINISHED.search(self.text) and self.task_number is not None:
            return "done"  # 第7个待办 发完货了: a verb and 完, last, about a numbered task
        return None

    @lazy
    def task_number(self) -> int | None:
        return _task_number(self.text)


def overlapping(cues: Cues) -> bool:
    """The view word shares characters with the span word (`本周总结`: 本周 and 周总结):
    the span was meant."""
    view, scope = cues.view_word, cues._scope_word
    if not view or not scope:
        return False
    at_view, at_scope = cues.text.find(view), cues.text.find(scope)
    return at_scope <= at_view < at_scope + len(scope)


def read(text: str) -> Cues:
    """The cues of `text` (normalised and tidied), each read when first asked for."""
    return Cues(text)


_DONE_PAST = re.compile(  # the thing alone names the task: 快递 finds 取快递 and 拿快递
    DONE_PAST_PATTERN
)


_DONE_ANY_VERB = re.compile(DONE_ANY_VERB_PATTERN)


def _done_title(text: str) -> str | None:
    """`快递取了` -> `取快递`: the task's usual title, verb first (the handler also
    tries the thing alone, so `取快递` finds a task called 拿快递)."""
    match = _DONE_PAST.fullmatch(text)
    if _any(text, QUESTION_CUES):
        return None
    finished = _DONE_ANY_VERB.fullmatch(text)  # 报价单发过去了, 材料提交上去了
    if finished is not None and (match is None or finished.start("verb") < match.start("verb")):
        thing = _without_doer(finished["thing"])
        if finished["verb"] in GENERIC_VERBS:
            for tail in THING_TAILS:  # 回电话这件事我已经办好了: 回电话
                thing = thing.removesuffix(tail)
            return thing  # 交材料做完了: the thing is the task
        if finished["verb"] in thing.strip():
            return thing.strip()  # 给客户打电话 打完了: the thing says its verb already
        return finished["verb"] + thing  # 发报价单 (the handler also tries 报价单)
    if match is None:
        return None
    verb = VERB_BASE.get(match["verb"], match["verb"])
    thing = said = _THING_FINISHED_TAIL.sub("", _without_doer(match["thing"]))  # 实训报告写完交了
    for tail in THING_TAILS:
        thing = thing.removesuffix(tail)
    if verb in GENERIC_VERBS or thing != said or verb in thing.strip():
        return thing.strip()  # 续签合同的事办完了, 还书 已经还了: the thing is the task
    return verb + thing


def thing_done(said: str) -> str:
    """`回电话这件事我已经` -> `回电话`: the thing said before a done verb, without who
    did it, how soon, and the words that call it the task."""
    thing = _without_doer(said.strip())
    for tail in THING_TAILS:
        thing = thing.removesuffix(tail)
    return thing or said.strip()


def _without_doer(thing: str) -> str:
    """`回电话这件事我已经` -> `回电话这件事` (never down to nothing)."""
    while (
        shorter := next((thing.removesuffix(t) for t in DOER_TAILS if thing.endswith(t)), thing)
    ) != thing and shorter:
        thing = shorter
    return thing


_DONE_PAST_LONGEST = sorted({*DONE_PAST_VERBS, *WORK_VERBS}, key=len, reverse=True)


def done_thing(title: str) -> str | None:
    """`取快递` -> `快递`: a done title without its verb, to find a task said another way."""
    for verb in _DONE_PAST_LONGEST:
        if title.startswith(verb) and len(title) > len(verb):
            return title[len(verb) :]
    return None


_VIEW_FILLER = sorted(
    {
        *SCOPE_WORDS,
        *QUESTION_CUES,
        *LOOK_WORDS,
        *MONEY_NOUNS,
        *WATER_NOUNS,
        *VIEW_NOUNS,
        *VIEW_FILLER_WORDS,
    },
    key=len,
    reverse=True,
)
_MONEY_FILLER = sorted({*_VIEW_FILLER, *EXPENSE_SYNONYMS}, key=len, reverse=True)
_VIEW_FILLER_RE = re.compile("|".join(map(re.escape, _VIEW_FILLER)))
_MONEY_FILLER_RE = re.compile("|".join(map(re.escape, _MONEY_FILLER)))


def only_view_words(text: str) -> bool:
    """`这个月的账`, `今年怎么样`, `今天喝了几杯水`: nothing but a span, question and
    look words and the names of what is shown (not `今天吃啥`); with money said, a
    category too (`这个月饭钱花了多少`)."""
    money = _any(text, MONEY_NOUNS)
    rest = (_MONEY_FILLER_RE if money else _VIEW_FILLER_RE).sub("", text)
    return not rest.strip(" ,")


def _someone_elses(text: str, *, taken_ok: bool = False) -> bool:
    """`我妈体重55`, `女儿今天体检称了二十三公斤`: another person's number, said after
    them with no 我 between; `老婆说我胖了，上秤一看 81kg` is the user's own.

    `taken_ok` (water only): a person right after 送/接/带 was taken somewhere, not who
    drank (`送完娃回来灌了一大杯水`); for a weight they are who was weighed."""
    for person in OTHER_PEOPLE:
        at = text.find(person)
        if at < 0 or text.startswith(SAID_WORD, at + len(person)):
            continue
        if taken_ok and at and text[at - 1] in PERSON_OBJECT_VERBS:
            continue
        after = text[at + len(person) :]
        digit = next(
            (i for i, ch in enumerate(after) if ch.isdigit() or ch in CN_COUNT_CHARS),
            -1,
        )
        if digit >= 0 and ME not in after[:digit]:
            return True
    return False


def _past(text: str) -> bool:
    """A fact of another time (`去年体重80`), not a comparison (`比昨天轻了点`) nor a
    day still to come (`过年前要瘦下来`)."""
    for ahead in AHEAD_BEFORE:
        text = text.replace(ahead, " ")
    for word in PAST_WORDS:
        at = text.find(word)
        if at >= 0 and not any(word in text[max(0, at - 4) : at] for word in COMPARE_WORDS):
            return True
    return False


_UNDO_ALONE = sorted({*STRONG_UNDO, *UNDO_FILLER}, key=len, reverse=True)


_FINISHED = re.compile(FINISHED_PATTERN)
_HOW = re.compile(f"(?:{'|'.join(HOW_ASKS)})(?:{'|'.join(HOW_DOINGS)})")
HOW_HINT = re.compile(f"{_HOW.pattern}|{'|'.join(map(re.escape, HOW_WORDS))}")
"""A how-to question's words, listed or composed (`怎样添加`, `咋用`)."""
_LAST_ONE = re.compile(LAST_ONE_PATTERN)


def _undo(text: str) -> bool:
    if text.casefold().startswith("undo") or text.startswith(UNDO_VERB_WORDS):
        return True
    listed = any(noun in text for noun in UNDO_NOT_WITH)  # 最后一个待办删了: not undo
    last = not listed and (any(w in text for w in UNDO_CUES) or _LAST_ONE.search(text))
    if last and any(v in text for v in UNDO_VERBS):
        return True
    if not _any(text, STRONG_UNDO):
        return False
    rest = text  # 记错了 撤销一下, 哎呀发错了 撤回撤回: nothing but undo words
    for word in _UNDO_ALONE:
        rest = rest.replace(word, "")
    return not rest.strip(" ,!")


_NAG_ANSWERS_LONGEST = sorted(NAG_ANSWERS, key=len, reverse=True)
_INTERJECTIONS_LONGEST = sorted({*INTERJECTIONS, *NAG_ANSWERS}, key=len, reverse=True)
"""What may come before a nag's answer word: interjections, or the answer again
(`知道了知道了 别催了`)."""


def _nag_answer(text: str) -> str | None:
    """`好嘞知道了`, `收到收到`, `晓得了`: interjections, then an answer word, nothing else
    (`…别催了` after it says the same)."""
    if not _any(text, NAG_ANSWERS) and not _any(text, NAG_STOP_TAILS):
        return None
    said = text.casefold().replace(" ", "")
    for particle in ANSWER_LE_PARTICLES:
        said = said.replace(particle, LE)  # 知道啦: 知道了
    stopped = False
    for tail in NAG_ANSWER_TAILS:
        before, said = said, said.rstrip(",.!").removesuffix(tail).rstrip(",.!")
        stopped = stopped or (said != before.rstrip(",.!") and tail in NAG_STOP_TAILS)
    if stopped and all(part in INTERJECTIONS for part in _split_interjections(said)):
        return NAG_STOP_ANSWER  # 好的好的别催了, 别催了: the nag is answered
    for answer in _NAG_ANSWERS_LONGEST:
        if said.endswith(answer):
            lead = said[: -len(answer)].strip(" ,")
            parts = _split_interjections(lead)
            if not lead or all(part in INTERJECTIONS or part in NAG_ANSWERS for part in parts):
                said_first = next((part for part in parts if part in NAG_ANSWERS), None)
                return said_first or answer  # 知道了知道了: the answer as first said
    return None


def _split_interjections(lead: str) -> list[str]:
    parts: list[str] = []
    while lead:
        word = next((w for w in _INTERJECTIONS_LONGEST if lead.startswith(w)), None)
        if word is None:
            return ["?"]
        parts.append(word)
        lead = lead[len(word) :].lstrip(" ,")
    return parts


_CHANNEL_NAMES = sorted(CHANNEL_TARGETS, key=len, reverse=True)
_KEY = re.compile(r"(?:SCT|sctp)[A-Za-z0-9]{8,80}|UID_[A-Za-z0-9_-]{4,60}")


def channel_target(text: str, *, negated_too: bool = False) -> str | None:
    """The channel a message sends reminders to: the first name not after 别/不要
    (`negated_too`: any name, for 不要wxpusher了 解绑吧)."""
    folded = text.casefold()
    best: tuple[int, str] | None = None
    for name in _CHANNEL_NAMES:
        at = folded.find(name)
        while at >= 0:
            negated = folded[max(0, at - 3) : at].endswith(NEGATED_SEND)
            covered = best is not None and best[0] <= at < best[0] + len(best[1])
            if (negated_too or not negated) and not covered and (best is None or at < best[0]):
                best = (at, name)
            at = folded.find(name, at + 1)
    return best[1] if best else None


def channel_key(text: str) -> str | None:
    """A SendKey or a WxPusher UID written in the message, with its channel's name."""
    match = _KEY.search(text)
    if match is None:
        return None
    key = match[0]
    return f"WxPusher {key}" if key.startswith("UID_") else f"{SERVERCHAN_NAME} {key}"


def _off_first(text: str) -> bool:
    """`别发企业微信了` alone: an off word before the only channel named."""
    target = channel_target(text)
    return target is None


_TASK_NUMBER = re.compile(
    TASK_SAID_NUMBER_PATTERN,
    re.IGNORECASE,
)


def _task_number(text: str) -> int | None:
    match = _TASK_NUMBER.search(text)
    if match is None:
        return None
    named = any(word in text.casefold() for word in TASK_NAMES)
    if match["c"] and not named and any(word in text for word in OTHER_LIST_NAMES):
        return None  # 删掉第5个提醒: a reminder's number, not a task's
    return small_int(match["a"] or match["b"] or match["c"])


def without_polite_tail(text: str) -> str:
    """`下周三去交燃气费，帮我` -> `下周三去交燃气费`: a polite word left before a marker."""
    for lead in POLITE_LEADS:
        if text.endswith(lead):
            return text[: -len(lead)].rstrip(" ,")
    return text


_MONTH = re.compile(MONTH_SAID_PATTERN)


def this_month(text: str, today: dt.date) -> bool:
    """`12月开销` on a December day: the month named is this one, and nothing but
    view words is said besides."""
    match = _MONTH.match(text)
    if match is None or small_int(match["m"]) != today.month:
        return False
    return only_view_words(text[match.end() :])


_YEAR = re.compile(YEAR_SAID_PATTERN)


def this_year(text: str, today: dt.date) -> bool:
    """`2026年过得怎么样，总结一下` in 2026: this year's summary asked for."""
    match = _YEAR.match(text)
    if match is None or int(match["y"]) != today.year:
        return False
    rest = text[match.end() :].replace(",", "")
    return bool(rest) and only_view_words(rest)


_SEE_LIST_WORDS = sorted(
    {*LOOK_WORDS, *QUESTION_CUES, *SEE_LIST_EXTRA},
    key=len,
    reverse=True,
)


def asks_to_see(rest: str) -> bool:
    """What follows a keyword only asks to see its list (`待办清单发我`, `还有啥`)."""
    said = rest
    for word in _SEE_LIST_WORDS:
        said = said.replace(word, "")
    return rest.strip() != "" and not said.strip(" ,")


_DISMISS_LONGEST = sorted(DISMISS_WORDS, key=len, reverse=True)


def asks(text: str) -> bool:
    """Whether `text` asks something (`我还有哪些事项尚未完成？`, `取快递了吗`): the
    question cues of every reader."""
    return _any(text, QUESTION_CUES)


def only_turn_off(clause: str) -> bool:
    """`取消吧`, `删了吧`: a clause that is nothing but a turn-off word (it repeats
    what the clause before it said: `买羽绒服不用了，取消吧`)."""
    said = clause.strip(" ,").strip(SAID_AGAIN_PARTICLES)
    return bool(said) and (said in TURN_OFF_WORDS or said in EVENT_OFF_WORDS)


def only_dismissal(text: str) -> bool:
    """`算了算了 不记了`: nothing but no-words."""
    rest = text
    for word in _DISMISS_LONGEST:
        rest = rest.replace(word, "")
    return rest != text and not rest.strip(" ,")


def without_polite(text: str) -> str:
    """`帮我加个待办，…` -> `加个待办，…`: the polite words that lead a request."""
    for lead in POLITE_LEADS:
        if text.startswith(lead):
            return text[len(lead) :].lstrip(" ,")
    return text


def digest_kind(feature: str) -> DigestKind:
    """The digest a feature key names."""
    if feature == RuleKind.DIGEST_MORNING:
        return RuleKind.DIGEST_MORNING
    return RuleKind.DIGEST_EVENING


def category_in(text: str) -> str | None:
    """The expense category a word of `text` names (`吃饭` -> 餐饮), or None."""
    word, category = category_of(text)
    return category if word is not None else None


_TITLE_NOISE = re.compile(TITLE_NOISE_PATTERN)
_NAMED = re.compile(NAMED_PATTERN)


_TURN_PHRASES = [
    turn
    for turn in sorted({*TURN_OFF_WORDS, *TURN_ON_WORDS}, key=len, reverse=True)
    if len(turn) > 1
]
"""The turn words of more than one character, longest first (a title never holds them)."""


def title_before(text: str, word: str, verb: str | None) -> str | None:
    """`把吃药那个提醒删了` -> `吃药`, `提醒吃药的那个删掉` -> `吃药`: the words that
    name the thing, when the message marks them as a name (那个, 的)."""
    named = _NAMED.search(text) is not None
    said = text.split(",")[0] if "," in text and word in text.split(",")[0] else text
    said = _without_turn(said, verb) if verb else said
    said = _PAUSE_SPAN.sub(" ", said) if verb else said  # 先暂停两周: how long, no title
    for turn in _TURN_PHRASES:
        said = said.replace(turn, " ")
    at = said.find(word)
    before, after = _clean_title(said[:at]), _clean_title(said[at + len(word) :])
    if before and not after:
        return before  # 护肤提醒不要了, 把吃药那个提醒删了
    if after and not before and named:
        return after  # 提醒吃药的那个删掉
    return None


_TURN_LONG = sorted((w for w in {*TURN_OFF_WORDS, *TURN_ON_WORDS} if len(w) > 1), key=len)[::-1]


def _without_turn(said: str, verb: str) -> str:
    """`said` without the turn word and any turn word overlapping it (`先停掉…`:
    先停 and 停掉), so no half of one is left in the title."""
    at = said.find(verb)
    if at < 0:
        return said
    start, end = at, at + len(verb)
    for word in _TURN_LONG:
        found = said.find(word, max(0, start - len(word) + 1))
        if 0 <= found < end and found + len(word) > start:
            start, end = min(start, found), max(end, found + len(word))
    return f"{said[:start]} {said[end:]}"


_SCHEDULE_WORDS = re.compile(SCHEDULE_WORDS_PATTERN)


def _clean_title(part: str) -> str:
    part = _SCHEDULE_WORDS.sub("", part).strip()  # 每天叫我起床的提醒: the rule is 起床
    for _ in range(3):
        for filler in TITLE_FILLER:
            part = part.replace(filler, "")
        part = _TITLE_NOISE.sub("", part.strip()).strip()
    if not part or any(ch.isdigit() for ch in part) or len(part) > 12:
        return ""
    return part


def event_title(text: str, cues: Cues) -> str | None:
    """`明天的会取消了` -> `会`: the event word or what precedes the cancel word."""
    off = cues.turn_off_word or ""
    before = text[: text.find(off)] if off in text else text
    if off and not before.strip(TITLE_EDGE_MARKS):  # 删掉练车的日程: the title follows the verb
        before = text[text.find(off) + len(off) :].strip()
        before = before.removeprefix(EVENT_WORD).strip()  # 取消日程 复诊
        if len(before) < 2:
            return None
    for day in DAY_LEADS:
        if before.startswith(day):
            weekday = before[len(day) : len(day) + 1]
            if day == WEEK_WORD and (not weekday or weekday not in WEEKDAY_CHARS):
                break  # 周会不开了: 周 is part of the title
            before = before[len(day) :]
            if day in WEEK_LEADS and weekday and weekday in WEEKDAY_CHARS:
                before = before[1:]
            break
    before = before.split(",")[0]  # 年会那个不去了，日程删掉
    said = _TITLE_NOISE.sub("", before.lstrip(OF).strip()).strip()
    said = said.removeprefix(OF).strip()
    for tail in EVENT_TITLE_TAILS:
        said = said.removesuffix(tail).strip()
    return said or cues.event_word


_PERIOD_FIRST = re.compile("|".join(sorted(PERIOD_TIMES, key=len, reverse=True)))
_REVIEW_TAIL = re.compile(REVIEW_TAIL_PATTERN)
"""What may follow the time of `周报改到周六早上九点发`, `每周日晚上八点半发周报给我`."""
_WEEKDAY_TIME = re.compile(WEEKDAY_TIME_PATTERN)


def time_in(text: str) -> dt.time | None:
    """The first clock time said anywhere in `text` (`改到七点发`)."""
    for at in range(len(text)):
        try:
            found = match_time(text, at)
        except Exception:
            return None
        if found is not None:
            return found.time
    return None


def weekday_time(text: str) -> tuple[str, dt.time] | None:
    """`周报改到周六早上九点` -> ("六", 09:00)."""
    match = _WEEKDAY_TIME.search(text)
    if match is None:
        return None
    rest = match["rest"].strip()
    found = match_time(rest)
    if found is None and (period := _PERIOD_FIRST.match(rest)) is not None:
        tail = _REVIEW_TAIL.sub("", rest[period.end() :])
        return (match["wd"], PERIOD_TIMES[period[0]]) if not tail else None  # 周一早上发周报
    tail = _REVIEW_TAIL.sub("", rest[found.end :]) if found is not None else ""
    if found is None or tail:
        return None
    return match["wd"], found.time


__all__ = ["Cues", "read"]


_NAMER = re.compile("|".join(map(re.escape, sorted(THING_NAMERS, key=len, reverse=True))))
_STATE_WORDS = sorted(STATE_VERBS, key=len, reverse=True)
_DONE_REST = re.compile(DONE_REST_PATTERN)
_CANCEL_REST = re.compile(CANCEL_REST_PATTERN)


_LEAD_SIGH = re.compile(LEAD_SIGH_PATTERN)


def named_thing(text: str) -> tuple[str, str] | None:
    """(thing, state) of `报表那件事不用做了` (`报表`, `cancel`); None when no namer
    stands between a thing and words that say it was done, dropped or put off."""
    match = _NAMER.search(text)
    if match is None:
        return None
    thing = text[: match.start()].strip(" ,").removeprefix(TAKE_WORD).removeprefix(THAT).strip()
    thing = _LEAD_SIGH.sub("", thing)  # 算了 回访客户那个不做了
    thing = _TODAY_CANNOT.sub("", thing).strip() or thing  # 今天忙不过来 拿体检报告的事…
    for lead in NOT_NEEDED_LEADS:  # 不用去银行了 那个待办取消吧
        if thing.startswith(lead) and len(thing) > len(lead) + 1:
            thing = thing[len(lead) :].removesuffix(LE).strip()
            break
    rest = text[match.end() :].strip(" ,").removeprefix(ME).removeprefix(ALREADY_WORD).strip()
    rest = next((rest.removeprefix(w) for w in MAY_WORDS if rest.startswith(w)), rest)
    for tail in NOT_NEEDED_TAILS:
        if thing.endswith(tail) and len(thing) > len(tail) + 1:
            thing = thing.removesuffix(tail).strip(" ,")  # 买菜不用了 那个待办删了
            break
    happened = thing.endswith(LE) and len(thing) > 2 and not _any(thing, NOT_NEEDED_LEADS)
    happened = happened and not _any(thing, CALLED_OFF_WORDS)  # 会议取消了，那个待办删了
    if happened:
        thing = _clause_thing(thing)  # 春游钱今天已经交给老师了，那个待办可以划掉了
    if not thing or not rest or len(thing) > 16 or _any(thing, QUESTION_CUES):
        return None
    if read(thing).feature is not None:
        return None  # 卡片那个关掉: a setting switched, not a task
    first = rest.split(",")[0].split()[0] if rest.split(",")[0].split() else rest
    state = next((STATE_VERBS[w] for w in _STATE_WORDS if first.startswith(w)), None)
    if state is None and _CANCEL_REST.fullmatch(first):
        state = "cancel"
    if state is None and _DONE_REST.fullmatch(first):
        state = "done"
    if happened and state == "cancel":
        state = "done"  # 房租交了 那条待办可以删了: it happened, so it is done
    return (thing, state) if state is not None else None


def _clause_thing(clause: str) -> str:
    """`老大的春游钱今天已经交给老师了` -> `春游钱`: a past clause told before a task's
    namer, down to its thing (after the last 的, before its first doing verb)."""
    thing = clause.removesuffix(LE)
    for word in CLAUSE_THING_DROPS:
        thing = thing.replace(word, "")
    thing = thing.rsplit(OF, 1)[-1]
    at = min((i for v in DONE_PAST_VERBS if (i := thing.find(v, 2)) > 0), default=-1)
    return thing[:at] if at > 0 else thing


_PAGE_WORDS_RE = re.compile(
    "|".join(map(re.escape, sorted({*PAGE_WORDS, *PAGE_FILLER}, key=len)[::-1]))
)


def only_page_words(text: str) -> bool:
    """`网页链接`, `web 链接`: nothing but the names of the pages (asked for)."""
    return not _PAGE_WORDS_RE.sub("", text.casefold()).strip(" ,")


_NOT_NEEDED = re.compile(NOT_NEEDED_PATTERN)


def not_needed(text: str) -> str | None:
    """`奶粉不用买了` -> `买奶粉`: a task no longer needed, named verb first (the
    handler also tries the thing alone)."""
    match = _NOT_NEEDED.fullmatch(text)
    if match is None:
        return None
    thing, verb = match["thing"] or match["thing_"], match["verb"] or match["verb_"]
    if verb in GENERIC_VERBS:
        return str(thing)  # 交电费不用做了: the thing is the task
    return verb + thing
