"""The pages' session: a signed cookie, checked on every request. Pure, no I/O.

The cookie is `v1.<user id>.<role>.<expires, unix seconds>.<HMAC-SHA256>`, signed
with `Settings.web_key()`. It names a user id only: which member that is, and
whether they are still an admin, is read again from the database and the settings
on every request, so removing someone from KEEPER_ADMINS takes effect at once.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
from dataclasses import dataclass
from typing import Literal

COOKIE_NAME = "keeper_session"
SESSION_TTL = dt.timedelta(hours=12)
Role = Literal["user", "admin"]
_ROLES: tuple[Role, ...] = ("user", "admin")


@dataclass(frozen=True, kw_only=True, slots=True)
class WebSession:
    user_id: int
    role: Role
    expires_at: dt.datetime


def _sign(key: bytes, payload: str) -> str:
    digest = hmac.new(key, payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def issue(key: bytes, user_id: int, role: Role, now: dt.datetime) -> str:
    """A cookie value for `user_id`, good for `SESSION_TTL` from `now`."""
    expires = int((now + SESSION_TTL).timestamp())
    payload = f"v1.{user_id}.{role}.{expires}"
    return f"{payload}.{_sign(key, payload)}"


def verify(key: bytes, value: str | None, now: dt.datetime) -> WebSession | None:
    """The session a cookie value proves; None when it is absent, altered, signed
    with another key, malformed or expired. The signature is compared in constant
    time before any field is trusted."""
    if not value or len(value) > 200:
        return None
    payload, _, signature = value.rpartition(".")
    if not hmac.compare_digest(_sign(key, payload).encode(), signature.encode()):
        return None
    parts = payload.split(".")
    if len(parts) != 4 or parts[0] != "v1" or parts[2] not in _ROLES:
        return None
    try:
        user_id, expires = int(parts[1]), int(parts[3])
    except ValueError:
        return None
    expires_at = dt.datetime.fromtimestamp(expires, dt.UTC)
    if expires_at <= now:
        return None
    role: Role = "admin" if parts[2] == "admin" else "user"
    return WebSession(user_id=user_id, role=role, expires_at=expires_at)
