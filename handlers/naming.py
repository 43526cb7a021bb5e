"""How the words of a message find the stored things they name: tasks, events and
reminders all use one ladder, so `取快递` finds 拿快递 whichever list it is in.

Each way of reading the words (as said, the thing without its verb, without a leading
去, what follows the last 的) is tried in turn; for each, an exact title first, then
titles holding the words, then a title the words hold whole (`供应商回款打过去了` names
回款). The first step that finds anything wins; the caller says "which one?" when it
finds several and "no such thing" when it finds none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from handlers import texts
from handlers.parse.cues import done_thing

T = TypeVar("T")

MIN_HELD_TITLE = 2
"""A title this long or longer may be found inside the words (a one-character title
would be found in almost anything)."""


def readings(said: str) -> list[str]:
    """The ways `said` may name a thing, in the order they are tried: as said, the thing
    without its verb (`取快递`: 快递), without a leading 去 (`去银行`: 银行), and what
    follows the last 的 (`跟甲方的视频会`: 视频会)."""
    found = [said]
    if (thing := done_thing(said)) is not None:
        found.append(thing)
    if said.startswith(texts.GO_PREFIX) and len(said) > len(texts.GO_PREFIX) + 1:
        found.append(said[len(texts.GO_PREFIX) :])
    _, of, after = said.rpartition(texts.OF)
    if of and len(after) >= MIN_HELD_TITLE:
        found.append(after)
    return list(dict.fromkeys(found))


def named(items: Sequence[T], said: str, title: Callable[[T], str]) -> list[T]:
    """The items `said` names, by the first reading and step that finds any (see the
    module's docstring); [] when none does. The items keep their order."""
    for words in readings(said):
        exact = [item for item in items if title(item) == words]
        within = [item for item in items if words in title(item)]
        held = [
            item for item in items if len(title(item)) >= MIN_HELD_TITLE and title(item) in words
        ]
        if found := exact or within or held:
            return found
    return []
