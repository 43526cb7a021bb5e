"""The mini-program's rows: identities, subscribe answers, the action log, link codes.

Every write that a retried request could repeat is keyed by a unique constraint and
goes through `insert_unless_exists`, so a retry (or two racing copies of one request)
finds the first one's row instead of making a second.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import delete, select, update

from storage.database import Session
from storage.delivery_models import WATER_GRANTS, WATER_PLANS
from storage.dialect import insert_unless_exists
from storage.models import USERS, WATER_CHECKINS
from storage.mp_models import MP_ACTIONS, MP_GRANT_ANSWERS, MP_IDENTITIES, MP_LINK_CODES
from storage.vocabulary import GrantStatus


@dataclass(frozen=True, kw_only=True, slots=True)
class Identity:
    openid: str
    user_id: int
    own_user_id: int
    linked: bool
    link_failures: int
    link_failed_at: dt.datetime | None


async def identity(session: Session, openid: str, *, lock: bool = False) -> Identity | None:
    """The openid's identity; `lock` holds its row until commit (MariaDB; SQLite's
    single writer already serialises), and reads the latest committed row."""
    stmt = select(MP_IDENTITIES).where(MP_IDENTITIES.c.openid == openid)
    if lock and session.dialect.name != "sqlite":
        stmt = stmt.with_for_update()
    row = (await session.execute(stmt)).first()
    if row is None:
        return None
    return Identity(
        openid=row.openid,
        user_id=row.user_id,
        own_user_id=row.own_user_id,
        linked=row.linked_at is not None,
        link_failures=row.link_failures,
        link_failed_at=row.link_failed_at,
    )


async def add_identity(session: Session, *, openid: str, user_id: int, now: dt.datetime) -> None:
    """The openid's identity acting as its own user (a racing first login adds none)."""
    values = {"openid": openid, "user_id": user_id, "own_user_id": user_id, "created_at": now}
    await insert_unless_exists(session, MP_IDENTITIES, values)


async def openid_of(session: Session, user_id: int) -> str | None:
    """The openid acting as `user_id` (the latest linked, if several), or None."""
    stmt = (
        select(MP_IDENTITIES.c.openid)
        .where(MP_IDENTITIES.c.user_id == user_id)
        .order_by(MP_IDENTITIES.c.id.desc())
        .limit(1)
    )
    return (await session.execute(stmt)).scalar_one_or_none()


async def add_answer(
    session: Session, *, openid: str, request_id: str, result: str, user_id: int, now: dt.datetime
) -> bool:
    """Record a subscribe answer; False if this (openid, request_id) was already here."""
    values = {
        "openid": openid,
        "request_id": request_id,
        "result": result,
        "user_id": user_id,
        "created_at": now,
    }
    return await insert_unless_exists(session, MP_GRANT_ANSWERS, values) is not None


async def answer_of(session: Session, openid: str, request_id: str) -> str | None:
    stmt = select(MP_GRANT_ANSWERS.c.result).where(
        MP_GRANT_ANSWERS.c.openid == openid, MP_GRANT_ANSWERS.c.request_id == request_id
    )
    return (await session.execute(stmt)).scalar_one_or_none()


@dataclass(frozen=True, kw_only=True, slots=True)
class StoredAction:
    answer: str
    """The answer given ("" while unsettled)."""
    digest: str | None
    """The first request's digest (None: stored before migration 0019)."""


async def claim_action(
    session: Session, *, action_id: str, openid: str, user_id: int, now: dt.datetime, digest: str
) -> bool:
    """Start the action's row (answer to follow in the same transaction); False if it
    exists. A racing copy waits on the unique key until the first commits (MariaDB) or
    for the write lock (SQLite), then sees the row and reads the stored answer."""
    values = {
        "action_id": action_id,
        "openid": openid,
        "user_id": user_id,
        "answer": "",
        "created_at": now,
        "request_digest": digest,
    }
    return await insert_unless_exists(session, MP_ACTIONS, values) is not None


async def stored_action(session: Session, openid: str, action_id: str) -> StoredAction | None:
    """This openid's action as first recorded, or None."""
    stmt = select(MP_ACTIONS.c.answer, MP_ACTIONS.c.request_digest).where(
        MP_ACTIONS.c.openid == openid, MP_ACTIONS.c.action_id == action_id
    )
    row = (await session.execute(stmt)).first()
    return None if row is None else StoredAction(answer=row.answer, digest=row.request_digest)


async def action_answer(session: Session, openid: str, action_id: str) -> str | None:
    """The stored answer of this openid's action ("" while unsettled), or None."""
    stored = await stored_action(session, openid, action_id)
    return None if stored is None else stored.answer


