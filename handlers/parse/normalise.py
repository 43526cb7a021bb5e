"""Making typed text comparable: width, look-alikes, separators, decoration.

Two levels, both pure:
- `normalise` maps one character to one character (full-width ASCII, ideographic
  space, dashes, the yuan sign), so an index into its result is an index into the
  original (the journal keeps the original).
- `tidy` removes what carries no meaning for a command: leading 【】 / [] labels are
  opened (`【记账】35 午饭` -> `记账 35 午饭`), trailing punctuation, emoji, and the
  particles 吧 呢 啊 哈 呀 哦 嘛 啦 are dropped. `drop_le` also drops a trailing 了
  (`取快递搞定了`), used by the natural readers only: a keyword command's title keeps it.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import Any, TypeVar

from handlers.parse.lexicon import (
    CLAUSE_CUES,
    CORRECTION_WORDS,
    DIALECT,
    DIALECT_BEFORE_TIME,
    ENGLISH_WORDS,
    FEATURE_QUESTION_MARKERS,
    FILLER_SOUNDS,
    PLEASE_BEFORE,
    PLEASE_NOT_AFTER,
    POLITE_FRAME_LEADS,
    POLITE_FRAME_TAILS,
    POLITE_PLEASE_KEEPS,
    QUESTION_PREFIXES,
    SPOKEN_FILLERS,
    TRAILING_WORDS,
    TYPO_PAIRS,
)
from handlers.parse.patterns import (
    BA_DONE_TITLE_PATTERN,
    BA_VERB_TITLE_PATTERN,
    BEFORE_TIME,
    BU_LE,
    CORRECTED_IS,
    DECIMAL_DOT_PATTERN,
    END_MARKS_PATTERN,
    FEATURE_QUESTION_MARK_PATTERN,
    FRAME_HINT_MARKS,
    IF_SO_WORDS,
    JOURNAL_KEYWORDS,
    JOURNAL_LEADS,
    JOURNAL_WORD,
    LE,
    LE_WORDS,
    LEAD_LABEL_PATTERN,
    MOSQUITO,
    MOSQUITO_YUAN_PATTERN,
    OF,
    PLEASE,
    PLEASE_ASK,
    PROGRESSIVE_PATTERN,
    RECORD_ASK_TAIL_PATTERN,
    REF_WHEN_TAIL_PATTERN,
    SEPARATOR_CHARS,
    SLANG_TAIL_PATTERN,
    TITLE_EMPTY_EDGES_PATTERN,
    TITLE_END_MARKS,
    TRAIL_PARTICLES,
    TRAIL_PUNCT,
    WATER_EMOJI_AS,
    WATER_EMOJI_PATTERN,
    WORD_SPLIT_PATTERN,
    YUAN,
)

_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_LOOK_ALIKES = {
    0x3000: " ",  # ideographic space
    0x00A0: " ",  # no-break space
    0xFFE5: "¥",  # full-width yen/yuan sign
    0x2014: "-",  # em dash, often typed for a range
    0x2013: "-",  # en dash
    0x2212: "-",  # minus sign
    0x301C: "~",  # wave dash
}
_TRANSLATION: dict[int, int | str] = {**_FULL_WIDTH, **_LOOK_ALIKES}

_DECIMAL_DOT = re.compile(DECIMAL_DOT_PATTERN)
_LEAD_LABEL = re.compile(LEAD_LABEL_PATTERN)
_WORD_SPLIT = re.compile(WORD_SPLIT_PATTERN)


def normalise(text: str) -> str:
    """Full-width digits, letters and punctuation to ASCII, a `。` typed between
    digits to a decimal point (`72。4`), and the homophones an input method gives
    (`明天在说`); the result has the same length as `text`."""
    normal = _DECIMAL_DOT.sub(".", text.translate(_TRANSLATION))
    if _SAID_OTHERWISE.search(normal) is not None:  # rare: one search, then the words
        normal = _SAID_OTHERWISE.sub(lambda m: _MEANT[m[0]], normal)
        normal = _MOSQUITO_YUAN.sub(YUAN, normal)
    if _WATER_EMOJI.search(normal) is not None:  # 又喝了一杯💧, 💧+1 (喝水💧 decorates)
        normal = _WATER_EMOJI.sub(lambda m: m[0][:-1] + WATER_EMOJI_AS, normal, count=1)
    if _LETTER.search(normal) is not None:  # `cancel 4`: padded to the same length
        normal = _ENGLISH.sub(lambda m: ENGLISH_WORDS[m[0].lower()].ljust(len(m[0])), normal)
    return normal


def _said_otherwise() -> tuple[re.Pattern[str], dict[str, str]]:
    meant = {**TYPO_PAIRS, **DIALECT}
    words = sorted(meant, key=len, reverse=True)
    before_time = "|".join(f"{re.escape(word)}{BEFORE_TIME}" for word in DIALECT_BEFORE_TIME)
    pattern = "|".join(map(re.escape, words)) + f"|{before_time}|{MOSQUITO_YUAN_PATTERN}"
    return re.compile(pattern), {**meant, **DIALECT_BEFORE_TIME}


_ENGLISH = re.compile(
    rf"(?<![A-Za-z])(?:{'|'.join(sorted(ENGLISH_WORDS, key=len, reverse=True))})(?![A-Za-z])",
    re.IGNORECASE,
)
"""English command words as whole words (searched only in a message with letters)."""
_LETTER = re.compile("[A-Za-z]")


_MOSQUITO_YUAN = re.compile(MOSQUITO_YUAN_PATTERN)
_WATER_EMOJI = re.compile(WATER_EMOJI_PATTERN)
"""三十五蚊: Cantonese 蚊 for 块, only after a number (蚊子 stays a mosquito)."""
_SAID_OTHERWISE, _MEANT = _said_otherwise()


def _hints() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """One pattern for every word that may start or end a frame (a message with none
    of them is kept as it is, at the cost of one search), and one for corrections."""
    words = sorted({*POLITE_FRAME_LEADS, *POLITE_FRAME_TAILS, *SPOKEN_FILLERS}, key=len)[::-1]
    frame = re.compile("|".join(map(re.escape, words)) + FRAME_HINT_MARKS)
    fixes = re.compile("|".join(f" {re.escape(w)} " for w in CORRECTION_WORDS))
    return frame, fixes


_FRAME_HINT, _CORRECTION_HINT = _hints()
_RECORD_ASK_TAIL = re.compile(RECORD_ASK_TAIL_PATTERN)
_SLANG_TAIL = re.compile(SLANG_TAIL_PATTERN, re.IGNORECASE)
_MEANT = {**_MEANT, MOSQUITO: MOSQUITO}  # the lookbehind's 蚊 is replaced by _MOSQUITO_YUAN


_INNER_PLEASE = re.compile(
    f"(?<![{''.join(PLEASE_NOT_AFTER)}]){PLEASE}(?=(?:{'|'.join(map(re.escape, PLEASE_BEFORE))}))"
)
"""A polite 请 inside a request (`每周六上午九点请提醒我…`, `…，请帮我记到待办`)."""

_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])")


def compact(text: str) -> str:
    """`今年 过的 咋样` -> `今年过的咋样`: the spaces some people type between words
    (only between two Chinese characters; `喝水 +2` keeps its)."""
    return _CJK_SPACE.sub("", text)


def unspaced(text: str) -> str:
    """`去 银行 取 钱` -> `去银行取钱`: a message typed a word or a character at a time
    (two or more lone Chinese characters between spaces, or one among four or more
    words), read without the spaces between Chinese characters. Other messages, and
    a journal (kept as typed), are returned as they are."""
    said = text.split()
    lone = [
        word
        for word in said
        if len(word) == 1 and _CJK_CHAR.match(word) and word not in FILLER_SOUNDS
    ]  # 体重 那个 嗯 六十九点八: a filler alone is a pause, not a character typed apart
    apart = len(lone) >= 2 or (lone and (len(said) >= 4 or lone[-1] == said[-1] == LE))
    if not apart:
        return text  # 知道 了: the 了 typed apart counts too
    joined = compact(text)
    if any(word in joined[:8] for word in JOURNAL_KEYWORDS):
        return text  # 记 日记 今天 去 公园: a journal keeps what was typed
    return joined


_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")


def is_separator(char: str) -> bool:
    """Whitespace or the light punctuation people put between words (`,` `;` `:` `、`)."""
    return char.isspace() or char in SEPARATOR_CHARS


def strip_separators(text: str) -> str:
    """`text` without leading and trailing separators (linear time, no regex)."""
    start, end = 0, len(text)
    while start < end and is_separator(text[start]):
        start += 1
    while end > start and is_separator(text[end - 1]):
        end -= 1
    return text[start:end]


def words(text: str) -> list[str]:
    """`text` split on separators, without empty words."""
    return [word for word in _WORD_SPLIT.split(text) if word]


def has_frame_word(normal: str) -> bool:
    """Whether a normalised message holds a word a frame could be made of (one
    search; `without_frame` is needed only then)."""
    return _FRAME_HINT.search(normal) is not None


def has_correction_word(normal: str) -> bool:
    """Whether a normalised message holds a correction word (`corrected` is needed
    only then)."""
    return _CORRECTION_HINT.search(normal) is not None


def without_frame(text: str, normal: str | None = None) -> str:
    """`text` as typed without the politeness around a request (`麻烦`, `请问`,
    `…，帮我记一下好吗`, `谢谢啦`); the rest is kept exactly (a journal keeps it).
    A message that is nothing but politeness is returned whole.

    `normal`: `normalise(text)`, when the caller has it and `has_frame_word(normal)`
    is already known to be true (neither is then done again)."""
    if normal is None:
        normal = normalise(text)
        if not has_frame_word(normal):
            return text  # most messages: no frame word anywhere, nothing to take off
    start, end = 0, len(normal)
    asked = _feature_question(normal)
    prefix = ""
    if asked is not None:
        start, prefix = asked  # 有没有定时提醒的功能？有的话请…: the request after the question
    in_run = False  # a filler right after a dropped one goes too (那个就是明天…)
    for _ in range(4):
        before = (start, end)
        for filler in SPOKEN_FILLERS:  # 嗯就是…, 对了，, 嗯那个就是…
            after = start + len(filler)
            paused = after < end and (
                normal[after] in " ,.…"
                or filler in FILLER_SOUNDS
                or in_run
                or normal.startswith(SPOKEN_FILLERS, after)
            )
            if normal.startswith(filler, start) and paused:
                in_run = True
                start = after
                while start < end and normal[start] in " ,.…":
                    start += 1
                break
        for lead in POLITE_FRAME_LEADS:
            if normal.startswith(lead, start) and end - start > len(lead):
                start += len(lead)
                while start < end and (normal[start].isspace() or normal[start] in ",:"):
                    start += 1
                break
        please = normal.startswith(PLEASE, start) and not normal.startswith(
            POLITE_PLEASE_KEEPS, start
        )
        if please and not normal.startswith(PLEASE_ASK, start) and end - start > 1:
            start += 1  # 请把晨报改到…, but 请假 stays
        if JOURNAL_WORD in normal[start : start + 8]:
            break  # a journal keeps every word it was given (…团队辛苦了)
        trimmed = end  # trailing punctuation goes only with a polite tail behind it
        while trimmed > start and (
            normal[trimmed - 1] in TRAIL_PUNCT + TRAIL_PARTICLES
            or is_decoration(normal[trimmed - 1])
        ):
            trimmed -= 1
        for tail in POLITE_FRAME_TAILS:
            if normal.endswith(tail, start, trimmed) and trimmed - start > len(tail):
                end = trimmed - len(tail)
                break
        for said_last in (_RECORD_ASK_TAIL, _SLANG_TAIL):  # 钢琴课 1800，你给我记一下; …待办 冲
            said = said_last.search(normal, start, trimmed)
            if said is not None and start < said.start() < end:
                end = said.start()
        if end != before[1]:
            while end > start and normal[end - 1] in TRAIL_PUNCT:
                end -= 1
        if (start, end) == before:
            break
    if JOURNAL_WORD in normal[start : start + 8]:
        return text[start:end].strip() if (start, end) != (0, len(normal)) else text
    if (start, end) == (0, len(normal)):
        return _INNER_PLEASE.sub("", text)
    kept = _INNER_PLEASE.sub("", text[start:end].strip())
    if not kept:
        return text
    return f"{prefix} {kept}" if prefix and not kept.startswith(prefix) else kept


_QUESTION_MARK = re.compile(FEATURE_QUESTION_MARK_PATTERN)
_END_MARKS = re.compile(END_MARKS_PATTERN)


def _feature_question(normal: str) -> tuple[int, str] | None:
    """Where the request starts after a question about a feature (`有晚报这个功能吗？
    请帮我打开`); None when the message is not that shape. A marker said in the
    question (`能不能帮我记日程？周日…`) is kept by the caller's reading of the rest."""
    mark = _QUESTION_MARK.search(normal)
    if mark is None or mark.end() >= len(_END_MARKS.sub("", normal)):
        return None
    question = normal[: mark.start()]
    if not any(word in question for word in FEATURE_QUESTION_MARKERS) or len(question) > 24:
        return None
    start = mark.end()
    while start < len(normal) and normal[start] in " ,":
        start += 1
    for lead in IF_SO_WORDS:
        if normal.startswith(lead, start):
            start += len(lead)
    named = [word for word in QUESTION_PREFIXES if word in question]
    prefix = QUESTION_PREFIXES[max(named, key=len)] if named else ""
    return start, prefix


