"""What a keyword's reader receives: the rest of the message and the user's clock."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Body:
    """What follows a command keyword: normalised, as typed, and the user's date."""

    keyword: str
    text: str  # normalised, outer separators stripped
    raw: str  # as typed, outer whitespace stripped (the journal keeps this)
    today: dt.date
    now_local: dt.datetime  # naive local wall clock (reminders: 30分钟后, 到 8:00)

    def with_text(self, keyword: str, text: str) -> Body:
        """The same message read as `keyword` followed by `text`."""
        return Body(keyword, text, text, self.today, self.now_local)
