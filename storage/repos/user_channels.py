"""The receivers users bind (`user_channels`).

Writes run in the handler's transaction, which holds the user's row lock
(`users.ensure_and_lock_user`): two messages of one user never bind at once, so a
read-then-write here needs no lock of its own; the unique (user_id, channel) key
still keeps a second row out whatever happens.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from sqlalchemy import CursorResult, Row, delete, select, update

from storage.channel_models import USER_CHANNELS
from storage.database import Session
from storage.delivery_models import ATTEMPTS, JOBS
from storage.models import USERS
from storage.records import Receiver
from storage.vocabulary import AttemptOutcome, ChannelRole

ROLES = tuple(ChannelRole)


def _receiver(row: Row[Any]) -> Receiver:
    return Receiver(channel=row.channel, receiver=row.receiver, hint=row.hint, role=row.role)


async def receivers(session: Session, user_id: int) -> list[Receiver]:
    """The user's bound receivers, by channel name."""
    stmt = (
        select(USER_CHANNELS.c.channel, USER_CHANNELS.c.receiver, USER_CHANNELS.c.hint)
        .add_columns(USER_CHANNELS.c.role)
        .where(USER_CHANNELS.c.user_id == user_id)
        .order_by(USER_CHANNELS.c.channel)
    )
    return [_receiver(row) for row in await session.execute(stmt)]


async def bind(
    session: Session, user_id: int, channel: str, *, receiver: str, hint: str, now: dt.datetime
) -> bool:
    """Store (or replace) the user's receiver on `channel`, keeping its role; True
    when it is new."""
    values = {"receiver": receiver, "hint": hint, "updated_at": now}
    result = await session.execute(
        update(USER_CHANNELS)
        .where(USER_CHANNELS.c.user_id == user_id, USER_CHANNELS.c.channel == channel)
        .values(**values)
    )
    if cast(CursorResult[Any], result).rowcount:
        return False
    row = {"user_id": user_id, "channel": channel, "role": ChannelRole.NONE, "created_at": now}
    await session.execute(USER_CHANNELS.insert().values(**row, **values))
    return True


async def unbind(session: Session, user_id: int, channel: str) -> Receiver | None:
    """Delete the user's receiver on `channel`; what it was (None: there was none)."""
    found = [r for r in await receivers(session, user_id) if r.channel == channel]
    if not found:
        return None
    await session.execute(
        delete(USER_CHANNELS).where(
            USER_CHANNELS.c.user_id == user_id, USER_CHANNELS.c.channel == channel
        )
    )
    return found[0]


async def set_role(
    session: Session, user_id: int, channel: str | None, role: str, *, now: dt.datetime
) -> None:
    """Give `role` (primary or fallback) to the user's `channel` row and take it from
    any other (a user has one of each at most); `channel` None: nobody has it now.
    The WeCom app gets a row without a receiver when it takes a role."""
    if role not in ROLES[:2]:
        raise ValueError(f"unknown role {role!r}")
    await session.execute(
        update(USER_CHANNELS)
        .where(USER_CHANNELS.c.user_id == user_id, USER_CHANNELS.c.role == role)
        .values(role=ChannelRole.NONE, updated_at=now)
    )
    if channel is None:
        return
    mine = {r.channel for r in await receivers(session, user_id)}
    if channel not in mine:
        await bind(session, user_id, channel, receiver="", hint="", now=now)
    await session.execute(
        update(USER_CHANNELS)
        .where(USER_CHANNELS.c.user_id == user_id, USER_CHANNELS.c.channel == channel)
        .values(role=role, updated_at=now)
    )


async def with_role(session: Session, user_ids: set[int], role: str) -> dict[int, Receiver]:
    """Each given user's receiver holding `role`, in one query; the WeCom app's row
    gets the user's WeCom UserID as its receiver. A user without one is absent."""
    if not user_ids:
        return {}
    stmt = (
        select(
            USER_CHANNELS.c.user_id,
            USER_CHANNELS.c.channel,
            USER_CHANNELS.c.receiver,
            USER_CHANNELS.c.hint,
            USER_CHANNELS.c.role,
            USERS.c.wecom_user_id,
        )
        .join(USERS, USERS.c.id == USER_CHANNELS.c.user_id)
        .where(USER_CHANNELS.c.user_id.in_(user_ids), USER_CHANNELS.c.role == role)
    )
    found: dict[int, Receiver] = {}
    for row in await session.execute(stmt):
        address = row.wecom_user_id if row.channel == "wecom_app" else row.receiver
        found[row.user_id] = Receiver(
            channel=row.channel, receiver=address, hint=row.hint, role=row.role
        )
    return found


async def receiver_on(session: Session, user_id: int, channel: str) -> str | None:
    """The stored receiver (or ciphertext) of the user on `channel`; None: not bound."""
    stmt = select(USER_CHANNELS.c.receiver).where(
        USER_CHANNELS.c.user_id == user_id, USER_CHANNELS.c.channel == channel
    )
    value = (await session.execute(stmt)).scalar_one_or_none()
    return None if not value else str(value)


async def recent_outcomes(
    session: Session, user_id: int, since: dt.datetime
) -> dict[str, list[str]]:
    """The user's attempts since `since`, per channel, newest first (for 设置 渠道's
    health lines; sends only, not jobs finished unsent)."""
    stmt = (
        select(ATTEMPTS.c.channel, ATTEMPTS.c.outcome, ATTEMPTS.c.error_class)
        .join(JOBS, JOBS.c.id == ATTEMPTS.c.job_id)
        .where(
            JOBS.c.user_id == user_id,
            ATTEMPTS.c.started_at >= since,
            ATTEMPTS.c.outcome.in_(tuple(AttemptOutcome)),
        )
        .order_by(ATTEMPTS.c.started_at.desc(), ATTEMPTS.c.id.desc())
        .limit(200)
    )
    found: dict[str, list[str]] = {}
    for channel, outcome, error_class in await session.execute(stmt):
        label = outcome if outcome != AttemptOutcome.FAILED else f"failed:{error_class}"
        found.setdefault(channel, []).append(label)
    return found


async def sealed_after(
    session: Session, channel: str, after_id: int, limit: int
) -> list[tuple[int, int, str]]:
    """(row id, user id, stored value) of up to `limit` rows on `channel` with an id
    above `after_id`, by id: how `keeper rekey` and `keeper doctor` walk the sealed
    values a page at a time."""
    stmt = (
        select(USER_CHANNELS.c.id, USER_CHANNELS.c.user_id, USER_CHANNELS.c.receiver)
        .where(USER_CHANNELS.c.channel == channel, USER_CHANNELS.c.id > after_id)
        .order_by(USER_CHANNELS.c.id)
        .limit(limit)
    )
    return [(row.id, row.user_id, row.receiver) for row in await session.execute(stmt)]


async def replace_sealed(session: Session, row_id: int, *, old: str, new: str) -> bool:
    """Store `new` in place of `old` in row `row_id`, only if it still holds `old`
    (compare-and-set): a user who bound again or unbound meanwhile keeps what they
    did, and two `keeper rekey` runs never both write one row. True when written.
    `updated_at` is left alone: the binding did not change, only its seal."""
    result = await session.execute(
        update(USER_CHANNELS)
        .where(USER_CHANNELS.c.id == row_id, USER_CHANNELS.c.receiver == old)
        .values(receiver=new)
    )
    return bool(cast(CursorResult[Any], result).rowcount)
