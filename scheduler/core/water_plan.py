"""The water plan state machine of DESIGN §6, with its grants (pure).

A reminder goes out only against a grant: each user message (开启 / 喝水 / 恢复) makes
one; claim reserves it, accepted consumes it, failed / unknown invalidate it. `apply`
returns the new plan and the `Effect`s storage applies in the same transaction, or a
`Refused` with a reason. `TRANSITIONS` alone decides states.

Decisions where DESIGN is silent:

- A check-in while `sending` makes no second grant and is not lost: it is parked, and
  the finaliser replays it through the table, booking its time only then. Accepted ->
  awaiting_checkin -> scheduled (no waiting for an answer already given); failed or
  unknown -> paused -> scheduled (DESIGN: a check-in resumes a paused plan).
- `开启 喝水` on a paused plan resumes it. An `expired` water job books a new time.
- Every way the reserved reminder's job can end moves the plan out of `sending`
  (`event_for_job_end`): accepted -> awaiting_checkin; failed / unknown -> paused with
  the notice; expired after retries, cancelled or suppressed (nothing went out) ->
  `released`: the grant goes back to `available` and the next time is booked, exactly
  as if the reminder had expired before it was claimed.
- failed / unknown set `pause_notice_pending`; the handler calls `take_notice` on the
  user's next message, whatever it says, and stores the cleared plan: said once.
- A finaliser event for a plan the user paused or closed meanwhile is refused: the
  user's later word wins; the job keeps its own record.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from storage.vocabulary import GrantStatus, JobStatus, PlanState

PauseCause = Literal[JobStatus.FAILED, JobStatus.UNKNOWN]
"""Why a plan paused itself: the reminder failed, or may not have arrived."""


class EventKind(StrEnum):
    ENABLE = "enable"  # 开启 喝水
    CHECKIN = "checkin"  # 喝水
    PAUSE = "pause"  # 暂停 喝水
    RESUME = "resume"  # 恢复 喝水
    CLOSE = "close"  # 关闭 喝水
    CLAIM = "claim"  # the tick reserves the grant and starts sending
    ACCEPTED = "accepted"  # the channel took the reminder
    FAILED = "failed"  # nothing went out (also: a retry that expired or was cancelled)
    UNKNOWN = "unknown"  # it may have gone out (timeout, reset, the worker died)
    EXPIRED = "expired"  # the due reminder was past its catch-up window, never claimed
    RELEASED = "released"  # the reserved reminder's job ended unsent (expired, cancelled, ...)


class Reason(StrEnum):
    """Why an event was refused; the plan is unchanged and nothing is to be done."""

    ALREADY_ENABLED = "already_enabled"
    ALREADY_PAUSED = "already_paused"
    ALREADY_DISABLED = "already_disabled"
    PLAN_DISABLED = "plan_disabled"
    PLAN_PAUSED = "plan_paused"
    NOT_PAUSED = "not_paused"
    ALREADY_SENDING = "already_sending"
    AWAITING_CHECKIN = "awaiting_checkin"  # no grant: the last reminder is unanswered
    NOT_SCHEDULED = "not_scheduled"
    NOT_SENDING = "not_sending"


S, E = PlanState, EventKind
_ON = (S.SCHEDULED, S.SENDING, S.AWAITING_CHECKIN)
_GRANTING = frozenset({E.ENABLE, E.CHECKIN, E.RESUME})
_BOOKING = _GRANTING | {E.EXPIRED, E.RELEASED}  # events that carry the next time
_FINAL = frozenset({E.ACCEPTED, E.FAILED, E.UNKNOWN, E.RELEASED})  # the reserved job's ends
_AUTO_PAUSE: dict[EventKind, PauseCause] = {
    E.FAILED: JobStatus.FAILED,
    E.UNKNOWN: JobStatus.UNKNOWN,
}

TRANSITIONS: dict[tuple[PlanState, EventKind], PlanState] = {
    # The user's message is the first grant.
    (S.DISABLED, E.ENABLE): S.SCHEDULED,
    (S.PAUSED, E.ENABLE): S.SCHEDULED,
    (S.PAUSED, E.RESUME): S.SCHEDULED,
    # A check-in grants the next reminder; with one available it only moves the time.
    (S.SCHEDULED, E.CHECKIN): S.SCHEDULED,
    (S.SENDING, E.CHECKIN): S.SENDING,
    (S.AWAITING_CHECKIN, E.CHECKIN): S.SCHEDULED,
    (S.PAUSED, E.CHECKIN): S.SCHEDULED,
    # The tick: claim reserves the grant; the finaliser settles it.
    (S.SCHEDULED, E.CLAIM): S.SENDING,
    (S.SENDING, E.ACCEPTED): S.AWAITING_CHECKIN,
    (S.SENDING, E.FAILED): S.PAUSED,
    (S.SENDING, E.UNKNOWN): S.PAUSED,
    (S.SENDING, E.RELEASED): S.SCHEDULED,
    (S.SCHEDULED, E.EXPIRED): S.SCHEDULED,
    # 暂停 from any running state, 关闭 from any state at all.
    **{(state, E.PAUSE): S.PAUSED for state in _ON},
    **{(state, E.CLOSE): S.DISABLED for state in (*_ON, S.PAUSED)},
}
"""Every allowed (state, event) and the state it leads to: the single source of truth."""

REFUSALS: dict[tuple[PlanState, EventKind], Reason] = {
    **{(state, E.ENABLE): Reason.ALREADY_ENABLED for state in _ON},
    **{(state, E.RESUME): Reason.NOT_PAUSED for state in _ON},
    **{(S.DISABLED, kind): Reason.PLAN_DISABLED for kind in (E.CHECKIN, E.PAUSE, E.RESUME)},
    (S.DISABLED, E.CLOSE): Reason.ALREADY_DISABLED,
    (S.PAUSED, E.PAUSE): Reason.ALREADY_PAUSED,
    (S.DISABLED, E.CLAIM): Reason.PLAN_DISABLED,
    (S.PAUSED, E.CLAIM): Reason.PLAN_PAUSED,
    (S.SENDING, E.CLAIM): Reason.ALREADY_SENDING,
    (S.AWAITING_CHECKIN, E.CLAIM): Reason.AWAITING_CHECKIN,
    **{(s, E.EXPIRED): Reason.NOT_SCHEDULED for s in PlanState if s is not S.SCHEDULED},
    **{(s, kind): Reason.NOT_SENDING for s in PlanState if s is not S.SENDING for kind in _FINAL},
}
"""Every refused (state, event) and why; together with TRANSITIONS it covers all pairs."""

LIVE_GRANT: dict[PlanState, GrantStatus | None] = {state: None for state in PlanState} | {
    S.SCHEDULED: GrantStatus.AVAILABLE,
    S.SENDING: GrantStatus.RESERVED,
}
"""The status of the plan's one unsettled grant in each state (None: there is none)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Event:
    """One thing that happened to a plan; a field out of place raises ValueError.

    `request_id`: for enable / checkin / resume only, the message key the grant takes.
    `next_at`: for those, expired and released only, the (aware) time to book.
    """

    kind: EventKind
    request_id: str | None = None
    next_at: dt.datetime | None = None

    def __post_init__(self) -> None:
        if (self.request_id is None) is (self.kind in _GRANTING):
            raise ValueError(f"request_id goes with enable, checkin and resume, not {self.kind}")
        if (self.next_at is None) is (self.kind in _BOOKING):
            raise ValueError(f"next_at goes with granting, expired and released, not {self.kind}")
        if self.next_at is not None and self.next_at.tzinfo is None:
            raise ValueError("naive next_at; pass an aware datetime")


