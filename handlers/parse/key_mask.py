"""Keys out of a message before it is stored in `inbound_messages` (issue 20 item 5).

`redact_sendkeys` masks every key-like run: a Server酱 SendKey (`SCT…`, Server酱³'s
`sctp<n>t…`) or a WxPusher SPT (`SPT_…`, a push token: whoever has it can write to
its owner), of any case, followed by at least eight more letters or digits. A
WxPusher UID is an address and is kept. A bound key lives only sealed
(`services/channels.py`); a refused near-miss must not live in clear either.

How hard it looks depends on the message:

- any message: a key typed as one word (`SCT12…`, glued to a word before it as in
  `serverchanSCT…`, in full-width letters, with `_` or an invisible zero-width
  character inside);
- a message about binding or a key (`绑定`, a channel word of
  `handlers/parse/channels.py` such as `Server酱`, `sendkey`): also a key whose parts anything
  but a letter of another script separates: spaces, newlines, tabs, punctuation
  (ASCII or full-width), `-`, zero-width characters (U+200B-U+200D, U+FEFF), as in
  `S C T 1234-5678 abcd`. Outside such messages `SCT-2026-11-30 notes` stays as typed.

Each character is read as NFKC makes it (full-width and other compatibility forms
become ASCII), and the run is masked by `channels.mask`: what is kept is the key's
first five and last two characters (`SCT12…89`), never more. Masking a little more
than the key (a word glued after it) is harmless; storing a key is not.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from handlers.parse.channels import mask
from handlers.parse.patterns import BIND_WORD, CHANNEL_WORDS

__all__ = ["redact_sendkeys"]

MIN_AFTER_PREFIX = 8
_PREFIX = re.compile(r"s[cp]t", re.IGNORECASE)
_KEY_TALK = (BIND_WORD, "sendkey", "send key", *(w for w in CHANNEL_WORDS if w != "sct"))
"""Words of a message about binding or a key (`sct` alone is too short a word: it
would make every glued key's message loose)."""
_KEY, _GAP, _STOP = "key", "gap", "stop"


def redact_sendkeys(text: str) -> str:
    """`text` with every key-like run replaced by its masked form (see the module)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    loose = any(word in folded for word in _KEY_TALK)
    if not loose and not _PREFIX.search(_visible(folded)):
        return text  # the common case: one normalisation, no scan
    chars = [_read(char, loose=loose) for char in text]
    parts: list[str] = []
    end = 0
    for run in _runs(chars):
        compact = "".join(chars[i][1] for i in run)
        found = _PREFIX.search(compact)
        if found is None or len(compact) - found.end() < MIN_AFTER_PREFIX:
            continue
        start = run[found.start()]
        parts += [text[end:start], mask(compact[found.start() :])]
        end = run[-1] + 1
    return "".join([*parts, text[end:]]) if parts else text


def _read(char: str, *, loose: bool) -> tuple[str, str]:
    """What one character is to a key: one of its letters or digits (as ASCII), a gap
    that may sit between its parts, or a stop that ends it."""
    folded = unicodedata.normalize("NFKC", char)
    if len(folded) == 1 and folded.isascii() and folded.isalnum():
        return _KEY, folded
    if char == "_" or unicodedata.category(char) == "Cf":  # `SPT_`; zero-width
        return _GAP, ""
    if loose and not any(c.isalnum() for c in folded):
        return _GAP, ""
    return _STOP, ""


def _runs(chars: list[tuple[str, str]]) -> Iterator[list[int]]:
    """The positions of the key characters of each run (key characters with only gaps
    between them)."""
    run: list[int] = []
    for i, (kind, _) in enumerate(chars):
        if kind == _KEY:
            run.append(i)
        elif kind == _STOP and run:
            yield run
            run = []
    if run:
        yield run


def _visible(text: str) -> str:
    return "".join(c for c in text if c != "_" and unicodedata.category(c) != "Cf")
