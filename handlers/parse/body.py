"""What a keyword's reader receives: the rest of the message and the user's clock."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from handlers.parse.patterns import PERFECTIVE


@dataclass(frozen=True, slots=True)
class Body:
    """What follows a command keyword: normalised, as typed, and the user's date."""

    keyword: str
    text: str  # normalised, outer separators stripped
    raw: str  # as typed, outer whitespace stripped (the journal keeps this)
    today: dt.date
    now_local: dt.datetime  # naive local wall clock (reminders: 30分钟后, 到 8:00)

    def as_said(self, loose: str) -> str:
        """`loose` (a trailing 了 dropped) with its 了 back when the message had it:
        a title keeps it (`提醒我把衣服晾了`, `加个待办：周五前把化肥钱结了`)."""
        rest = self.text[len(loose) :]
        return (
            self.text
            if self.text.startswith(loose) and rest and not rest.strip(PERFECTIVE)
            else loose
        )

    def with_text(self, keyword: str, text: str) -> Body:
        """The same message read as `keyword` followed by `text`."""
        return Body(keyword, text, text, self.today, self.now_local)
