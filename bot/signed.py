"""Signed, expiring tokens of the form `<prefix>.<user id>.<word>.<expires>.<HMAC>`.

The pages' cookie (`bot.web.auth`, prefix `v1`, word = the role) and the
mini-program's bearer token (`bot.mp.auth`, prefix `mp1`, word = the openid) are
the same construction with different keys: one place signs and checks them, so a
fix to the check (constant-time compare before any field is read, the expiry) holds
for both. Pure, no I/O.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
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
    key: bytes, token: str | None, prefix: str, now: dt.datetime, *, max_chars: int
) -> Opened | None:
    """What `token` proves; None when it is absent, too long, altered, signed with
    another key, of another prefix, malformed or expired (an expiry `datetime` cannot
    hold counts as malformed). The signature is compared in constant time before any
    field is trusted."""
    if not token or len(token) > max_chars:
        return None
    payload, _, signature = token.rpartition(".")
    if not hmac.compare_digest(_sign(key, payload).encode(), signature.encode()):
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
