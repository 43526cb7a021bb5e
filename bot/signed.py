"""Signed, expiring tokens of the form `<prefix>.<user id>.<word>.<expires>.<HMAC>`.

The pages' cookie (`bot.web.auth`, prefix `v1`, word = the role) and the
mini-program's bearer token (`bot.mp.auth`, prefix `mp1`, word = the openid) are
the same construction with different keys: one place signs and checks them, so a
fix to the check (constant-time compare before any field is read, the expiry) holds
for both. Pure, no I/O.

A token is signed with the current key only and checked against it and the
`previous` keys (KEEPER_WEB_SECRET_PREVIOUS during a rotation, issue 22), so a
rotation signs nobody out: what the old key signed stays good until it expires. A
token names no key: an HMAC verifies under the key that made it and no other, so
trying two keys is no guess.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

LAST_EXPIRY = 253_402_300_799
"""9999-12-31T23:59:59Z, the last instant a `datetime` holds: an expiry past it (or
not after 1970) is no token of ours, and must be refused, never overflow."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Opened:
    """What a valid token says; `word` is still the caller's to check."""

    user_id: int
    word: str
    expires_at: dt.datetime


def _sign(key: bytes, payload: str) -> str:
    digest = hmac.new(key, payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def seal(
    key: bytes, prefix: str, user_id: int, word: str, expires_at: dt.datetime
) -> tuple[str, dt.datetime]:
    """The token, and its expiry as written in it (whole seconds)."""
    expires = int(expires_at.timestamp())
    payload = f"{prefix}.{user_id}.{word}.{expires}"
    return f"{payload}.{_sign(key, payload)}", dt.datetime.fromtimestamp(expires, dt.UTC)


def open_token(
    key: bytes,
    token: str | None,
    prefix: str,
    now: dt.datetime,
    *,
    max_chars: int,
    previous: Sequence[bytes] = (),
) -> Opened | None:
    """What `token` proves; None when it is absent, too long, altered, signed with
    neither `key` nor one of the `previous` keys, of another prefix, malformed or
    expired (an expiry `datetime` cannot hold counts as malformed). The signature is
    compared in constant time, under every key, before any field is trusted."""
    if not token or len(token) > max_chars:
        return None
    payload, _, signature = token.rpartition(".")
    matches = [
        hmac.compare_digest(_sign(k, payload).encode(), signature.encode())
        for k in (key, *previous)
    ]
    if not any(matches):
        return None
    parts = payload.split(".")
    if len(parts) != 4 or parts[0] != prefix:
        return None
    try:
        user_id, expires = int(parts[1]), int(parts[3])
    except ValueError:
        return None
    if not 0 < expires <= LAST_EXPIRY:
        return None
    expires_at = dt.datetime.fromtimestamp(expires, dt.UTC)
    if expires_at <= now:
        return None
    return Opened(user_id=user_id, word=parts[2], expires_at=expires_at)