def corrected(text: str) -> str:
    """`外卖 三十五 哦不对 是三十九` -> `外卖 三十九`, `20分钟后 不对 半小时后 提醒我关火`
    -> `半小时后 提醒我关火`: a value corrected in the same message replaces the word said
    just before the correction (words apart by spaces only; a journal is kept as typed)."""
    if text.lstrip().startswith(JOURNAL_LEADS) or not _CORRECTION_HINT.search(text):
        return text
    for word in CORRECTION_WORDS:
        at = text.find(f" {word} ")
        if at < 0:
            continue
        left = text[:at].split()
        right = text[at + len(word) + 2 :].strip().removeprefix(CORRECTED_IS).strip().split()
        if len(left) >= 1 and right:
            return " ".join([*left[:-1], right[0], *right[1:]])
    return text


_DECORATION = re.compile("[\U0001f000-\U0010ffff\u2600-\u27bf\ufe00-\ufe0f\u200d\u2b50\u2764]")
"""The characters `is_decoration` accepts, for one search over a whole text."""


def is_decoration(char: str) -> bool:
    """Emoji, symbols and variation selectors: never part of a command's meaning."""
    code = ord(char)
    return (
        code >= 0x1F000
        or 0x2600 <= code <= 0x27BF
        or 0xFE00 <= code <= 0xFE0F
        or code in (0x200D, 0x2B50, 0x2764, 0x203C, 0x2049)  # ‼ ⁉ said for emphasis
        or (code > 0x7F and unicodedata.category(char) == "So")  # ⏰ ★ ™: any other symbol
    )


