"""Users: created on first contact, locked for the length of a message's transaction."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Row, Select, bindparam, func, select, update

from storage.database import Session
from storage.delivery_models import WATER_PLANS
from storage.dialect import insert_unless_exists
from storage.models import INBOUND, USERS
from storage.records import Addressee, Prefs, UserRecord
from storage.vocabulary import PlanState


async def ensure_and_lock_user(
    session: Session, wecom_user_id: str, *, timezone: str, now: dt.datetime
) -> UserRecord:
    """Return the user with this WeCom UserID, creating it if needed, and lock its row.

    Holding the row lock until commit serialises one user's messages, so choices that
    read-then-write (the next task number, what `撤销` reverses) never race.
    (SQLite ignores FOR UPDATE; its `BEGIN IMMEDIATE` already serialises writers.)
    """
    params = {"wecom_user_id": wecom_user_id}
    return _record(await _locked_row(session, _LOCK_USER, params, timezone, now))


async def lock_for_message(
    session: Session, wecom_user_id: str, message_key: str, *, timezone: str, now: dt.datetime
) -> tuple[UserRecord, bool]:
    """`ensure_and_lock_user`, and in the same statement whether a message with this
    dedup key is recorded already (True: a retry; answer it with the stored reply).

    Safe against a concurrent delivery of the same message because a key names its
    sender (`bot.incoming`): both deliveries lock this user's row, so the second reads
    only once the first has committed or rolled back. The read is a subquery tied to
    the locked row (`inbound.user_id = users.id`), so MariaDB evaluates it after the
    lock is granted, under READ COMMITTED seeing what committed meanwhile; not tied to
    it, MariaDB evaluated it once before waiting, and missed the first's row
    (`tests/integration/test_repo_users_inbound.py` holds it to this). The unique key
    on `inbound_messages.dedup_key` stays the last word (`bot.conversation`).
    """
    params = {"wecom_user_id": wecom_user_id, "message_key": message_key}
    row = await _locked_row(session, _LOCK_USER_FOR_MESSAGE, params, timezone, now)
    return _record(row), row.seen is not None


async def _locked_row(
    session: Session, stmt: Select[Any], params: dict[str, str], timezone: str, now: dt.datetime
) -> Row[Any]:
    row: Row[Any] | None = (await session.execute(stmt, params)).first()
    if row is None:  # first contact: rare, so the common path is one statement
        wecom_user_id = params["wecom_user_id"]
        values = {"wecom_user_id": wecom_user_id, "timezone": timezone, "created_at": now}
        await insert_unless_exists(session, USERS, values)
        row = (await session.execute(stmt, params)).one()
    return row


def _record(row: Row[Any]) -> UserRecord:
    return UserRecord(
        id=row.id,
        wecom_user_id=row.wecom_user_id,
        timezone=row.timezone,
        quiet_until=row.quiet_until,
        cards=bool(row.cards),
        defaults_version=row.defaults_version,
        missed_since=row.missed_since,
        pending_guess=row.pending_guess,
        pending_guess_at=row.pending_guess_at,
        water_notice_owed=row.water_notice is not None,
        water_plan_on=row.water_state not in (None, PlanState.DISABLED),
    )


# Read with the user (one statement less per message): whether the water plan owes a
# pause notice, and whether it is on at all (a check-in reads and locks the plan only
# then). A subquery in the select list is read without a lock on MySQL/MariaDB ("a
# locking read clause in an outer statement does not lock the rows of a table in a
# nested subquery"), so a message never holds the plan's row: the tick locks it.
_WATER_NOTICE = (
    select(WATER_PLANS.c.pause_notice)
    .where(WATER_PLANS.c.user_id == USERS.c.id)
    .scalar_subquery()
    .label("water_notice")
)
_WATER_STATE = (
    select(WATER_PLANS.c.state)
    .where(WATER_PLANS.c.user_id == USERS.c.id)
    .scalar_subquery()
    .label("water_state")
)


_LOCK_USER = (
    select(
        USERS.c.id,
        USERS.c.wecom_user_id,
        USERS.c.timezone,
        USERS.c.quiet_until,
        USERS.c.cards,
        USERS.c.defaults_version,
        USERS.c.missed_since,
        USERS.c.pending_guess,
        USERS.c.pending_guess_at,
        _WATER_NOTICE,
        _WATER_STATE,
    )
    .where(USERS.c.wecom_user_id == bindparam("wecom_user_id"))
    .with_for_update()
)
_SEEN = (
    select(INBOUND.c.id)
    .where(INBOUND.c.dedup_key == bindparam("message_key"), INBOUND.c.user_id == USERS.c.id)
    .scalar_subquery()
    .label("seen")
)
_LOCK_USER_FOR_MESSAGE = _LOCK_USER.add_columns(_SEEN)


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
