"""Read models for the admin page (issue 13): jobs in a window, heartbeats, holds,
recent failed attempts. Read-only; the per-channel counts come from
`storage.repos.admin`, shared with `管理 状态`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import func, select

from storage.database import Session
from storage.delivery_models import ATTEMPTS, JOBS, TICKS
from storage.repos.admin import FAILURES
from storage.vocabulary import AttemptOutcome, ErrorClass


async def jobs_by_kind_since(session: Session, since: dt.datetime) -> dict[tuple[str, str], int]:
    """Jobs per (kind, status) whose slot is at or after `since`."""
    stmt = (
        select(JOBS.c.payload_kind, JOBS.c.status, func.count())
        .where(JOBS.c.scheduled_slot_utc >= since)
        .group_by(JOBS.c.payload_kind, JOBS.c.status)
    )
    return {(kind, status): int(n) for kind, status, n in await session.execute(stmt)}


async def heartbeats(session: Session) -> list[tuple[str, dt.datetime, int]]:
    """Each scheduler process's last completed tick: (worker, at, duration ms), newest first."""
    stmt = select(TICKS.c.worker, TICKS.c.last_tick_at, TICKS.c.last_duration_ms).order_by(
        TICKS.c.last_tick_at.desc()
    )
    return [(r.worker, r.last_tick_at, r.last_duration_ms) for r in await session.execute(stmt)]


@dataclass(frozen=True, kw_only=True, slots=True)
class FailedAttempt:
    """A failed, unknown or retried channel call; `error` is as stored (redacted when
    written) and `recipient` is the full UserID: the caller masks it."""

    job_id: int
    kind: str
    channel: str
    recipient: str
    started_at: dt.datetime
    outcome: str
    error_class: str
    provider_code: int | None
    error: str


async def recent_failures(session: Session, limit: int = 20) -> list[FailedAttempt]:
    stmt = (
        select(
            ATTEMPTS.c.job_id,
            JOBS.c.payload_kind,
            ATTEMPTS.c.channel,
            JOBS.c.recipient,
            ATTEMPTS.c.started_at,
            ATTEMPTS.c.outcome,
            ATTEMPTS.c.error_class,
            ATTEMPTS.c.provider_code,
            ATTEMPTS.c.error,
        )
        .join(JOBS, JOBS.c.id == ATTEMPTS.c.job_id)
        .where(ATTEMPTS.c.outcome.in_(FAILURES))
        .order_by(ATTEMPTS.c.started_at.desc(), ATTEMPTS.c.id.desc())
        .limit(limit)
    )
    return [
        FailedAttempt(
            job_id=r.job_id,
            kind=r.payload_kind,
            channel=r.channel,
            recipient=r.recipient,
            started_at=r.started_at,
            outcome=r.outcome,
            error_class=r.error_class,
            provider_code=r.provider_code,
            error=r.error,
        )
        for r in await session.execute(stmt)
    ]


async def last_config_error(
    session: Session, channel: str
) -> tuple[dt.datetime, int | None] | None:
    """The channel's latest configuration error (what holds a channel), when no send
    was accepted after it: (when, provider code)."""
    stmt = (
        select(ATTEMPTS.c.started_at, ATTEMPTS.c.provider_code)
        .where(ATTEMPTS.c.channel == channel, ATTEMPTS.c.error_class == ErrorClass.CONFIG)
        .order_by(ATTEMPTS.c.started_at.desc())
        .limit(1)
    )
    row = (await session.execute(stmt)).first()
    if row is None:
        return None
    accepted_after = select(ATTEMPTS.c.id).where(
        ATTEMPTS.c.channel == channel,
        ATTEMPTS.c.outcome == AttemptOutcome.ACCEPTED,
        ATTEMPTS.c.started_at > row.started_at,
    )
    if (await session.execute(accepted_after.limit(1))).first() is not None:
        return None
    return row.started_at, row.provider_code