PAUSE, CLOSE, CLAIM = Event(kind=E.PAUSE), Event(kind=E.CLOSE), Event(kind=E.CLAIM)
ACCEPTED, FAILED, UNKNOWN = Event(kind=E.ACCEPTED), Event(kind=E.FAILED), Event(kind=E.UNKNOWN)


@dataclass(frozen=True, kw_only=True, slots=True)
class Plan:
    """A water plan as the machine sees it; inconsistent values raise ValueError.

    `grant`: the status of its unsettled grant as stored, which must match
    `LIVE_GRANT[state]` (drift between plan row and grants is caught, not acted on).
    `parked`: a check-in that came while sending (only then).
    """

    state: PlanState = PlanState.DISABLED
    grant: GrantStatus | None = None
    parked: Event | None = None
    pause_notice_pending: PauseCause | None = None  # an automatic pause not yet told

    def __post_init__(self) -> None:
        if self.grant is not LIVE_GRANT[self.state]:
            raise ValueError(f"a {self.state} plan cannot hold a {self.grant} grant")
        if self.parked and (self.state is not S.SENDING or self.parked.kind is not E.CHECKIN):
            raise ValueError("only a sending plan parks, and only a check-in")


@dataclass(frozen=True, kw_only=True, slots=True)
class CreateGrant:
    """Insert one `available` grant keyed by `request_id` (insert-or-ignore)."""

    request_id: str


