"""The notification job's states, its delivery policies and catch-up (scheduler/core/job_state.py)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from scheduler.core.job_state import (
    TERMINAL,
    after_unknown,
    can_transition,
    catch_up_window,
    expiry_cutoff,
)
from storage.vocabulary import DeliveryPolicy, JobStatus, Priority

J = JobStatus

# DESIGN §6, restated here on purpose rather than read from the module under test,
# plus processing -> suppressed | cancelled (the re-check after the claim) and
# processing -> pending (a claim released because its send never began; issue 8).
ALLOWED = {
    (J.PROCESSING, J.PENDING),
    (J.PENDING, J.PROCESSING),
    (J.PROCESSING, J.ACCEPTED),
    (J.PROCESSING, J.RETRY_WAIT),
    (J.PROCESSING, J.FAILED),
    (J.PROCESSING, J.UNKNOWN),
    (J.PROCESSING, J.SUPPRESSED),
    (J.PROCESSING, J.CANCELLED),
    (J.RETRY_WAIT, J.PROCESSING),
    (J.PENDING, J.SUPPRESSED),
    (J.PENDING, J.CANCELLED),
    (J.PENDING, J.EXPIRED),
    (J.RETRY_WAIT, J.SUPPRESSED),
    (J.RETRY_WAIT, J.CANCELLED),
    (J.RETRY_WAIT, J.EXPIRED),
}


@pytest.mark.parametrize(("current", "new"), list(itertools.product(JobStatus, repeat=2)))
def test_a_job_moves_only_along_the_designed_transitions(
    current: JobStatus, new: JobStatus
) -> None:
    assert can_transition(current, new) is ((current, new) in ALLOWED)


def test_the_terminal_statuses_are_the_outcomes_and_the_not_sent() -> None:
    assert {
        J.ACCEPTED,
        J.FAILED,
        J.UNKNOWN,
        J.SUPPRESSED,
        J.CANCELLED,
        J.EXPIRED,
    } == TERMINAL


def test_statuses_are_stored_as_their_plain_names() -> None:
    assert [s.value for s in JobStatus] == [
        "pending",
        "processing",
        "accepted",
        "retry_wait",
        "failed",
        "unknown",
        "suppressed",
        "cancelled",
        "expired",
    ]
    assert JobStatus("retry_wait") is J.RETRY_WAIT


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (DeliveryPolicy.AT_MOST_ONCE, J.UNKNOWN),
        (DeliveryPolicy.AT_LEAST_ONCE, J.RETRY_WAIT),
    ],
)
def test_an_uncertain_send_is_resent_only_under_at_least_once(
    policy: DeliveryPolicy, expected: JobStatus
) -> None:
    assert after_unknown(policy) is expected
    assert can_transition(J.PROCESSING, expected)


DUE = dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC)
M = dt.timedelta(minutes=1)
S = dt.timedelta(seconds=1)


@pytest.mark.parametrize(
    ("priority", "late", "expected"),
    [
        ("high", 0 * M, "send"),
        ("high", 30 * M, "send"),
        ("high", 30 * M + S, "expire"),
        ("high", 3 * 60 * M, "expire"),
        ("normal", 15 * M, "send"),
        ("normal", 15 * M + S, "expire"),
        ("low", 10 * M, "send"),
        ("low", 10 * M + S, "expire"),
        ("low", -5 * M, "send"),  # not due yet: never dropped
        (Priority.HIGH, 29 * M, "send"),
    ],
)
def test_after_downtime_only_jobs_inside_their_catch_up_window_are_sent(
    priority: str, late: dt.timedelta, expected: str
) -> None:
    cutoff = expiry_cutoff(priority, DUE + late)
    assert ("expire" if cutoff > DUE else "send") == expected  # expire_older_than's test


def test_the_cutoff_compares_instants_not_wall_clocks() -> None:
    shanghai = dt.timezone(dt.timedelta(hours=8))
    assert expiry_cutoff("low", (DUE + 11 * M).astimezone(shanghai)) > DUE
    assert expiry_cutoff("low", DUE + 9 * M) < DUE.astimezone(shanghai)


def test_a_naive_now_is_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        expiry_cutoff("low", dt.datetime(2026, 11, 25, 12, 0))  # noqa: DTZ001


@pytest.mark.parametrize(
    ("priority", "minutes"),
    [("high", 30), ("normal", 15), ("low", 10)],
)
def test_each_priority_has_its_catch_up_window(priority: str, minutes: int) -> None:
    assert catch_up_window(priority) == dt.timedelta(minutes=minutes)


def test_an_unknown_priority_is_refused() -> None:
    with pytest.raises(ValueError, match="urgent"):
        catch_up_window("urgent")
