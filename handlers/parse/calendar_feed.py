"""`日历订阅` and the ways people ask for it: a calendar address for the phone.

Read before the command keywords, so `日程`/`提醒` in `我想在手机日历里看日程` are not
taken for a new event: a short message that names a calendar subscription, a
calendar link or the phone's calendar, with no number in it (a number means a time or
an amount: something else is being said). A reset word (重置, 换, 作废 ...) asks for
the old addresses to stop working.
"""

from __future__ import annotations

import re

from handlers.commands import SubscribeCalendar
from handlers.parse.patterns import (
    FEED_ASKED_PATTERN,
    FEED_NOT_THIS_PATTERN,
    FEED_OLD_GONE_PATTERN,
    FEED_OTHER_LEAD_PATTERN,
    FEED_RESET_PATTERN,
)

_ASKED = re.compile(FEED_ASKED_PATTERN)
_RESET = re.compile(FEED_RESET_PATTERN)
_NOT_THIS = re.compile(FEED_NOT_THIS_PATTERN)
_OLD_GONE = re.compile(FEED_OLD_GONE_PATTERN)
"""A number, a day or a time: a reminder or an event is being said, not this."""
_OTHER_LEAD = re.compile(FEED_OTHER_LEAD_PATTERN)
"""A message led by another command's keyword is that command's (`提醒 看手机日历`)."""
MAX_CHARS = 30


def read_calendar_feed(text: str) -> SubscribeCalendar | None:
    """`日历订阅`, `订阅日历`, `给我日历链接`, `日历订阅 重置`; None for anything else."""
    said = text.casefold()
    said, old_gone = _OLD_GONE.subn(" ", said)  # 重新生成一个 旧的不要了: a reset
    if len(said) > MAX_CHARS or _NOT_THIS.search(said) or _OTHER_LEAD.match(said):
        return None
    if not _ASKED.search(said):
        return None
    return SubscribeCalendar(reset=bool(old_gone) or _RESET.search(said) is not None)
