"""The one retry policy (scheduler/core/outcomes.py): what a send's result means for its job."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from scheduler.core.channel import SendResult
from scheduler.core.outcomes import (
    BACKOFF_BASE_S,
    BACKOFF_CAP_S,
    MAX_ATTEMPTS,
    backoff,
    crashed,
    decide,
    jittered,
    lease_lost,
)
from storage.records import JobRecord

NOW = dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC)


def job(policy: str = "at_most_once", attempts: int = 1) -> JobRecord:
    return JobRecord(
        id=7,
        user_id=1,
        rule_id=1,
        slot=NOW,
        status="processing",
        policy=policy,
        priority="normal",
        channel="wecom_app",
        recipient="someone",
        payload_kind="custom",
        payload_ref=None,
        attempts=attempts,
        lease_owner="w",
    )


def result(outcome: str, retry_after: float | None = None) -> SendResult:
    return SendResult(
        outcome=outcome,  # type: ignore[arg-type]
        error_class={"accepted": "none", "failed": "config", "unknown": "uncertain"}.get(
            outcome, "transient"
        ),
        provider_code=60020 if outcome == "failed" else None,
        provider_message_id=None,
        error="",
        retry_after=retry_after,
        duration_ms=1,
    )


# (policy, attempts so far, outcome) -> the job's next status
TABLE = {
    ("at_most_once", 1, "accepted"): "accepted",
    ("at_least_once", 1, "accepted"): "accepted",
    ("at_most_once", 1, "failed"): "failed",
    ("at_least_once", 1, "failed"): "failed",  # permanent or config: never retried
    ("at_most_once", 1, "unknown"): "unknown",  # never risk a duplicate
    ("at_least_once", 1, "unknown"): "retry_wait",  # resent with the duplicate check
    ("at_least_once", MAX_ATTEMPTS, "unknown"): "unknown",  # out of tries: stays uncertain
    ("at_most_once", 1, "retry"): "retry_wait",
    ("at_least_once", 1, "retry"): "retry_wait",
    ("at_most_once", MAX_ATTEMPTS - 1, "retry"): "retry_wait",
    ("at_most_once", MAX_ATTEMPTS, "retry"): "failed",  # transient errors exhausted
}


@pytest.mark.parametrize(
    ("key", "expected"), TABLE.items(), ids=["-".join(map(str, k)) for k in TABLE]
)
def test_each_result_moves_the_job_as_its_policy_says(
    key: tuple[str, int, str], expected: str
) -> None:
    policy, attempts, outcome = key
    decision = decide(job(policy, attempts), result(outcome), NOW)
    assert decision.status == expected
    assert (decision.next_attempt_at is not None) is (expected == "retry_wait")


def test_a_retry_waits_what_the_provider_asked_or_the_backoff() -> None:
    asked = decide(job(), result("retry", retry_after=60.0), NOW)
    assert asked.next_attempt_at == NOW + dt.timedelta(seconds=60)
    ours = decide(job(attempts=3), result("retry"), NOW)
    assert ours.next_attempt_at == NOW + dt.timedelta(seconds=backoff(7, 3))


def test_a_lost_lease_or_a_crashed_channel_is_an_uncertain_send() -> None:
    assert decide(job(), lease_lost(job()), NOW).status == "unknown"
    assert decide(job("at_least_once"), lease_lost(job()), NOW).status == "retry_wait"
    assert decide(job(), crashed("KeyError"), NOW).status == "unknown"


class Highest:
    """An rng that always draws the top of the range: shows the ceiling."""

    def uniform(self, a: float, b: float) -> float:
        return b


@pytest.mark.parametrize(
    ("attempt", "ceiling"),
    [(1, 30.0), (2, 60.0), (3, 120.0), (5, 480.0), (6, 900.0), (65, 900.0), (10_000, 900.0)],
)
def test_the_backoff_ceiling_doubles_up_to_the_cap(attempt: int, ceiling: float) -> None:
    assert (BACKOFF_BASE_S, BACKOFF_CAP_S) == (30.0, 900.0)
    assert jittered(attempt, rng=Highest()) == ceiling


def test_backoff_draws_between_half_the_ceiling_and_the_ceiling() -> None:
    rng = random.Random(1234)
    for attempt in range(1, 12):
        ceiling = min(100.0, 2.0 * 2 ** (attempt - 1))
        for _ in range(100):
            assert ceiling / 2 <= jittered(attempt, base=2.0, cap=100.0, rng=rng) <= ceiling


def test_a_jobs_backoff_is_reproducible_and_jobs_spread_out() -> None:
    assert backoff(7, 3) == backoff(7, 3)
    spread = {backoff(job_id, 3) for job_id in range(50)}
    assert len(spread) == 50
    assert min(spread) < 70.0 < max(spread)  # over [60, 120]


def test_attempts_count_from_one() -> None:
    with pytest.raises(ValueError, match="from 1"):
        jittered(0, rng=random.Random(0))
