"""Process-local event counts the metrics endpoint reports (`bot.metrics`).

Plain counters, so the scheduler needs no metrics library: the token cache counts
its fetches, delivery its channel holds; `bot.metrics` reads them at scrape time.
"""

from __future__ import annotations

from collections import Counter

EVENTS: Counter[str] = Counter()
"""`token_refreshes`, `channel_holds`: since this process started."""


def count(event: str, n: int = 1) -> None:
    """Add `n` to `event`'s count."""
    EVENTS[event] += n
