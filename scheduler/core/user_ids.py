"""UserIDs inside free text (a provider's errmsg, a proxy's error page): found and tagged.

`mask_ids` replaces every known UserID in a text by a tag (`redact.mask_user`'s
`u:` and 8 hex characters). An ID counts only as a whole: not glued to a letter or
digit on either side, so `al` is never found inside `invalid`, and a one- or
two-character ID (`a`, `li`) is masked only where it stands alone. Where such a
short ID is also an English word (`a`, `is`), that word is masked too: a slightly
shredded error text is the price of never storing the ID. Matching ignores case
(WeCom UserIDs are case-insensitive and WeCom echoes them lower-cased); the tag is
made from the ID as keeper stores it, so it equals the `recipient` tag of the log
line. A tag already in the text is left alone, so masking twice changes nothing.

The cost does not grow with the number of known IDs: the text is cut into runs of
UserID characters and each candidate is one dict lookup (no alternation of every
ID in one regex).

`KNOWN` is the process's one set of known IDs: the admins and alert receivers named
in the settings (`fix`, at start-up) and the users, receivers and openids the
database holds (`replace`, by the tick at most every `KNOWN_IDS_REREAD`, and by
the admin page). `scheduler.core.redact.redact` consults it, so every stored error text
and, through the logging filter, every log line is masked with it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable, Mapping

__all__ = ["ID_CHARACTERS", "KNOWN", "KNOWN_IDS_REREAD", "KnownIds", "mask_ids", "user_id_index"]

KNOWN_IDS_REREAD = dt.timedelta(minutes=1)
"""How stale the tick's copy of the known IDs may be. A job's own recipient is always
masked (it is passed in explicitly); this only bounds how long a member who joined
meanwhile could be named unmasked in an error about another member's send."""

ID_CHARACTERS = "A-Za-z0-9_.@-"
"""The characters of a UserID, as the body of a regex character class."""
_LONGEST = 64
_ID = re.compile(rf"[A-Za-z0-9][{ID_CHARACTERS}]{{0,{_LONGEST - 1}}}")
"""A UserID: WeCom's form (1-64 of letters, digits, `_.@-`); WxPusher UIDs and
mini-program openids fit it too. Anything else is not an ID and is not looked for."""
_RUN = re.compile(rf"u:[0-9a-f]{{8}}(?![A-Za-z0-9])|[A-Za-z0-9][{ID_CHARACTERS}]*")
_SEPARATORS = "_.@-"


def user_id_index(ids: Iterable[str]) -> dict[str, str]:
    """The IDs by their lower-cased form (what `mask_ids` looks up); non-IDs dropped."""
    return {i.lower(): i for i in ids if _ID.fullmatch(i)}


def mask_ids(text: str, *indexes: Mapping[str, str], tag: Callable[[str], str]) -> str:
    """`text` with every ID of the `indexes` (`user_id_index`) replaced by `tag(id)`."""
    if not any(indexes):
        return text
    parts: list[str] = []
    end = 0
    for run in _RUN.finditer(text):
        if ":" in run[0]:
            continue  # a tag already (an ID has no colon): never tag a tag
        masked = _mask_run(run[0], indexes, tag)
        if masked is not run[0]:
            parts += [text[end : run.start()], masked]
            end = run.end()
    return "".join([*parts, text[end:]]) if parts else text


def _mask_run(run: str, indexes: tuple[Mapping[str, str], ...], tag: Callable[[str], str]) -> str:
    """One run of UserID characters with its IDs tagged. An ID may start where the run
    does or after a separator, and end where the run does or before one; the longest
    from each start wins (`zhang.san` before `zhang`)."""
    cuts = [i for i, char in enumerate(run) if char in _SEPARATORS]
    starts = [0, *(i + 1 for i in cuts)]
    ends = sorted({*cuts, len(run)}, reverse=True)
    parts: list[str] = []
    done = 0
    for start in starts:
        if start < done or start >= len(run):
            continue
        for stop in ends:
            if stop <= start or stop - start > _LONGEST:
                continue
            found = _lookup(run[start:stop].lower(), indexes)
            if found is not None:
                parts += [run[done:start], tag(found)]
                done = stop
                break
    return "".join([*parts, run[done:]]) if parts else run


def _lookup(candidate: str, indexes: tuple[Mapping[str, str], ...]) -> str | None:
    for index in indexes:
        if (found := index.get(candidate)) is not None:
            return found
    return None


class KnownIds:
    """The UserIDs this process knows (see the module note); replaced whole, never
    edited in place, so a reader always sees one consistent index."""

    def __init__(self) -> None:
        self._fixed: dict[str, str] = {}
        self._read: dict[str, str] = {}
        self.index: Mapping[str, str] = {}
        self.read_at: dt.datetime | None = None

    def fix(self, ids: Iterable[str]) -> None:
        """The IDs the settings name (KEEPER_ADMINS, the alert receiver): kept across
        every `replace`."""
        self._fixed = user_id_index(ids)
        self.index = self._read | self._fixed

    def replace(self, ids: Iterable[str], *, now: dt.datetime | None = None) -> None:
        """The IDs read from the database at `now` (when it was the tick's read)."""
        self._read = user_id_index(ids)
        self.index = self._read | self._fixed
        self.read_at = now

    def due(self, now: dt.datetime) -> bool:
        """Whether the tick should read the IDs again (also when its clock went back)."""
        return self.read_at is None or not dt.timedelta(0) <= now - self.read_at < KNOWN_IDS_REREAD

    def clear(self) -> None:
        """Forget everything (tests: one test's members are not the next one's)."""
        self.fix(())
        self.replace(())


KNOWN = KnownIds()
