"""Delivery evidence and device checks: the rows behind `scheduler.core.evidence`.

Reads and conditional writes only; which delivery an answer means and what may be
raised to what is decided above (`services.evidence`). Every raise is one UPDATE
that names the weaker evidence it replaces, so two answers racing never lower it.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Collection
from typing import Any, cast

from sqlalchemy import CursorResult, Select, bindparam, func, insert, or_, select, update

from storage.channel_models import DEVICE_CHECKS
from storage.database import Session
from storage.delivery_models import JOBS
from storage.records import DeviceCheckRecord
from storage.vocabulary import JobStatus

WENT_OUT = (JobStatus.ACCEPTED, JobStatus.UNKNOWN)
"""A job whose message went out, or may have: an answer may be about it."""


async def latest_sent(
    session: Session,
    user_id: int,
    *,
    since: dt.datetime,
    kinds: Collection[str] = (),
    rule_ids: Collection[int] = (),
) -> int | None:
    """The id of the user's latest job that went out since `since`, of one of `kinds`
    or one of `rule_ids` (either may be empty, not both); None when there is none."""
    if not kinds and not rule_ids:
        return None
    params: dict[str, object] = {"user_id": user_id, "since": since}
    if kinds:
        params["kinds"] = list(kinds)
    if rule_ids:
        params["rule_ids"] = list(rule_ids)
    stmt = _latest_sent(bool(kinds), bool(rule_ids))
    return cast(int | None, (await session.execute(stmt, params)).scalar())


@functools.cache
def _latest_sent(by_kind: bool, by_rule: bool) -> Select[tuple[int]]:
    """Built once per shape, its values bound at execution: a water check-in asks on
    every message, and building the statement each time cost three times running it
    (1.4 ms against 0.4 ms of CPU on SQLite, measured)."""
    wanted = []
    if by_kind:
        wanted.append(JOBS.c.payload_kind.in_(bindparam("kinds", expanding=True)))
    if by_rule:
        wanted.append(JOBS.c.rule_id.in_(bindparam("rule_ids", expanding=True)))
    return (
        select(JOBS.c.id)
        .where(
            JOBS.c.user_id == bindparam("user_id"),
            JOBS.c.status.in_(WENT_OUT),
            JOBS.c.finished_at >= bindparam("since"),
            or_(*wanted),
        )
        .order_by(JOBS.c.finished_at.desc(), JOBS.c.id.desc())
        .limit(1)
    )


async def raise_evidence(
    session: Session, job_id: int, *, to: str, weaker: Collection[str], now: dt.datetime
) -> bool:
    """Set the job's evidence to `to` if it holds nothing yet or one of `weaker`;
    False when it already had `to` or stronger."""
    stmt = (
        update(JOBS)
        .where(JOBS.c.id == job_id, or_(JOBS.c.evidence.is_(None), JOBS.c.evidence.in_(weaker)))
        .values(evidence=to, evidence_at=now)
    )
    return bool(cast(CursorResult[Any], await session.execute(stmt)).rowcount)


async def evidence_of(session: Session, job_id: int) -> tuple[str | None, dt.datetime | None]:
    """A job's evidence and when it was learned (None, None: no such job or none)."""
    row = (
        await session.execute(
            select(JOBS.c.evidence, JOBS.c.evidence_at).where(JOBS.c.id == job_id)
        )
    ).first()
    return (None, None) if row is None else (row.evidence, row.evidence_at)


async def evidence_by_channel(
    session: Session, *, since: dt.datetime, kinds: Collection[str], user_id: int | None = None
) -> dict[str, list[tuple[str | None, int]]]:
    """Per channel, how many jobs of `kinds` that went out since `since` hold each
    evidence (of one user, or of everyone): what the answered share is computed from."""
    stmt = (
        select(JOBS.c.channel, JOBS.c.evidence, func.count())
        .where(
            JOBS.c.status.in_(WENT_OUT),
            JOBS.c.finished_at >= since,
            JOBS.c.payload_kind.in_(kinds),
        )
        .group_by(JOBS.c.channel, JOBS.c.evidence)
    )
    if user_id is not None:
        stmt = stmt.where(JOBS.c.user_id == user_id)
    found: dict[str, list[tuple[str | None, int]]] = {}
    for channel, evidence, n in await session.execute(stmt):
        found.setdefault(channel, []).append((evidence, int(n)))
    return found


async def add_check(
    session: Session, user_id: int, channel: str, *, job_id: int | None, now: dt.datetime
) -> None:
    """A channel test asked for now, waiting for its `收到`."""
    row = {"user_id": user_id, "channel": channel, "job_id": job_id, "sent_at": now}
    await session.execute(insert(DEVICE_CHECKS).values(**row))


def _record(row: Any) -> DeviceCheckRecord:
    return DeviceCheckRecord(
        id=row.id,
        user_id=row.user_id,
        channel=row.channel,
        sent_at=row.sent_at,
        confirmed_at=row.confirmed_at,
    )


_COLUMNS = (
    DEVICE_CHECKS.c.id,
    DEVICE_CHECKS.c.user_id,
    DEVICE_CHECKS.c.channel,
    DEVICE_CHECKS.c.sent_at,
    DEVICE_CHECKS.c.confirmed_at,
)


async def waiting_checks(
    session: Session, user_id: int, *, since: dt.datetime
) -> list[DeviceCheckRecord]:
    """The user's unconfirmed tests asked for since `since`, newest first."""
    stmt = (
        select(*_COLUMNS)
        .where(
            DEVICE_CHECKS.c.user_id == user_id,
            DEVICE_CHECKS.c.confirmed_at.is_(None),
            DEVICE_CHECKS.c.sent_at >= since,
        )
        .order_by(DEVICE_CHECKS.c.sent_at.desc(), DEVICE_CHECKS.c.id.desc())
    )
    return [_record(row) for row in await session.execute(stmt)]


async def confirm(session: Session, check_ids: Collection[int], *, now: dt.datetime) -> int:
    """Mark these tests confirmed (those not confirmed already); how many were."""
    if not check_ids:
        return 0
    stmt = (
        update(DEVICE_CHECKS)
        .where(DEVICE_CHECKS.c.id.in_(check_ids), DEVICE_CHECKS.c.confirmed_at.is_(None))
        .values(confirmed_at=now)
    )
    return int(cast(CursorResult[Any], await session.execute(stmt)).rowcount)


async def last_checks(
    session: Session, user_ids: Collection[int] | None = None
) -> dict[tuple[int, str], DeviceCheckRecord]:
    """Per (user, channel), the latest confirmed test, else the latest test asked for:
    what the views show (of these users, or of everyone)."""
    stmt = select(*_COLUMNS).order_by(DEVICE_CHECKS.c.sent_at, DEVICE_CHECKS.c.id)
    if user_ids is not None:
        stmt = stmt.where(DEVICE_CHECKS.c.user_id.in_(user_ids))
    found: dict[tuple[int, str], DeviceCheckRecord] = {}
    for row in await session.execute(stmt):
        check = _record(row)
        key = (check.user_id, check.channel)
        before = found.get(key)
        if before is None or check.confirmed_at is not None or before.confirmed_at is None:
            found[key] = check
    return found
