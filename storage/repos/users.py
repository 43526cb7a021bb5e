"""Users: created on first contact, locked for the length of a message's transaction."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import bindparam, func, select, update

from storage.database import Session
from storage.delivery_models import WATER_PLANS
from storage.dialect import insert_unless_exists
from storage.models import USERS
from storage.records import Addressee, Prefs, UserRecord


async def ensure_and_lock_user(
    session: Session, wecom_user_id: str, *, timezone: str, now: dt.datetime
) -> UserRecord:
    """Return the user with this WeCom UserID, creating it if needed, and lock its row.

    Holding the row lock until commit serialises one user's messages, so choices that
    read-then-write (the next task number, what `撤销` reverses) never race.
    (SQLite ignores FOR UPDATE; its `BEGIN IMMEDIATE` already serialises writers.)
    """
    row = (await session.execute(_LOCK_USER, {"wecom_user_id": wecom_user_id})).first()
    if row is None:  # first contact: rare, so the common path is one statement
        values = {"wecom_user_id": wecom_user_id, "timezone": timezone, "created_at": now}
        await insert_unless_exists(session, USERS, values)
        row = (await session.execute(_LOCK_USER, {"wecom_user_id": wecom_user_id})).one()
    return UserRecord(
        id=row.id,
        wecom_user_id=wecom_user_id,
        timezone=row.timezone,
        quiet_until=row.quiet_until,
        cards=bool(row.cards),
        defaults_version=row.defaults_version,
        missed_since=row.missed_since,
        pending_guess=row.pending_guess,
        pending_guess_at=row.pending_guess_at,
        water_notice_owed=row.water_notice is not None,
    )


# Read with the user (one statement less per message): whether the water plan owes a
# pause notice. A subquery in the select list is read without a lock on MySQL/MariaDB
# ("a locking read clause in an outer statement does not lock the rows of a table in a
# nested subquery"), so a message never holds the plan's row: the tick locks it.
_WATER_NOTICE = (
    select(WATER_PLANS.c.pause_notice)
    .where(WATER_PLANS.c.user_id == USERS.c.id)
    .scalar_subquery()
    .label("water_notice")
)


_LOCK_USER = (
    select(
        USERS.c.id,
        USERS.c.timezone,
        USERS.c.quiet_until,
        USERS.c.cards,
        USERS.c.defaults_version,
        USERS.c.missed_since,
        USERS.c.pending_guess,
        USERS.c.pending_guess_at,
        _WATER_NOTICE,
    )
    .where(USERS.c.wecom_user_id == bindparam("wecom_user_id"))
    .with_for_update()
)


async def addressees(session: Session, user_ids: set[int]) -> dict[int, Addressee]:
    """Every given user's address and preferences, in one query (one per batch)."""
    if not user_ids:
        return {}
    stmt = select(
        USERS.c.id, USERS.c.wecom_user_id, USERS.c.timezone, USERS.c.quiet_until, USERS.c.cards
    ).where(USERS.c.id.in_(user_ids))
    return {
        row.id: Addressee(
            user_id=row.id,
            wecom_user_id=row.wecom_user_id,
            prefs=Prefs(timezone=row.timezone, quiet_until=row.quiet_until, cards=bool(row.cards)),
        )
        for row in await session.execute(stmt)
    }


async def prefs(session: Session, user_id: int) -> Prefs:
    """The user's zone, quiet time and card choice."""
    return (await addressees(session, {user_id}))[user_id].prefs


async def update_user(session: Session, user_id: int, **values: object) -> None:
    """Set preference columns (`quiet_until`, `cards`, `defaults_version`, `missed_since`,
    `pending_guess` and `pending_guess_at`)."""
    await session.execute(update(USERS).where(USERS.c.id == user_id).values(**values))


async def mark_missed(session: Session, user_ids: set[int], *, since: dt.datetime) -> None:
    """Remember that reminders of these users expired unsent (unless already noted)."""
    if user_ids:
        await session.execute(
            update(USERS)
            .where(USERS.c.id.in_(user_ids), USERS.c.missed_since.is_(None))
            .values(missed_since=since)
        )


async def count(session: Session) -> int:
    """How many users keeper knows (for 管理 状态)."""
    return int((await session.execute(select(func.count()).select_from(USERS))).scalar_one())
