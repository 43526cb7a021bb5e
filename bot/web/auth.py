"""The pages' session: a signed cookie, checked on every request. Pure, no I/O.

The cookie is `v1.<user id>.<role>.<expires, unix seconds>.<HMAC-SHA256>`, signed
with `Settings.web_key()` (and believed under `Settings.previous_web_keys()` too). It names a user id only: which member that is, and
whether they are still an admin, is read again from the database and the settings
on every request, so removing someone from KEEPER_ADMINS takes effect at once.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot import signed

COOKIE_NAME = "keeper_session"
SESSION_TTL = dt.timedelta(hours=12)
Role = Literal["user", "admin"]
_ROLES: tuple[Role, ...] = ("user", "admin")


@dataclass(frozen=True, kw_only=True, slots=True)
class WebSession:
    user_id: int
    role: Role
    expires_at: dt.datetime


def issue(key: bytes, user_id: int, role: Role, now: dt.datetime) -> str:
    """A cookie value for `user_id`, good for `SESSION_TTL` from `now`."""
    return signed.seal(key, "v1", user_id, role, now + SESSION_TTL)[0]


def verify(
    key: bytes, value: str | None, now: dt.datetime, *, previous: Sequence[bytes] = ()
) -> WebSession | None:
    """The session a cookie value proves; None when it is absent, altered, signed
    with neither `key` nor a `previous` one (a rotation), malformed or expired
    (`bot.signed.open_token`)."""
    opened = signed.open_token(key, value, "v1", now, max_chars=200, previous=previous)
    if opened is None or opened.word not in _ROLES:
        return None
    role: Role = "admin" if opened.word == "admin" else "user"
    return WebSession(user_id=opened.user_id, role=role, expires_at=opened.expires_at)
