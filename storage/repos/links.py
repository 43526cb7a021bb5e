"""One-time links (`web_links`): made in chat, consumed once by the pages.

Only `hash_token(token)` is stored or looked up: the database never holds a token.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass

from sqlalchemy import insert, select, update

from storage.database import Session
from storage.models import USERS
from storage.vocabulary import LinkPurpose, LinkRefusal
from storage.web_models import WEB_LINKS


def hash_token(token: str) -> str:
    """What is stored for a token: its SHA-256 in hex (a token is 256 random bits, so
    a plain hash is enough; no salt or slow hash is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, kw_only=True, slots=True)
class Consumed:
    """A link honoured: whose it was and what for."""

    user_id: int
    purpose: str


async def create(
    session: Session,
    *,
    token_hash: str,
    user_id: int,
    purpose: LinkPurpose,
    now: dt.datetime,
    expires_at: dt.datetime,
) -> None:
    await session.execute(
        insert(WEB_LINKS).values(
            token_hash=token_hash,
            user_id=user_id,
            purpose=purpose,
            created_at=now,
            expires_at=expires_at,
            used_at=None,
        )
    )


async def consume(session: Session, token_hash: str, now: dt.datetime) -> Consumed | LinkRefusal:
    """Use the link once. The conditional UPDATE is the whole claim: of two requests
    racing with the same token (a replay, a double tap), the database lets exactly
    one set `used_at`; the other matches no row and is told the link was used. This
    holds on every engine, because the WHERE is re-checked under the row's write lock
    (MariaDB, InnoDB) or the database's single writer (SQLite)."""
    claimed = await session.execute(
        update(WEB_LINKS)
        .where(
            WEB_LINKS.c.token_hash == token_hash,
            WEB_LINKS.c.used_at.is_(None),
            WEB_LINKS.c.expires_at > now,
        )
        .values(used_at=now)
    )
    row = (
        await session.execute(
            select(WEB_LINKS.c.user_id, WEB_LINKS.c.purpose, WEB_LINKS.c.used_at).where(
                WEB_LINKS.c.token_hash == token_hash
            )
        )
    ).first()
    if row is None:
        return LinkRefusal.UNKNOWN
    if claimed.rowcount == 1:
        return Consumed(user_id=row.user_id, purpose=row.purpose)
    return LinkRefusal.USED if row.used_at is not None else LinkRefusal.EXPIRED


async def member(session: Session, user_id: int) -> tuple[str, str] | None:
    """(WeCom UserID, time zone name) of a user id; None if there is no such user."""
    row = (
        await session.execute(
            select(USERS.c.wecom_user_id, USERS.c.timezone).where(USERS.c.id == user_id)
        )
    ).first()
    return None if row is None else (row.wecom_user_id, row.timezone)


async def user_id_of(session: Session, wecom_user_id: str) -> int | None:
    """The user id of a WeCom UserID; None if that member never wrote to keeper."""
    found: int | None = (
        await session.execute(select(USERS.c.id).where(USERS.c.wecom_user_id == wecom_user_id))
    ).scalar_one_or_none()
    return found