_TRAILING = TRAIL_PUNCT + TRAIL_PARTICLES
_TRAILING_LE = _TRAILING + LE


def tidy(text: str, *, drop_le: bool = False) -> str:
    """`text` (already normalised) without labels, trailing particles and emoji.

    Always returns a string (possibly empty); never raises.
    """
    text = _LEAD_LABEL.sub(lambda m: f"{m[1]} " if m[1] else "", text, count=1)
    end = len(text)
    trailing = _TRAILING_LE if drop_le else _TRAILING
    while end > 0 and (text[end - 1] in trailing or is_decoration(text[end - 1])):
        if text[end - 2 : end] == BU_LE:
            break  # 去不了(了), 来不了: 了 is part of the word
        end -= 1
    start = 0
    while start < end and (text[start].isspace() or is_decoration(text[start])):
        start += 1
    kept = text[start:end]
    head, _, last = kept.rpartition(" ")
    if head.rstrip().endswith(LE_WORDS) and last.casefold() in TRAILING_WORDS:  # 交了 ok
        return tidy(head, drop_le=drop_le)
    if _DECORATION.search(kept):  # 3 ✔️ 弄好了: a symbol inside says nothing
        kept = " ".join(_DECORATION.sub(" ", kept).split())
    return kept


_C = TypeVar("_C")
_TITLE_FIELDS = ("title", "title_ref")


