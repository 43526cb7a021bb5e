"""The mini-program's bearer token: signed, expiring, checked in constant time. Pure.

The token is `mp1.<user id>.<openid>.<expires, unix seconds>.<HMAC-SHA256>`, signed
with a key of its own: HMAC-SHA256(`Settings.web_key()`, MP_KEY_LABEL), so a page
cookie is never a valid token and the other way round, and resetting the secret the
web key comes from signs every mini-program out too. It lasts `TOKEN_TTL` (7 days:
WeChat's own login code is single-use, so a short token means a code2Session per
visit; a week keeps that rare while a stolen token still dies on its own). The user
id in it is the one at login and is never trusted: every request reads the user the
openid acts as now, so after `/link` the same token keeps working, as the member.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import re
from dataclasses import dataclass

MP_KEY_LABEL = b"keeper mini-program token key v1"
TOKEN_TTL = dt.timedelta(days=7)
TOKEN_MAX_CHARS = 300
_OPENID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, kw_only=True, slots=True)
class MpSession:
    user_id: int
    openid: str
    expires_at: dt.datetime


def token_key(web_key: bytes) -> bytes:
    """The tokens' HMAC key, derived from the pages' key under its own label."""
    return hmac.new(web_key, MP_KEY_LABEL, hashlib.sha256).digest()


def _sign(key: bytes, payload: str) -> str:
    digest = hmac.new(key, payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def issue(key: bytes, user_id: int, openid: str, now: dt.datetime) -> tuple[str, dt.datetime]:
    """A token for (`user_id`, `openid`) and when it expires (`TOKEN_TTL` from `now`)."""
    if not _OPENID.fullmatch(openid):
        raise ValueError("an openid is 1-64 letters, digits, _ or -")
    expires = int((now + TOKEN_TTL).timestamp())
    payload = f"mp1.{user_id}.{openid}.{expires}"
    return f"{payload}.{_sign(key, payload)}", dt.datetime.fromtimestamp(expires, dt.UTC)


def verify(key: bytes, token: str | None, now: dt.datetime) -> MpSession | None:
    """The session a token proves; None when absent, altered, signed with another
    key, malformed or expired. The signature is compared before any field is read."""
    if not token or len(token) > TOKEN_MAX_CHARS:
        return None
    payload, _, signature = token.rpartition(".")
    if not hmac.compare_digest(_sign(key, payload).encode(), signature.encode()):
        return None
    parts = payload.split(".")
    if len(parts) != 4 or parts[0] != "mp1" or not _OPENID.fullmatch(parts[2]):
        return None
    try:
        user_id, expires = int(parts[1]), int(parts[3])
    except ValueError:
        return None
    expires_at = dt.datetime.fromtimestamp(expires, dt.UTC)
    if expires_at <= now:
        return None
    return MpSession(user_id=user_id, openid=parts[2], expires_at=expires_at)


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None."""
    scheme, _, value = (header or "").partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None
