"""What the daily retention run may delete: the pure decisions, as tables."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scheduler.core.job_state import TERMINAL
from scheduler.core.retention_policy import (
    MINIMUM_DAYS,
    PRUNABLE_STATUSES,
    UNTOLD_MARGIN,
    Family,
    JobFacts,
    Periods,
    cutoff,
    job_prunable,
    link_prunable,
    message_prunable,
    overdue,
)
from storage.vocabulary import JobStatus

NOW = dt.datetime(2026, 11, 25, 20, 30, tzinfo=dt.UTC)
BEFORE = NOW - dt.timedelta(days=180)
OLD = BEFORE - dt.timedelta(days=1)
RECENT = BEFORE + dt.timedelta(days=1)
DAY = dt.timedelta(days=1)


def job(
    status: str = "accepted",
    finished_at: dt.datetime | None = OLD,
    *,
    updated_at: dt.datetime = OLD,
    settled: bool = False,
    missed_since: dt.datetime | None = None,
) -> JobFacts:
    return JobFacts(
        status=status,
        finished_at=finished_at,
        updated_at=updated_at,
        settled=settled,
        owner_missed_since=missed_since,
    )


@pytest.mark.parametrize(
    ("facts", "prunable"),
    [
        # finished long ago, in each final status
        (job("accepted"), True),
        (job("failed"), True),
        (job("suppressed"), True),
        (job("cancelled"), True),
        (job("expired"), True),
        # never a job that can still move, however old
        (job("pending", None), False),
        (job("retry_wait", None), False),
        (job("processing", None), False),
        (job("pending", OLD), False),  # even with a stray finished_at
        # unknown: an open question until an admin settles it (管理 对账)
        (job("unknown"), False),
        (job("unknown", settled=True), True),
        # recent, or exactly at the cutoff: kept
        (job("accepted", RECENT, updated_at=RECENT), False),
        (job("accepted", BEFORE, updated_at=BEFORE), False),
        (job("accepted", BEFORE - dt.timedelta(microseconds=1)), True),
        # no finished_at (a row older than the column's use): its last update counts
        (job("expired", None, updated_at=OLD), True),
        (job("expired", None, updated_at=RECENT), False),
        # finished_at wins over a later update (管理 对账 touches a settled job)
        (job("unknown", OLD, updated_at=RECENT, settled=True), True),
        # the owner has not been told of missed reminders since `missed_since`
        (job("expired", missed_since=OLD - DAY), False),
        (job("expired", missed_since=OLD + UNTOLD_MARGIN), False),
        (job("expired", missed_since=OLD + UNTOLD_MARGIN + DAY), True),
        (job("accepted", missed_since=OLD), False),  # a nag's covering send, too
    ],
)
def test_which_jobs_the_run_may_delete(facts: JobFacts, prunable: bool) -> None:
    assert job_prunable(facts, BEFORE) is prunable


@given(status=st.sampled_from(list(JobStatus)), ended=st.integers(-400, 400))
def test_a_job_that_can_still_change_is_never_prunable(status: JobStatus, ended: int) -> None:
    at = NOW + dt.timedelta(days=ended)
    facts = job(status.value, at, updated_at=at, settled=True)
    if status not in TERMINAL:
        assert not job_prunable(facts, BEFORE)
    else:
        assert job_prunable(facts, BEFORE) is (at < BEFORE)


def test_the_storage_preselection_names_exactly_the_final_statuses() -> None:
    assert set(PRUNABLE_STATUSES) == {s.value for s in TERMINAL}
    assert not {"pending", "retry_wait", "processing"} & set(PRUNABLE_STATUSES)


@pytest.mark.parametrize(
    ("received_at", "prunable"),
    [(OLD, True), (BEFORE, False), (RECENT, False), (NOW, False)],
)
def test_which_messages_the_run_may_delete(received_at: dt.datetime, prunable: bool) -> None:
    assert message_prunable(received_at, BEFORE) is prunable


TEN_MIN = dt.timedelta(minutes=10)


@pytest.mark.parametrize(
    ("expires_at", "used_at", "prunable"),
    [
        (OLD + TEN_MIN, None, True),  # expired unused, long ago
        (OLD + TEN_MIN, OLD, True),  # used long ago
        (RECENT, None, False),  # expired recently
        (RECENT + TEN_MIN, RECENT, False),  # used recently
        (NOW + TEN_MIN, None, False),  # still good
        (BEFORE + TEN_MIN, BEFORE - DAY, True),  # used before the cutoff, expired after
        (BEFORE, None, False),  # expired exactly at the cutoff
    ],
)
def test_which_links_and_codes_the_run_may_delete(
    expires_at: dt.datetime, used_at: dt.datetime | None, prunable: bool
) -> None:
    assert link_prunable(expires_at, used_at, BEFORE) is prunable


@pytest.mark.parametrize(
    ("days", "expected"),
    [(30, dt.datetime(2026, 10, 26, 20, 30, tzinfo=dt.UTC)), (1, NOW - DAY)],
)
def test_the_cutoff_is_the_period_before_the_run(days: int, expected: dt.datetime) -> None:
    assert cutoff(days, NOW) == expected


@pytest.mark.parametrize(
    ("days", "at"),
    [(0, NOW), (-1, NOW), (30, NOW.replace(tzinfo=None))],
)
def test_a_cutoff_refuses_no_period_and_naive_times(days: int, at: dt.datetime) -> None:
    with pytest.raises(ValueError, match=r"naive|at least one day"):
        cutoff(days, at)


def test_the_defaults_are_the_issues_and_above_their_minimums() -> None:
    periods = Periods()
    assert (periods.messages, periods.jobs, periods.links) == (30, 180, 7)
    assert all(periods.days(f) >= MINIMUM_DAYS[f] for f in Family)


def test_the_jobs_minimum_outlasts_every_window_that_reads_finished_jobs() -> None:
    from handlers.channels import HEALTH_WINDOW
    from handlers.reminders import FAILURES_SHOWN_FOR
    from scheduler.core.quiet import MAX_QUIET

    longest = max(HEALTH_WINDOW, FAILURES_SHOWN_FOR, MAX_QUIET + dt.timedelta(hours=40))
    assert dt.timedelta(days=MINIMUM_DAYS[Family.JOBS]) > longest
    assert longest < UNTOLD_MARGIN


@pytest.mark.parametrize(
    ("ago", "late"),
    [(None, False), (dt.timedelta(hours=25), False), (dt.timedelta(hours=51), True)],
)
def test_the_run_is_overdue_after_two_missed_slots(ago: dt.timedelta | None, late: bool) -> None:
    assert overdue(None if ago is None else NOW - ago, NOW) is late