def remark_clause(part: str) -> bool:
    """Whether a clause said after a request only comments on it (`体育课要用`,
    `因为老师说没带就不让参加`, `那天他们提前放学`): no number, and a word that makes a
    sentence of it (a list item such as `鸡蛋` has none)."""
    return not any(ch.isdigit() for ch in part) and any(cue in part for cue in CLAUSE_CUES)


def clean_title(title: str) -> str:
    """A title as it is kept: no emoji or symbols (`看演唱会 🎤`), no punctuation at
    its ends (`起床!!!`), single spaces, and no remark clause after a comma (`去学校接
    孩子，那天他们提前放学`). A title of nothing but those stays as it was."""
    head, comma, tail = title.partition(",")
    if comma and head.strip() and remark_clause(tail):
        title = head
    head, space, tail = title.rstrip().rpartition(" ")
    if space and head.strip() and _PROGRESSIVE.search(tail) and remark_clause(tail):
        title = head  # 关火 炖着汤呢: what is going on, not the thing to do
    kept = "".join(" " if is_decoration(char) else char for char in title)
    kept = " ".join(kept.split()).strip(TITLE_END_MARKS + " ")
    bare = _TITLE_EMPTY_EDGES.sub("", kept).strip(TITLE_END_MARKS + " ")  # ddl 交开题报告
    if (done := _BA_DONE_TITLE.match(bare)) is not None:
        bare = done["thing"]  # 把驾驶证年审弄了: 驾驶证年审
    elif (done := _BA_VERB_TITLE.match(bare)) is not None:
        bare = done["verb"] + done["thing"]  # 把房租交了: 交房租
    return bare or kept or title


