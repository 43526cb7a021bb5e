"""The mini-program's bearer token: signed, expiring, checked in constant time. Pure.

The token is `mp1.<user id>.<openid>.<expires, unix seconds>.<HMAC-SHA256>`, signed
with a key of its own: HMAC-SHA256(`Settings.web_key()`, MP_KEY_LABEL), so a page
cookie is never a valid token and the other way round, and resetting the secret the
web key comes from signs every mini-program out too, unless the old one stays as
KEEPER_WEB_SECRET_PREVIOUS while a rotation settles (issue 22). It lasts `TOKEN_TTL` (7 days:
WeChat's own login code is single-use, so a short token means a code2Session per
visit; a week keeps that rare while a stolen token still dies on its own). The user
id in it is the one at login and is never trusted: every request reads the user the
openid acts as now, so after `/link` the same token keeps working, as the member.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot import signed

MP_KEY_LABEL = b"keeper mini-program token key v1"
LINK_CODE_KEY_LABEL = b"keeper mini-program link code key v1"
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


def link_code_key(web_key: bytes) -> bytes:
    """The HMAC key link codes are stored under (`services.mp_link.code_hash`): derived
    from the pages' key under a label of its own, so it is no token key and no cookie
    key, and never written anywhere."""
    return hmac.new(web_key, LINK_CODE_KEY_LABEL, hashlib.sha256).digest()


def issue(key: bytes, user_id: int, openid: str, now: dt.datetime) -> tuple[str, dt.datetime]:
    """A token for (`user_id`, `openid`) and when it expires (`TOKEN_TTL` from `now`)."""
    if not _OPENID.fullmatch(openid):
        raise ValueError("an openid is 1-64 letters, digits, _ or -")
    return signed.seal(key, "mp1", user_id, openid, now + TOKEN_TTL)


def verify(
    key: bytes, token: str | None, now: dt.datetime, *, previous: Sequence[bytes] = ()
) -> MpSession | None:
    """The session a token proves; None when absent, altered, signed with neither
    `key` nor a `previous` one (a rotation: `token_key` of the previous signing key),
    malformed or expired (`bot.signed.open_token`)."""
    opened = signed.open_token(key, token, "mp1", now, max_chars=TOKEN_MAX_CHARS, previous=previous)
    if opened is None or not _OPENID.fullmatch(opened.word):
        return None
    return MpSession(user_id=opened.user_id, openid=opened.word, expires_at=opened.expires_at)


def bearer(header: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None."""
    scheme, _, value = (header or "").partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None