@dataclass(frozen=True, kw_only=True, slots=True)
class ReserveGrant:
    """Flip the plan's `available` grant to `reserved` (conditional on it still being so)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ReleaseGrant:
    """Flip the plan's `reserved` grant back to `available`: its reminder never left."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ConsumeGrant:
    """Flip the plan's `reserved` grant to `consumed`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class InvalidateGrants:
    """Flip every `available` or `reserved` grant of the plan to `invalid`."""


@dataclass(frozen=True, kw_only=True, slots=True)
class CancelPendingJobs:
    """Cancel the plan's `pending` and `retry_wait` jobs (an in-flight one finishes)."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ScheduleReminder:
    """Set the water rule's `next_fire_at` to `at` (always after CancelPendingJobs)."""

    at: dt.datetime


@dataclass(frozen=True, kw_only=True, slots=True)
class Unschedule:
    """Clear the water rule's `next_fire_at`: nothing more is to be materialised."""


_GrantEffect = CreateGrant | ReserveGrant | ReleaseGrant | ConsumeGrant | InvalidateGrants
Effect = _GrantEffect | CancelPendingJobs | ScheduleReminder | Unschedule


@dataclass(frozen=True, kw_only=True, slots=True)
class Applied:
    plan: Plan
    effects: tuple[Effect, ...]


@dataclass(frozen=True, kw_only=True, slots=True)
class Refused:
    plan: Plan  # unchanged
    reason: Reason


@dataclass(frozen=True, kw_only=True, slots=True)
class Notice:
    """Tell the user the plan paused itself, and why (once, on their next message)."""

    paused_because: PauseCause


def apply(plan: Plan, event: Event) -> Applied | Refused:
    """Apply one event: the new plan and its effects, or a refusal with a reason.

    Effects are listed in the order storage should apply them, in one transaction
    together with the plan row. Total: every (state, event) pair has an answer.
    """
    key = (plan.state, event.kind)
    if key in REFUSALS:
        return Refused(plan=plan, reason=REFUSALS[key])
    moved, effects = _step(plan, event, TRANSITIONS[key])
    if plan.parked is not None and event.kind in _FINAL:
        return _replay(moved, effects, plan.parked)
    return Applied(plan=moved, effects=effects)


JobEnd = Literal[
    JobStatus.ACCEPTED,
    JobStatus.FAILED,
    JobStatus.UNKNOWN,
    JobStatus.EXPIRED,
    JobStatus.CANCELLED,
    JobStatus.SUPPRESSED,
]
"""Every terminal status a water job can end in (`scheduler.core.job_state.TERMINAL`)."""

