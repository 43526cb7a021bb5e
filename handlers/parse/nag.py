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
from handlers.parse.numbers import CN_INT, small_int
from scheduler.core import nag

_N = rf"(?:[0-9]{{1,4}}|{CN_INT})"
_UNTIL_DONE = re.compile(
    r"(?:(?:一直|反复)(?:提醒|催)?(?:我)?)?直到\s*(?:我)?\s*(?:说|回复|回)?\s*"
    r"(?:完成|收到|做完|搞定|弄完)了?(?:为止)?"
    r"|(?:(?:一直|反复)(?:提醒|催)?(?:我)?)?直到\s*(?:我)?\s*(?:回复|回)(?:为止)?"
    # `没回复收到就一直提醒`, `不回就一直催我`, `我没说收到就继续提醒`
    r"|(?:如果|要是)?(?:我)?(?:没|不|没有)(?:回复?|回|说|答应|弄完|做完|搞定|办完|完成)(?:收到|完成|好的)?"
    r"(?:的话)?\s*"
    r"(?:就)?(?:一直|反复|继续|不停(?:地)?)(?:提醒|催|叫)(?:我)?"
    # `要是没回复就每隔半小时再提醒`: the interval that follows says how often
    r"|(?:如果|要是)?(?:我)?(?:没|不|没有)(?:回复?我?|回我?|说|弄完|做完|搞定|办完)(?:收到|完成)?"
    r"(?:的话)?\s*就(?=\s*每)"
    # `没寄就一直提醒我`: not done (any verb), then the nag
    r"|(?:如果|要是)?(?:我)?没\S{1,3}?就(?:一直|反复|继续|不停(?:地)?)(?:提醒|催|叫)(?:我)?"
    # `一直提醒到我回复收到`, `一直催到我说完成为止`
    r"|(?:一直|反复|不停(?:地)?)(?:提醒|催)(?:我)?(?:到|直到)\s*(?:我)?(?:说|回复|回)\s*"
    r"(?:完成|收到|做完|搞定|弄完|好的)了?(?:为止)?"
)
_EVERY = re.compile(
    rf"每隔?\s*(?:(?P<n>{_N})\s*个?\s*(?P<half>半)?\s*(?P<unit>分钟|分|小时|钟头)"
    r"|(?P<named>半个?小时|半个?钟头|一?刻钟|个?小时|个?钟头))\s*"
    r"(?:再?(?:提醒|催)(?:我)?(?:一次|一遍)?|一次)?"
)
_CAP = re.compile(rf"最多\s*(?:提醒|催)?\s*(?P<n>{_N})\s*(?:次|遍)")
_NAMED_MINUTES = {
    **dict.fromkeys(("半小时", "半个小时", "半钟头", "半个钟头"), 30),
    **dict.fromkeys(("一刻钟", "刻钟"), 15),
    **dict.fromkeys(("小时", "个小时", "钟头", "个钟头"), 60),
}
_NUMBERISH = r"[0-9零〇一二两三四五六七八九十百千万半个点.．\s]{1,12}"
_EVERY_LEFT = re.compile(rf"每隔?\s*{_NUMBERISH}(?:分钟|分|小时|钟头|刻钟)")
"""An interval the terms did not take (a second one, a number too long, words we
do not read): refused rather than left in the title while the nag runs every 10."""
_CAP_LEFT = re.compile(rf"最多\s*(?:提醒|催)?\s*{_NUMBERISH}(?:次|遍)")
_DIGITS_LEFT = re.compile(r"(?:每隔?|最多\s*(?:提醒|催)?)\s*[0-9]+\s*(?:分钟|分|小时|钟头|次|遍)")
"""A leftover that is a plain number (`每99999分钟`): out of range, not unreadable."""


def take_until_done(text: str) -> tuple[str, UntilDone | None]:
    """The text without its nag words, and the nag's terms (None: it does not nag).

    Raises:
        ParseError: an interval or cap out of range (nothing is saved).
    """
    body, count = _UNTIL_DONE.subn(" ", text)
    if not count:
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


def _take(pattern: re.Pattern[str], text: str) -> tuple[re.Match[str] | None, str]:
    match = pattern.search(text)
    if match is None:
        return None, text
    return match, f"{text[: match.start()]} {text[match.end() :]}"


def _minutes(match: re.Match[str]) -> int:
    if match["named"] is not None:
        return _NAMED_MINUTES[match["named"]]
    count = small_int(match["n"])
    hours = match["unit"] in ("小时", "钟头")
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
