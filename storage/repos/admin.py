"""Read models for the admin (管理 状态, /metrics): delivery counts per channel and per
kind, failure causes, the waiting queue; and settling an unknown send by hand.

Totals are all-time: what the live tables hold plus what the retention run counted
before pruning (`storage.repos.day_counts`), so pruning never changes one."""

from __future__ import annotations

from sqlalchemy import func, select, update

from storage.database import Session
from storage.delivery_models import ATTEMPTS, JOBS
from storage.records import ChannelStats, FailureCause, JobRecord
from storage.repos import attempts, day_counts, job_claims
from storage.vocabulary import CLAIMABLE, AttemptOutcome, Evidence, JobStatus

FAILURES = (AttemptOutcome.FAILED, AttemptOutcome.UNKNOWN, AttemptOutcome.RETRY)
"""Attempt outcomes that count as a failed try (suppressed/cancelled jobs tried nothing)."""
NOT_SENT = (JobStatus.SUPPRESSED, JobStatus.CANCELLED, JobStatus.EXPIRED)
"""Job statuses, counted among a channel's figures next to the attempt outcomes, of a
job that ended without a try."""


async def channel_stats(session: Session) -> list[ChannelStats]:
    """One row per channel that has (or had, before pruning) jobs."""
    channels = set((await session.execute(select(JOBS.c.channel).distinct())).scalars())
    channels |= await day_counts.channels(session)
    totals = await attempts.count_by_channel_outcome(session)
    return [await _stats(session, channel, totals) for channel in sorted(channels)]


async def _stats(
    session: Session, channel: str, totals: dict[tuple[str, str], int]
) -> ChannelStats:
    by_outcome = {outcome: n for (ch, outcome), n in totals.items() if ch == channel}
    live_success = (
        await session.execute(
            select(func.max(ATTEMPTS.c.started_at)).where(
                ATTEMPTS.c.channel == channel, ATTEMPTS.c.outcome == AttemptOutcome.ACCEPTED
            )
        )
    ).scalar_one_or_none()
    last_success = live_success or await day_counts.last_success(session, channel)
    since = select(func.count()).where(
        ATTEMPTS.c.channel == channel, ATTEMPTS.c.outcome.in_(FAILURES)
    )
    if last_success is not None:
        since = since.where(ATTEMPTS.c.started_at > last_success)
    pruned_failures = await day_counts.failures_after(session, channel, FAILURES, last_success)
    waiting = (
        await session.execute(
            select(func.count(), func.min(JOBS.c.next_attempt_at)).where(
                JOBS.c.channel == channel, JOBS.c.status.in_(CLAIMABLE)
            )
        )
    ).one()
    return ChannelStats(
        channel=channel,
        accepted=by_outcome.get(AttemptOutcome.ACCEPTED, 0),
        failed=by_outcome.get(AttemptOutcome.FAILED, 0),
        unknown=by_outcome.get(AttemptOutcome.UNKNOWN, 0),
        retries=by_outcome.get(AttemptOutcome.RETRY, 0),
        not_sent=sum(by_outcome.get(o, 0) for o in NOT_SENT),
        last_success=last_success,
        consecutive_failures=int((await session.execute(since)).scalar_one()) + pruned_failures,
        waiting=int(waiting[0]),
        oldest_waiting=waiting[1],
    )


async def failure_causes(session: Session) -> list[FailureCause]:
    """Failed and retried attempts grouped by channel and cause, most frequent first."""
    tried = (AttemptOutcome.FAILED, AttemptOutcome.RETRY)
    stmt = (
        select(ATTEMPTS.c.channel, ATTEMPTS.c.error_class, ATTEMPTS.c.provider_code, func.count())
        .where(ATTEMPTS.c.outcome.in_(tried))
        .group_by(ATTEMPTS.c.channel, ATTEMPTS.c.error_class, ATTEMPTS.c.provider_code)
    )
    counts = day_counts.with_live(
        await day_counts.causes(session, tried), await session.execute(stmt)
    )
    found = [
        FailureCause(channel=ch, error_class=cls, provider_code=code, count=n)
        for (ch, cls, code), n in counts.items()
    ]
    return sorted(found, key=lambda c: (c.channel, -c.count, c.error_class, c.provider_code or 0))


async def settle_unknown(session: Session, job_id: int, *, received: bool, note: str) -> bool:
    """Record an admin's word on an `unknown` job: its last attempt is marked
    received or missing. False if there is no such unknown job."""
    row = (
        await session.execute(
            select(JOBS.c.id).where(JOBS.c.id == job_id, JOBS.c.status == JobStatus.UNKNOWN)
        )
    ).first()
    if row is None:
        return False
    last = (
        select(func.max(ATTEMPTS.c.attempt_no)).where(ATTEMPTS.c.job_id == job_id).scalar_subquery()
    )
    await session.execute(
        update(ATTEMPTS)
        .where(ATTEMPTS.c.job_id == job_id, ATTEMPTS.c.attempt_no == last)
        .values(settled=Evidence.RECEIVED if received else Evidence.MISSING)
    )
    await session.execute(update(JOBS).where(JOBS.c.id == job_id).values(outcome_note=note[:200]))
    return True


async def next_pending(session: Session) -> JobRecord | None:
    """The waiting job due soonest (for 管理 状态)."""
    stmt = (
        select(JOBS.c.id)
        .where(JOBS.c.status.in_(CLAIMABLE))
        .order_by(JOBS.c.next_attempt_at, JOBS.c.id)
        .limit(1)
    )
    job_id = (await session.execute(stmt)).scalar_one_or_none()
    return None if job_id is None else await job_claims.get(session, job_id)


async def count_by_kind(session: Session) -> dict[tuple[str, str], int]:
    """Jobs per (payload kind, status): every sent or suppressed occurrence counted."""
    stmt = select(JOBS.c.payload_kind, JOBS.c.status, func.count()).group_by(
        JOBS.c.payload_kind, JOBS.c.status
    )
    return day_counts.with_live(await day_counts.job_totals(session), await session.execute(stmt))
