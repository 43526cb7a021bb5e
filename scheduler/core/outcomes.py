"""What a send's result means for its job: one pure decision, tested as a table.

The policy is data on the job: `at_most_once` jobs whose result is uncertain end
`unknown` and are never resent; `at_least_once` jobs go back to `retry_wait` and are
resent with the provider's duplicate check. Transient errors are retried with
backoff up to `MAX_ATTEMPTS`; permanent and configuration errors fail at once.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from scheduler.core.channel import SendResult
from scheduler.core.job_state import after_unknown
from scheduler.core.redact import ERROR_MAX_CHARS, redact
from storage.records import AttemptRecord, JobRecord
from storage.vocabulary import AttemptOutcome, DeliveryPolicy, ErrorClass, JobStatus

MAX_ATTEMPTS = 5
BACKOFF_BASE_S = 30.0
BACKOFF_CAP_S = 15 * 60.0


@dataclass(frozen=True, kw_only=True, slots=True)
class Decision:
    status: str
    next_attempt_at: dt.datetime | None = None
    note: str = ""


def decide(job: JobRecord, result: SendResult, now: dt.datetime) -> Decision:
    """The job's next state after `result` (its `attempts` already counts this try)."""
    if result.outcome == AttemptOutcome.ACCEPTED:
        return Decision(status=JobStatus.ACCEPTED)
    if result.outcome == AttemptOutcome.FAILED:
        return Decision(
            status=JobStatus.FAILED, note=f"{result.error_class}: {result.provider_code}"
        )
    if result.outcome == AttemptOutcome.UNKNOWN:
        resend = after_unknown(DeliveryPolicy(job.policy)) is JobStatus.RETRY_WAIT
        if resend and job.attempts < MAX_ATTEMPTS:
            return _retry(job, now, result, "uncertain; resend with duplicate check")
        return Decision(status=JobStatus.UNKNOWN, note="uncertain result; not resent")
    if job.attempts >= MAX_ATTEMPTS:
        return Decision(status=JobStatus.FAILED, note="transient errors; attempts exhausted")
    return _retry(job, now, result, "transient")


def _retry(job: JobRecord, now: dt.datetime, result: SendResult, note: str) -> Decision:
    delay = result.retry_after if result.retry_after is not None else backoff(job.id, job.attempts)
    return Decision(
        status=JobStatus.RETRY_WAIT, next_attempt_at=now + dt.timedelta(seconds=delay), note=note
    )


def backoff(job_id: int, attempt: int) -> float:
    """Seconds before retry `attempt` of a job: `jittered` with a draw fixed per
    (job, attempt), so a replayed decision is the same decision, and jobs that
    failed together spread out instead of retrying in lockstep."""
    return jittered(attempt, rng=random.Random(job_id * 1009 + attempt))


class Uniform(Protocol):
    """The part of `random.Random` that `jittered` uses."""

    def uniform(self, a: float, b: float) -> float: ...


def jittered(
    attempt: int, *, rng: Uniform, base: float = BACKOFF_BASE_S, cap: float = BACKOFF_CAP_S
) -> float:
    """Exponential backoff with "equal jitter": uniform in [ceiling / 2, ceiling],
    ceiling = min(cap, base * 2**(attempt-1)). Half the wait is kept so a retry
    never comes right back; the other half is spread.

    Raises:
        ValueError: attempt < 1 (attempts count from 1).
    """
    if attempt < 1:
        raise ValueError("attempt counts from 1")
    ceiling = cap if attempt > 64 else min(cap, base * 2 ** (attempt - 1))
    return float(rng.uniform(ceiling / 2, ceiling))


def lease_lost(job: JobRecord) -> SendResult:
    """What a job whose worker vanished mid-send counts as: an uncertain send, so
    `decide` applies the policy (`job_state.after_unknown`). Only for a job whose
    send had started; one that never started is released (`job_claims.release`)."""
    return SendResult(
        outcome=AttemptOutcome.UNKNOWN,
        error_class=ErrorClass.UNCERTAIN,
        provider_code=None,
        provider_message_id=None,
        error="lease expired before the worker finished",
        retry_after=None,
        duration_ms=0,
    )


def crashed(exception_name: str) -> SendResult:
    """The channel raised instead of returning: we cannot know whether it sent."""
    return SendResult(
        outcome=AttemptOutcome.UNKNOWN,
        error_class=ErrorClass.UNCERTAIN,
        provider_code=None,
        provider_message_id=None,
        error=f"channel raised {exception_name}",
        retry_after=None,
        duration_ms=0,
    )


def attempt(
    job: JobRecord, result: SendResult, now: dt.datetime, secrets: Iterable[str]
) -> AttemptRecord:
    """The attempt row of one send. Its error text is redacted again here, the last
    step before storage: secrets, the job's recipient and every known UserID
    (`scheduler.core.redact`), whatever the channel already did."""
    return AttemptRecord(
        job_id=job.id,
        attempt_no=job.attempts,
        channel=job.channel,
        started_at=now - dt.timedelta(milliseconds=result.duration_ms),
        duration_ms=int(result.duration_ms),
        outcome=result.outcome,
        error_class=result.error_class,
        provider_code=result.provider_code,
        provider_message_id=result.provider_message_id,
        error=redact(result.error, secrets, users=(job.recipient,), max_length=ERROR_MAX_CHARS),
    )


def not_sent(job: JobRecord, status: str, reason: str, now: dt.datetime) -> AttemptRecord:
    """The record of a job finished without a channel call (suppressed, cancelled):
    the attempts table shows every occurrence, sent or not, and why."""
    return AttemptRecord(
        job_id=job.id,
        attempt_no=job.attempts,
        channel=job.channel,
        started_at=now,
        duration_ms=0,
        outcome=status,
        error_class=ErrorClass.NONE,
        provider_code=None,
        provider_message_id=None,
        error=reason[:500],
    )