_TITLE_EMPTY_EDGES = re.compile(TITLE_EMPTY_EDGES_PATTERN, re.IGNORECASE)
_PROGRESSIVE = re.compile(PROGRESSIVE_PATTERN)
_BA_DONE_TITLE = re.compile(BA_DONE_TITLE_PATTERN)
_BA_VERB_TITLE = re.compile(BA_VERB_TITLE_PATTERN)


REF_FIELD = "title_ref"
_REF_WHEN_TAIL = re.compile(REF_WHEN_TAIL_PATTERN)


def _named_part(ref: str) -> str:
    """`和客户的视频会` -> `视频会`: a reference to a thing by part of its title keeps
    what follows its last 的 (what is said before it only describes the thing)."""
    _, of, named = ref.rpartition(OF)
    ref = named if of and len(named) >= 2 else ref
    return _REF_WHEN_TAIL.sub("", ref)  # 孙女钢琴课这周 (不上了): 孙女钢琴课


def with_clean_titles(command: _C) -> _C:
    """`command` with every title in it cleaned (`clean_title`), a question's guess
    and a task reference included; anything else is returned as it is."""
    if dataclasses.is_dataclass(command) and not isinstance(command, type):
        changes: dict[str, Any] = {}
        for field in dataclasses.fields(command):
            value = getattr(command, field.name)
            if field.name in _TITLE_FIELDS and isinstance(value, str):
                cleaned: Any = clean_title(value)
                if field.name == REF_FIELD:
                    cleaned = _named_part(cleaned)
            elif field.name in ("guess", "ref"):
                cleaned = with_clean_titles(value)
            else:
                continue
            if cleaned != value:
                changes[field.name] = cleaned
        if changes:
            return dataclasses.replace(command, **changes)
    return command
