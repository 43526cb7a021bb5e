"""Delivery attempts: one row per channel call (or per job finished without one).

The per-recipient budget is computed from these rows, so it holds across processes.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select

from storage.database import Session
from storage.delivery_models import ATTEMPTS, JOBS
from storage.dialect import insert_into
from storage.records import AttemptRecord
from storage.repos import day_counts
from storage.vocabulary import UNBUDGETED, AttemptOutcome


async def record_attempt(session: Session, attempt: AttemptRecord) -> None:
    """Write one channel call's result (error already redacted by the caller)."""
    await session.execute(insert_into(ATTEMPTS), _row(attempt))


async def record_attempts(session: Session, records: list[AttemptRecord]) -> None:
    """Write many results in one statement (asyncmy and aiomysql send an executemany
    INSERT as one multi-row INSERT; SQLite runs it as one prepared statement)."""
    if records:
        await session.execute(insert_into(ATTEMPTS), [_row(attempt) for attempt in records])


def _row(attempt: AttemptRecord) -> dict[str, object]:
    return {
        "job_id": attempt.job_id,
        "attempt_no": attempt.attempt_no,
        "channel": attempt.channel,
        "started_at": attempt.started_at,
        "duration_ms": attempt.duration_ms,
        "outcome": attempt.outcome,
        "error_class": attempt.error_class,
        "provider_code": attempt.provider_code,
        "provider_message_id": attempt.provider_message_id,
        "error": attempt.error[:500],
        "settled": None,
    }


async def accepted_sends_since(
    session: Session, recipient: str, channel: str, since: dt.datetime
) -> list[dt.datetime]:
    """When this recipient's accepted messages on `channel` started, since `since`.

    What the per-recipient budget is computed from, so it holds across processes.
    Counts messages, not jobs: the jobs merged into one message share one attempt
    time and one provider message id; card updates are not messages.
    """
    sent = await accepted_sends_by_recipient(session, {recipient}, channel, since)
    return sent.get(recipient, [])


async def accepted_sends_by_recipient(
    session: Session, recipients: set[str], channel: str, since: dt.datetime
) -> dict[str, list[dt.datetime]]:
    """`accepted_sends_since` for many recipients in one statement (a batch's budget
    reads): recipient -> start times; a recipient with none is absent."""
    if not recipients:
        return {}
    stmt = (
        select(JOBS.c.recipient, ATTEMPTS.c.started_at)
        .join(JOBS, JOBS.c.id == ATTEMPTS.c.job_id)
        .where(
            JOBS.c.recipient.in_(recipients),
            JOBS.c.payload_kind.not_in(UNBUDGETED),
            ATTEMPTS.c.channel == channel,
            ATTEMPTS.c.outcome == AttemptOutcome.ACCEPTED,
            ATTEMPTS.c.started_at >= since,
        )
        .group_by(JOBS.c.recipient, ATTEMPTS.c.started_at, ATTEMPTS.c.provider_message_id)
    )
    sent: dict[str, list[dt.datetime]] = {}
    for recipient, started_at in await session.execute(stmt):
        sent.setdefault(recipient, []).append(started_at)
    return sent


async def count_by_channel_outcome(session: Session) -> dict[tuple[str, str], int]:
    """Every attempt ever recorded, per (channel, outcome): for the metrics endpoint.
    Pruned attempts count too (`day_counts`), so the counters never go back."""
    stmt = select(ATTEMPTS.c.channel, ATTEMPTS.c.outcome, func.count()).group_by(
        ATTEMPTS.c.channel, ATTEMPTS.c.outcome
    )
    return day_counts.with_live(
        await day_counts.attempt_totals(session), await session.execute(stmt)
    )


async def routes_and_outcomes(
    session: Session, job_ids: set[int]
) -> dict[int, set[tuple[str, str]]]:
    """The (channel, outcome) pairs each job's recorded attempts had (a job with none
    is absent): the fallback rule reads from them which roads a job took and whether
    any send may have arrived."""
    if not job_ids:
        return {}
    stmt = (
        select(ATTEMPTS.c.job_id, ATTEMPTS.c.channel, ATTEMPTS.c.outcome)
        .where(ATTEMPTS.c.job_id.in_(job_ids))
        .distinct()
    )
    found: dict[int, set[tuple[str, str]]] = {}
    for job_id, channel, outcome in await session.execute(stmt):
        found.setdefault(job_id, set()).add((channel, outcome))
    return found
