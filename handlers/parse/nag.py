"""`直到完成` in a reminder: the words that make it nag (pure, no I/O).

`提醒 明天 9:00 交材料 直到完成`, `提醒 今天 14:30 吃药 直到完成 每10分钟`,
`明天9点提醒我交材料，直到我说完成`, `下午3点提醒我吃药 每隔15分钟提醒一次 直到我回复收到`.

The marker is `直到` + an answer word (`完成`, `收到`, `做完`, `搞定`), optionally with
`我说` / `我回复` before it and `为止` after. Only when it is there are `每N分钟` /
`每隔N分钟` / `每N小时` / `每N个半小时` / `每(个)小时` / `每半小时` / `每半个钟头` /
`每(一)刻钟` (the interval, 5-120 minutes, default 10) and `最多N次` (the cap, 2-20,
default 6) read, anywhere in the text; all of them are taken out before the time
and title are read, so the title stays `交材料`. An interval or cap left over after
that is refused with its own reason (a second one, a number out of range like
`每99999分钟`, words we do not read), not kept in the title while the nag runs at the
default.
"""

from __future__ import annotations

import re

from handlers import texts
from handlers.commands import ParseError, UntilDone
from handlers.parse.normalise import strip_separators
from handlers.parse.numbers import small_int
from handlers.parse.patterns import (
    NAG_CAP_LEFT_PATTERN,
    NAG_CAP_PATTERN,
    NAG_DIGITS_LEFT_PATTERN,
    NAG_EVERY_LEFT_PATTERN,
    NAG_EVERY_NAGS_PATTERN,
    NAG_EVERY_PATTERN,
    NAG_HOUR_UNITS,
    NAG_NAMED_MINUTES,
    NAG_UNTIL_DONE_PATTERN,
    URGE_VERB,
)
from scheduler.core import nag

_UNTIL_DONE = re.compile(NAG_UNTIL_DONE_PATTERN)
_EVERY = re.compile(NAG_EVERY_PATTERN)
_EVERY_NAGS = re.compile(NAG_EVERY_NAGS_PATTERN)
"""An interval followed by a nag verb (`每15分钟催一次`)."""
_CAP = re.compile(NAG_CAP_PATTERN)
_EVERY_LEFT = re.compile(NAG_EVERY_LEFT_PATTERN)
_CAP_LEFT = re.compile(NAG_CAP_LEFT_PATTERN)
_DIGITS_LEFT = re.compile(NAG_DIGITS_LEFT_PATTERN)


def clause_span(text: str) -> tuple[int, int] | None:
    """Where the nag clause of `text` is (`没寄就一直提醒我`), or None: a reminder word
    inside it is the nag's, not the one that says what to remind."""
    found = _UNTIL_DONE.search(text)
    return None if found is None else found.span()


def without_clause(text: str) -> str:
    """`text` with every nag clause taken out (`…到点一直催我 直到我说做完`)."""
    return _UNTIL_DONE.sub(" ", text)


def take_until_done(text: str, *, interval_nags: bool = False) -> tuple[str, UntilDone | None]:
    """The text without its nag words, and the nag's terms (None: it does not nag).

    `interval_nags`: an interval with a nag verb says it alone (`任务 … 每15分钟催一次`);
    a task's caller passes it, a reminder's does not (`每2小时提醒我站起来` recurs).

    Raises:
        ParseError: an interval or cap out of range (nothing is saved).
    """
    body, count = _UNTIL_DONE.subn(" ", text)
    if not count and not (interval_nags and _EVERY_NAGS.search(text)) and not _said_nag(text):
        return text, None
    every, body = _take(_EVERY, body)
    cap, body = _take(_CAP, body)
    if every is not None and _EVERY.search(body):
        raise ParseError(texts.NAG_EVERY_TWICE)
    if cap is not None and _CAP.search(body):
        raise ParseError(texts.NAG_CAP_TWICE)
    for left, out_of_range, unread in (
        (_EVERY_LEFT, texts.NAG_EVERY_RANGE, texts.NAG_EVERY_UNREAD),
        (_CAP_LEFT, texts.NAG_CAP_RANGE, texts.NAG_CAP_UNREAD),
    ):
        if (found := left.search(body)) is not None:
            raise ParseError(out_of_range if _DIGITS_LEFT.fullmatch(found[0]) else unread)
    terms = UntilDone(
        every=nag.DEFAULT_EVERY if every is None else _minutes(every),
        cap=nag.DEFAULT_CAP if cap is None else _cap(cap),
    )
    return strip_separators(" ".join(body.split())), terms


def _said_nag(text: str) -> bool:
    """`每20分钟催一次 最多4次`, `每15分钟一次，最多提醒5次`: an interval said with 催, or
    with a cap, nags on its own (`每2小时提醒我站起来`, with neither, recurs)."""
    interval = _EVERY_NAGS.search(text)
    if interval is not None and URGE_VERB in interval[0]:
        return True
    capped = _CAP.search(text) is not None  # 每15分钟一次，最多提醒5次: a cap says it nags
    return capped and (interval is not None or _EVERY.search(text) is not None)


def _take(pattern: re.Pattern[str], text: str) -> tuple[re.Match[str] | None, str]:
    match = pattern.search(text)
    if match is None:
        return None, text
    return match, f"{text[: match.start()]} {text[match.end() :]}"


def _minutes(match: re.Match[str]) -> int:
    if match["named"] is not None:
        return NAG_NAMED_MINUTES[match["named"]]
    count = small_int(match["n"])
    hours = match["unit"] in NAG_HOUR_UNITS
    if match["half"] is not None and not hours:  # 一个半分钟: not an interval we read
        raise ParseError(texts.NAG_EVERY_UNREAD)
    half = 30 if match["half"] is not None else 0
    minutes = None if count is None else count * (60 if hours else 1) + half
    if minutes is None or not nag.EVERY_RANGE[0] <= minutes <= nag.EVERY_RANGE[1]:
        raise ParseError(texts.NAG_EVERY_RANGE)
    return minutes


def _cap(match: re.Match[str]) -> int:
    cap = small_int(match["n"])
    if cap is None or not nag.CAP_RANGE[0] <= cap <= nag.CAP_RANGE[1]:
        raise ParseError(texts.NAG_CAP_RANGE)
    return cap