_SENT_ENDS: dict[str, Event] = {
    JobStatus.ACCEPTED: ACCEPTED,
    JobStatus.FAILED: FAILED,
    JobStatus.UNKNOWN: UNKNOWN,
}


def event_for_job_end(
    plan: Plan, status: str, *, holds_reservation: bool, next_at: dt.datetime
) -> Event | None:
    """The event a water job's end means for its plan, or None if it means nothing.

    Only the job that reserved the plan's grant settles a sending plan: its send's
    outcome (accepted, failed, unknown), or `released` when it ended without a send
    (expired after retries, cancelled, suppressed). A job that never claimed (the
    plan refused it, or it expired waiting) matters only as an expiry of a scheduled
    plan, which books the next time. `retry_wait` is not an end: None. `next_at` is
    the time to book if the answer books one.
    """
    if plan.state is S.SENDING:
        if not holds_reservation or status == JobStatus.RETRY_WAIT:
            return None
        return _SENT_ENDS.get(status) or Event(kind=E.RELEASED, next_at=next_at)
    if plan.state is S.SCHEDULED and status == JobStatus.EXPIRED:
        return Event(kind=E.EXPIRED, next_at=next_at)
    return None


def take_notice(plan: Plan) -> tuple[Plan, Notice | None]:
    """On any message from the user: the notice owed, if any, and the plan without it."""
    if plan.pause_notice_pending is None:
        return plan, None
    told = dataclasses.replace(plan, pause_notice_pending=None)
    return told, Notice(paused_because=plan.pause_notice_pending)


def _step(plan: Plan, event: Event, target: PlanState) -> tuple[Plan, tuple[Effect, ...]]:
    if event.kind in _GRANTING:
        return _grant(plan, event, target)
    if event.kind is E.EXPIRED:
        return plan, _book(event)
    if event.kind is E.CLAIM:
        return _moved(plan, target), (ReserveGrant(),)
    if event.kind is E.ACCEPTED:
        return _moved(plan, target), (ConsumeGrant(),)
    if event.kind is E.RELEASED:
        return _moved(plan, target), (ReleaseGrant(), *_book(event))
    if event.kind in _AUTO_PAUSE:
        return _moved(plan, target, notice=_AUTO_PAUSE[event.kind]), (InvalidateGrants(),)
    # 暂停 / 关闭: nothing unsettled survives, nothing stays booked.
    return _moved(plan, target), (InvalidateGrants(), CancelPendingJobs(), Unschedule())


def _grant(plan: Plan, event: Event, target: PlanState) -> tuple[Plan, tuple[Effect, ...]]:
    if plan.state is S.SENDING:
        return _moved(plan, target, parked=event), ()
    if plan.state is S.SCHEDULED:  # keep the available grant, move the time
        return plan, _book(event)
    assert event.request_id is not None  # Event's own check
    return _moved(plan, target), (CreateGrant(request_id=event.request_id), *_book(event))


def _replay(moved: Plan, effects: tuple[Effect, ...], parked: Event) -> Applied:
    replayed = apply(moved, parked)
    assert isinstance(replayed, Applied), "every state a reserved job's end leads to takes one"
    return Applied(plan=replayed.plan, effects=effects + replayed.effects)


def _book(event: Event) -> tuple[Effect, ...]:
    assert event.next_at is not None  # Event's own check
    return CancelPendingJobs(), ScheduleReminder(at=event.next_at.astimezone(dt.UTC))


def _moved(
    plan: Plan, target: PlanState, *, parked: Event | None = None, notice: PauseCause | None = None
) -> Plan:
    """`plan` in `target`, holding the grant that state holds; an owed notice is kept."""
    notice = notice or plan.pause_notice_pending
    return Plan(state=target, grant=LIVE_GRANT[target], parked=parked, pause_notice_pending=notice)