async def set_action_answer(session: Session, openid: str, action_id: str, answer: str) -> None:
    stmt = (
        update(MP_ACTIONS)
        .where(MP_ACTIONS.c.openid == openid, MP_ACTIONS.c.action_id == action_id)
        .values(answer=answer)
    )
    await session.execute(stmt)


async def replace_link_code(
    session: Session, *, user_id: int, code_hash: str, now: dt.datetime, expires_at: dt.datetime
) -> bool:
    """The member's one live code becomes this one (older and expired codes go);
    False when the hash clashes with another member's live code (draw again)."""
    await session.execute(
        delete(MP_LINK_CODES).where(
            (MP_LINK_CODES.c.user_id == user_id) | (MP_LINK_CODES.c.expires_at <= now)
        )
    )
    values = {
        "code_hash": code_hash,
        "user_id": user_id,
        "created_at": now,
        "expires_at": expires_at,
    }
    return await insert_unless_exists(session, MP_LINK_CODES, values) is not None


async def use_link_code(session: Session, code_hash: str, now: dt.datetime) -> int | None:
    """The member a live, unused code belongs to, marking it used (a conditional UPDATE:
    two racing uses of one code, one wins); None for a wrong, used or expired code."""
    stmt = select(MP_LINK_CODES.c.id, MP_LINK_CODES.c.user_id).where(
        MP_LINK_CODES.c.code_hash == code_hash,
        MP_LINK_CODES.c.used_at.is_(None),
        MP_LINK_CODES.c.expires_at > now,
    )
    row = (await session.execute(stmt)).first()
    if row is None:
        return None
    used = await session.execute(
        update(MP_LINK_CODES)
        .where(MP_LINK_CODES.c.id == row.id, MP_LINK_CODES.c.used_at.is_(None))
        .values(used_at=now)
    )
    return int(row.user_id) if used.rowcount else None


async def note_link_failure(session: Session, openid: str, failures: int, now: dt.datetime) -> None:
    await session.execute(
        update(MP_IDENTITIES)
        .where(MP_IDENTITIES.c.openid == openid)
        .values(link_failures=failures, link_failed_at=now)
    )


async def link(session: Session, openid: str, user_id: int, now: dt.datetime) -> None:
    """The identity acts as `user_id` from now on."""
    await session.execute(
        update(MP_IDENTITIES)
        .where(MP_IDENTITIES.c.openid == openid)
        .values(user_id=user_id, linked_at=now, link_failures=0)
    )


async def move_water(session: Session, from_user: int, to_user: int) -> int:
    """Move every glass of `from_user` to `to_user`; how many rows moved."""
    stmt = (
        update(WATER_CHECKINS).where(WATER_CHECKINS.c.user_id == from_user).values(user_id=to_user)
    )
    return int((await session.execute(stmt)).rowcount)


async def lock_user(session: Session, user_id: int) -> None:
    """Hold the user's row until commit (MySQL/MariaDB), as a chat message does: one
    user's API writes (and a racing copy of one request) run one after the other, so
    the plan and its rule are created once. SQLite's single writer already does this."""
    stmt = select(USERS.c.id).where(USERS.c.id == user_id)
    if session.dialect.name != "sqlite":
        stmt = stmt.with_for_update()
    await session.execute(stmt)


async def mp_grant_available(session: Session, user_id: int) -> bool:
    """Whether the user's plan holds an available grant made by a subscribe accept
    (key `mp:...`): its reminder must then leave as a subscribe message."""
    stmt = (
        select(WATER_GRANTS.c.id)
        .join(WATER_PLANS, WATER_PLANS.c.id == WATER_GRANTS.c.plan_id)
        .where(
            WATER_PLANS.c.user_id == user_id,
            WATER_GRANTS.c.state == GrantStatus.AVAILABLE,
            WATER_GRANTS.c.request_key.like("mp:%"),
        )
        .limit(1)
    )
    return (await session.execute(stmt)).first() is not None


async def last_grant_from_mp(session: Session, user_id: int) -> bool:
    """Whether the plan's newest grant (the one available, reserved or last used) came
    through the mini-program (key `mp:...`): only then is a reject there about the
    reminders this plan sends."""
    stmt = (
        select(WATER_GRANTS.c.request_key)
        .join(WATER_PLANS, WATER_PLANS.c.id == WATER_GRANTS.c.plan_id)
        .where(WATER_PLANS.c.user_id == user_id)
        .order_by(WATER_GRANTS.c.id.desc())
        .limit(1)
    )
    key = (await session.execute(stmt)).scalar_one_or_none()
    return key is not None and key.startswith("mp:")
