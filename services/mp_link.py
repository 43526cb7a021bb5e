"""Linking a mini-program to a WeCom member: `绑定 小程序`'s code, and `/link`.

The code is six digits, good once and for `LINK_TTL`; `link` moves the mini-program
user's glasses to the member (so both doors count in one 今天) and closes its own
plan (grants invalid, pending jobs cancelled): the member's plan is the one that
runs, and asks for a subscription on the next glass.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Callable, Sequence

import services.water
from scheduler.core import water_plan as wp
from services.mp_water import loaded_plan
from storage.database import Session
from storage.repos import mp

LINK_TTL = dt.timedelta(minutes=10)
LINK_MAX_FAILURES = 5
LINK_LOCKOUT = dt.timedelta(hours=1)
"""Five wrong codes in an hour lock an openid's /link for the rest of the hour:
1e6 codes, so guessing one is hopeless (and every openid costs a WeChat login)."""


def code_hash(key: bytes, code: str) -> str:
    """A link code as stored: HMAC-SHA256 under the server's link-code key, in hex.

    Not a plain hash: six digits are a million, and a million SHA-256s take a second,
    so a copy of the table would show every live code. Without the key (derived from
    the pages' key, `bot.mp.auth.link_code_key`, never stored) it shows none. Codes
    stored before (plain SHA-256, until issue 20) match no more and die within their
    ten minutes; the member asks again."""
    return hmac.new(key, code.encode(), hashlib.sha256).hexdigest()


def _draw() -> str:
    return f"{secrets.randbelow(10**6):06d}"


async def new_link_code(
    session: Session,
    user_id: int,
    now: dt.datetime,
    *,
    key: bytes,
    draw: Callable[[], str] = _draw,
) -> str:
    """A fresh 6-digit code for the member, good once and for `LINK_TTL`; `key` is the
    link-code key (`code_hash`)."""
    for _ in range(10):
        code = draw()
        if await mp.replace_link_code(
            session,
            user_id=user_id,
            code_hash=code_hash(key, code),
            now=now,
            expires_at=now + LINK_TTL,
        ):
            return code
    raise RuntimeError("no free link code after 10 draws")


async def link(
    session: Session,
    openid: str,
    code: str,
    now: dt.datetime,
    *,
    key: bytes,
    previous: Sequence[bytes] = (),
) -> int | str:
    """Link the openid to the member whose code this is (`key`: as `new_link_code`;
    `previous`: the link-code keys of KEEPER_WEB_SECRET_PREVIOUS during a rotation, so a
    code asked for just before it still links): the member's user id, or the
    contract's error code (`rate_limited`, `already_linked`, `link_code_invalid`; a
    wrong code's count is written, so the caller commits either way).

    The mini-program-only user's glasses move to the member (so 今天 counts both
    doors), and its own plan is closed (grants invalid, pending jobs cancelled): the
    member's plan is the one that runs, and asks for a subscription on the next glass.
    """
    found = await mp.identity(session, openid)
    if found is None:
        return "unauthorized"
    if found.linked:
        return "already_linked"
    recent = found.link_failed_at is not None and now - found.link_failed_at < LINK_LOCKOUT
    failures = found.link_failures if recent else 0
    if failures >= LINK_MAX_FAILURES:
        return "rate_limited"
    member = None
    for each in (key, *previous):  # one key made it: at most one hash can match
        member = await mp.use_link_code(session, code_hash(each, code), now)
        if member is not None:
            break
    if member is None:
        await mp.note_link_failure(session, openid, failures + 1, now)
        return "link_code_invalid"
    own = await loaded_plan(session, found.own_user_id, now)
    await services.water.act(session, own, wp.CLOSE, now)  # refused when already off
    await mp.move_water(session, found.own_user_id, member)
    await mp.link(session, openid, member, now)
    return member
