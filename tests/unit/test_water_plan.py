"""The water plan state machine, every (state, event) pair (scheduler/core/water_plan.py)."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from scheduler.core.water_plan import (
    ACCEPTED,
    CLAIM,
    CLOSE,
    FAILED,
    PAUSE,
    REFUSALS,
    TRANSITIONS,
    UNKNOWN,
    Applied,
    CancelPendingJobs,
    ConsumeGrant,
    CreateGrant,
    Effect,
    Event,
    EventKind,
    InvalidateGrants,
    Notice,
    PauseCause,
    Plan,
    Reason,
    Refused,
    ReleaseGrant,
    ReserveGrant,
    ScheduleReminder,
    Unschedule,
    apply,
    event_for_job_end,
    take_notice,
)
from storage.vocabulary import GrantStatus, PlanState

S, E, R = PlanState, EventKind, Reason
NEXT = dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC)
RID = "msg-1"

# What each state holds, restated rather than read from the module under test.
GRANT = {S.SCHEDULED: GrantStatus.AVAILABLE, S.SENDING: GrantStatus.RESERVED}

BOOK: tuple[Effect, ...] = (CancelPendingJobs(), ScheduleReminder(at=NEXT))
NEW_GRANT: tuple[Effect, ...] = (CreateGrant(request_id=RID), *BOOK)
STOP: tuple[Effect, ...] = (InvalidateGrants(), CancelPendingJobs(), Unschedule())
FINAL = (E.ACCEPTED, E.FAILED, E.UNKNOWN, E.RELEASED)

Expected = tuple[PlanState, tuple[Effect, ...]] | Reason

TABLE: dict[tuple[PlanState, EventKind], Expected] = {
    (S.DISABLED, E.ENABLE): (S.SCHEDULED, NEW_GRANT),
    (S.DISABLED, E.CHECKIN): R.PLAN_DISABLED,
    (S.DISABLED, E.PAUSE): R.PLAN_DISABLED,
    (S.DISABLED, E.RESUME): R.PLAN_DISABLED,
    (S.DISABLED, E.CLOSE): R.ALREADY_DISABLED,
    (S.DISABLED, E.CLAIM): R.PLAN_DISABLED,
    (S.DISABLED, E.EXPIRED): R.NOT_SCHEDULED,
    (S.SCHEDULED, E.ENABLE): R.ALREADY_ENABLED,
    (S.SCHEDULED, E.CHECKIN): (S.SCHEDULED, BOOK),  # keeps its grant, moves the time
    (S.SCHEDULED, E.PAUSE): (S.PAUSED, STOP),
    (S.SCHEDULED, E.RESUME): R.NOT_PAUSED,
    (S.SCHEDULED, E.CLOSE): (S.DISABLED, STOP),
    (S.SCHEDULED, E.CLAIM): (S.SENDING, (ReserveGrant(),)),
    (S.SCHEDULED, E.EXPIRED): (S.SCHEDULED, BOOK),
    (S.SENDING, E.ENABLE): R.ALREADY_ENABLED,
    (S.SENDING, E.CHECKIN): (S.SENDING, ()),  # parked, replayed by the finaliser
    (S.SENDING, E.PAUSE): (S.PAUSED, STOP),
    (S.SENDING, E.RESUME): R.NOT_PAUSED,
    (S.SENDING, E.CLOSE): (S.DISABLED, STOP),
    (S.SENDING, E.CLAIM): R.ALREADY_SENDING,
    (S.SENDING, E.ACCEPTED): (S.AWAITING_CHECKIN, (ConsumeGrant(),)),
    (S.SENDING, E.FAILED): (S.PAUSED, (InvalidateGrants(),)),
    (S.SENDING, E.UNKNOWN): (S.PAUSED, (InvalidateGrants(),)),
    # Its job ended unsent (expired after retries, cancelled, suppressed): as if it had
    # expired before the claim, with the grant given back.
    (S.SENDING, E.RELEASED): (S.SCHEDULED, (ReleaseGrant(), *BOOK)),
    (S.SENDING, E.EXPIRED): R.NOT_SCHEDULED,
    (S.AWAITING_CHECKIN, E.ENABLE): R.ALREADY_ENABLED,
    (S.AWAITING_CHECKIN, E.CHECKIN): (S.SCHEDULED, NEW_GRANT),
    (S.AWAITING_CHECKIN, E.PAUSE): (S.PAUSED, STOP),
    (S.AWAITING_CHECKIN, E.RESUME): R.NOT_PAUSED,
    (S.AWAITING_CHECKIN, E.CLOSE): (S.DISABLED, STOP),
    (S.AWAITING_CHECKIN, E.CLAIM): R.AWAITING_CHECKIN,
    (S.AWAITING_CHECKIN, E.EXPIRED): R.NOT_SCHEDULED,
    (S.PAUSED, E.ENABLE): (S.SCHEDULED, NEW_GRANT),
    (S.PAUSED, E.CHECKIN): (S.SCHEDULED, NEW_GRANT),
    (S.PAUSED, E.PAUSE): R.ALREADY_PAUSED,
    (S.PAUSED, E.RESUME): (S.SCHEDULED, NEW_GRANT),
    (S.PAUSED, E.CLOSE): (S.DISABLED, STOP),
    (S.PAUSED, E.CLAIM): R.PLAN_PAUSED,
    (S.PAUSED, E.EXPIRED): R.NOT_SCHEDULED,
    **{(s, k): R.NOT_SENDING for s in PlanState if s is not S.SENDING for k in FINAL},
}

ALLOWED = {key: v for key, v in TABLE.items() if not isinstance(v, Reason)}
REFUSED = {key: v for key, v in TABLE.items() if isinstance(v, Reason)}


def plan_in(state: PlanState) -> Plan:
    return Plan(state=state, grant=GRANT.get(state))


def event_of(kind: EventKind, request_id: str = RID, next_at: dt.datetime = NEXT) -> Event:
    if kind in (E.ENABLE, E.CHECKIN, E.RESUME):
        return Event(kind=kind, request_id=request_id, next_at=next_at)
    if kind in (E.EXPIRED, E.RELEASED):
        return Event(kind=kind, next_at=next_at)
    return Event(kind=kind)


def applied(plan: Plan, event: Event) -> Applied:
    result = apply(plan, event)
    assert isinstance(result, Applied), result
    return result


def test_the_table_names_every_state_and_event_pair_once() -> None:
    assert set(TABLE) == set(itertools.product(PlanState, EventKind))
    assert len(TABLE) == len(PlanState) * len(EventKind) == 55


def test_the_module_tables_say_what_this_table_says() -> None:
    assert {key: target for key, (target, _) in ALLOWED.items()} == TRANSITIONS
    assert REFUSED == REFUSALS


@pytest.mark.parametrize(
    ("state", "kind", "expected"),
    [(s, k, v) for (s, k), v in ALLOWED.items()],
    ids=[f"{s}-{k}" for s, k in ALLOWED],
)
def test_an_allowed_event_moves_the_plan_and_lists_its_effects(
    state: PlanState, kind: EventKind, expected: tuple[PlanState, tuple[Effect, ...]]
) -> None:
    target, effects = expected
    result = applied(plan_in(state), event_of(kind))
    assert result.plan.state is target
    assert result.plan.grant is GRANT.get(target)
    assert result.effects == effects


@pytest.mark.parametrize(
    ("state", "kind", "reason"),
    [(s, k, v) for (s, k), v in REFUSED.items()],
    ids=[f"{s}-{k}" for s, k in REFUSED],
)
def test_a_refused_event_leaves_the_plan_alone_and_says_why(
    state: PlanState, kind: EventKind, reason: Reason
) -> None:
    plan = plan_in(state)
    assert apply(plan, event_of(kind)) == Refused(plan=plan, reason=reason)


def test_a_check_in_given_in_local_time_books_the_reminder_in_utc() -> None:
    shanghai = dt.timezone(dt.timedelta(hours=8))
    result = applied(
        plan_in(S.AWAITING_CHECKIN), event_of(E.CHECKIN, next_at=NEXT.astimezone(shanghai))
    )
    booked = result.effects[-1]
    assert isinstance(booked, ScheduleReminder)
    assert booked.at == NEXT
    assert booked.at.tzinfo is dt.UTC


def sending_with_a_parked_check_in(request_id: str = "msg-2") -> Plan:
    plan = applied(plan_in(S.SENDING), event_of(E.CHECKIN, request_id=request_id)).plan
    assert plan.parked == event_of(E.CHECKIN, request_id=request_id)
    return plan


def test_a_check_in_during_sending_is_parked_without_a_second_grant() -> None:
    result = applied(plan_in(S.SENDING), event_of(E.CHECKIN, request_id="msg-2"))
    assert result.effects == ()
    assert result.plan.state is S.SENDING
    assert result.plan.grant is GrantStatus.RESERVED


def test_an_accepted_reminder_after_a_check_in_during_sending_schedules_the_next() -> None:
    result = applied(sending_with_a_parked_check_in(), ACCEPTED)
    assert result.plan == Plan(state=S.SCHEDULED, grant=GrantStatus.AVAILABLE)
    assert result.effects == (ConsumeGrant(), CreateGrant(request_id="msg-2"), *BOOK)


@pytest.mark.parametrize("outcome", [FAILED, UNKNOWN])
def test_a_failed_reminder_after_a_check_in_during_sending_resumes_and_still_owes_a_notice(
    outcome: Event,
) -> None:
    result = applied(sending_with_a_parked_check_in(), outcome)
    assert result.plan.state is S.SCHEDULED
    assert result.plan.pause_notice_pending == outcome.kind.value
    assert result.effects == (InvalidateGrants(), CreateGrant(request_id="msg-2"), *BOOK)


def test_the_latest_check_in_during_sending_is_the_one_replayed() -> None:
    later = NEXT + dt.timedelta(minutes=5)
    plan = applied(
        sending_with_a_parked_check_in("msg-2"), event_of(E.CHECKIN, "msg-3", later)
    ).plan
    result = applied(plan, ACCEPTED)
    assert result.effects[1:] == (
        CreateGrant(request_id="msg-3"),
        CancelPendingJobs(),
        ScheduleReminder(at=later),
    )


@pytest.mark.parametrize("stop", [PAUSE, CLOSE])
def test_pausing_or_closing_while_sending_drops_the_parked_check_in(stop: Event) -> None:
    result = applied(sending_with_a_parked_check_in(), stop)
    assert result.plan.parked is None
    assert result.effects == STOP
    assert apply(result.plan, ACCEPTED) == Refused(plan=result.plan, reason=R.NOT_SENDING)


@pytest.mark.parametrize(("outcome", "cause"), [(FAILED, "failed"), (UNKNOWN, "unknown")])
def test_an_automatic_pause_is_told_once_on_the_users_next_message(
    outcome: Event, cause: PauseCause
) -> None:
    paused = applied(plan_in(S.SENDING), outcome).plan
    assert paused.pause_notice_pending == cause
    told, notice = take_notice(paused)
    assert notice == Notice(paused_because=cause)
    assert told == Plan(state=S.PAUSED)
    assert take_notice(told) == (told, None)


def test_a_pause_the_user_asked_for_owes_no_notice() -> None:
    paused = applied(plan_in(S.AWAITING_CHECKIN), PAUSE).plan
    assert take_notice(paused) == (paused, None)


def test_an_owed_notice_survives_the_check_in_that_resumes_the_plan() -> None:
    paused = applied(plan_in(S.SENDING), UNKNOWN).plan
    resumed = applied(paused, event_of(E.CHECKIN)).plan
    assert resumed.state is S.SCHEDULED
    assert take_notice(resumed)[1] == Notice(paused_because="unknown")


def test_one_check_in_buys_one_reminder() -> None:
    plan = applied(plan_in(S.DISABLED), event_of(E.ENABLE)).plan
    plan = applied(applied(plan, CLAIM).plan, ACCEPTED).plan
    assert apply(plan, CLAIM) == Refused(plan=plan, reason=R.AWAITING_CHECKIN)


@pytest.mark.parametrize(
    ("state", "grant"),
    [
        (S.SCHEDULED, None),
        (S.SCHEDULED, GrantStatus.RESERVED),
        (S.SENDING, GrantStatus.AVAILABLE),
        (S.DISABLED, GrantStatus.AVAILABLE),
        (S.AWAITING_CHECKIN, GrantStatus.RESERVED),
        (S.PAUSED, GrantStatus.CONSUMED),
    ],
)
def test_a_plan_whose_grant_does_not_fit_its_state_is_refused(
    state: PlanState, grant: GrantStatus | None
) -> None:
    with pytest.raises(ValueError, match="cannot hold"):
        Plan(state=state, grant=grant)


def test_only_a_sending_plan_may_hold_a_parked_check_in() -> None:
    with pytest.raises(ValueError, match="parks"):
        Plan(state=S.SCHEDULED, grant=GrantStatus.AVAILABLE, parked=event_of(E.CHECKIN))
    with pytest.raises(ValueError, match="parks"):
        Plan(state=S.SENDING, grant=GrantStatus.RESERVED, parked=CLAIM)


@pytest.mark.parametrize(
    ("kind", "request_id", "next_at"),
    [
        (E.CHECKIN, None, NEXT),
        (E.ENABLE, RID, None),
        (E.PAUSE, RID, None),
        (E.CLAIM, None, NEXT),
        (E.EXPIRED, None, None),
        (E.EXPIRED, RID, NEXT),
        (E.RESUME, RID, dt.datetime(2026, 11, 25, 12)),  # noqa: DTZ001 - naive on purpose
    ],
)
def test_an_event_with_a_field_out_of_place_is_refused(
    kind: EventKind, request_id: str | None, next_at: dt.datetime | None
) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - each row breaks a different rule
        Event(kind=kind, request_id=request_id, next_at=next_at)


def test_states_and_grant_statuses_are_stored_as_their_plain_names() -> None:
    assert [s.value for s in PlanState] == [
        "disabled",
        "scheduled",
        "sending",
        "awaiting_checkin",
        "paused",
    ]
    assert [g.value for g in GrantStatus] == ["available", "reserved", "consumed", "invalid"]


# How each way a water job can end reaches its plan (`event_for_job_end`): the plan's
# state, whether this job holds the reservation, the job's end -> the event (or None).
END = {
    (S.SENDING, True, "accepted"): E.ACCEPTED,
    (S.SENDING, True, "failed"): E.FAILED,
    (S.SENDING, True, "unknown"): E.UNKNOWN,
    (S.SENDING, True, "expired"): E.RELEASED,  # retried until its window passed
    (S.SENDING, True, "cancelled"): E.RELEASED,
    (S.SENDING, True, "suppressed"): E.RELEASED,  # e.g. quiet time began between retries
    (S.SENDING, True, "retry_wait"): None,  # still live
    **{
        (S.SENDING, False, end): None  # another job's end says nothing of this send
        for end in ("accepted", "failed", "unknown", "expired", "cancelled", "suppressed")
    },
    (S.SCHEDULED, False, "expired"): E.EXPIRED,  # never claimed: book the next time
    (S.SCHEDULED, False, "suppressed"): None,  # moved by quiet time: the new job carries it
    (S.SCHEDULED, False, "cancelled"): None,
    **{
        (state, False, end): None
        for state in (S.DISABLED, S.PAUSED, S.AWAITING_CHECKIN)
        for end in ("accepted", "failed", "unknown", "expired", "cancelled", "suppressed")
    },
}


@pytest.mark.parametrize(
    ("key", "expected"), END.items(), ids=[f"{k[0]}-{k[1]}-{k[2]}" for k in END]
)
def test_each_way_a_water_job_ends_reaches_the_plan_as_one_event(
    key: tuple[PlanState, bool, str], expected: EventKind | None
) -> None:
    state, holds, status = key
    event = event_for_job_end(plan_in(state), status, holds_reservation=holds, next_at=NEXT)
    assert (event.kind if event else None) is expected
    if event is not None:
        assert isinstance(apply(plan_in(state), event), Applied)


@pytest.mark.parametrize(
    "status", ["accepted", "failed", "unknown", "expired", "cancelled", "suppressed"]
)
def test_no_end_of_the_reserving_job_leaves_the_plan_sending(status: str) -> None:
    plan = plan_in(S.SENDING)
    event = event_for_job_end(plan, status, holds_reservation=True, next_at=NEXT)
    assert event is not None
    assert applied(plan, event).plan.state is not S.SENDING


def test_a_check_in_parked_during_a_send_that_ended_unsent_books_its_own_time() -> None:
    later = NEXT + dt.timedelta(hours=1)
    plan = applied(plan_in(S.SENDING), event_of(E.CHECKIN, next_at=later)).plan
    result = applied(plan, event_of(E.RELEASED))
    assert result.plan == Plan(state=S.SCHEDULED, grant=GrantStatus.AVAILABLE)
    assert result.effects == (
        ReleaseGrant(),
        *BOOK,
        CancelPendingJobs(),
        ScheduleReminder(at=later),
    )
