"""The notification job's life (DESIGN §6) and the pure policies around it.

`pending -> processing -> accepted | retry_wait | failed | unknown`;
`retry_wait -> processing`; `pending | retry_wait -> suppressed | cancelled | expired`.

Two additions to DESIGN's list, which its own prose requires:
- `processing -> suppressed | cancelled`. The tick claims a batch first and then
  re-reads the business state ("before sending"), so a job found to have nothing left
  to say is already `processing` when it is suppressed; nothing has been sent then.
- `processing -> pending` (and `-> retry_wait`): a claim given back because its send
  never started (its worker died before the request, `job_claims.release`). At-most-once
  means never sending twice, not giving up on what was never tried.

`accepted` means the channel took the message, not that a phone showed it.
"""

from __future__ import annotations

import datetime as dt

from storage.vocabulary import DeliveryPolicy, JobStatus, Priority

_NOT_SENT = frozenset({JobStatus.SUPPRESSED, JobStatus.CANCELLED, JobStatus.EXPIRED})

TRANSITIONS: dict[JobStatus, frozenset[JobStatus]] = {
    JobStatus.PENDING: frozenset({JobStatus.PROCESSING}) | _NOT_SENT,
    JobStatus.PROCESSING: frozenset(
        {
            JobStatus.ACCEPTED,
            JobStatus.RETRY_WAIT,
            # Released: the send never began (see the module note).
            JobStatus.PENDING,
            JobStatus.FAILED,
            JobStatus.UNKNOWN,
            # The re-check after the claim found nothing to say (see the module note).
            JobStatus.SUPPRESSED,
            JobStatus.CANCELLED,
        }
    ),
    JobStatus.RETRY_WAIT: frozenset({JobStatus.PROCESSING}) | _NOT_SENT,
    JobStatus.ACCEPTED: frozenset(),
    JobStatus.FAILED: frozenset(),
    # Nothing automatic leaves `unknown`: resending it is the policy's call, made
    # before the status is written (`after_unknown`), never afterwards.
    JobStatus.UNKNOWN: frozenset(),
    JobStatus.SUPPRESSED: frozenset(),
    JobStatus.CANCELLED: frozenset(),
    JobStatus.EXPIRED: frozenset(),
}
"""Every allowed status change, and only those: the single source of truth."""

TERMINAL: frozenset[JobStatus] = frozenset(s for s, nexts in TRANSITIONS.items() if not nexts)
"""Statuses a job never leaves: accepted, failed, unknown, suppressed, cancelled, expired."""


def can_transition(current: JobStatus, new: JobStatus) -> bool:
    """Whether a job may go from `current` to `new` (a status never "moves" to itself)."""
    return new in TRANSITIONS[current]


def after_unknown(policy: DeliveryPolicy) -> JobStatus:
    """The job status to write when a send's outcome is uncertain (timeout, reset).

    The attempt itself is recorded as `unknown` either way; only the job differs:
    `at_most_once` -> `unknown` (final), `at_least_once` -> `retry_wait` (resent).
    """
    if policy is DeliveryPolicy.AT_LEAST_ONCE:
        return JobStatus.RETRY_WAIT
    return JobStatus.UNKNOWN


CATCH_UP_WINDOWS: dict[Priority, dt.timedelta] = {
    # Event and task reminders, custom reminders marked important: DESIGN's 30 minutes.
    Priority.HIGH: dt.timedelta(minutes=30),
    # Digests and plain custom reminders: a morning plan a quarter of an hour late is
    # still the morning plan; much later it is noise, and the next one is due anyway.
    Priority.NORMAL: dt.timedelta(minutes=15),
    # Water: the reminder is relative to the last glass; a late one is stale, and an
    # expired water job moves the plan's next time instead (see water_plan.Expired).
    Priority.LOW: dt.timedelta(minutes=10),
}
"""How long after its due time a job may still be sent; older ones become `expired`."""


def catch_up_window(priority: str) -> dt.timedelta:
    """The catch-up window of a priority as stored ("high" / "normal" / "low").

    Raises:
        ValueError: not one of the three.
    """
    return CATCH_UP_WINDOWS[Priority(priority)]


def expiry_cutoff(priority: str, now: dt.datetime) -> dt.datetime:
    """Waiting jobs of `priority` due before this instant are too late: they expire
    instead of being sent (DESIGN §6, after downtime). A job exactly at the edge of
    its window is still sent.

    Raises:
        ValueError: `now` is naive, or the priority is not one of the three.
    """
    if now.tzinfo is None:
        raise ValueError("naive datetime; pass an aware one")
    return now - catch_up_window(priority)
