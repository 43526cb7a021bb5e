"""The water plan against its promises, driven by hypothesis (scheduler/core/water_plan.py).

The machine plays the user (开启 / 喝水 / 暂停 / 恢复 / 关闭), the tick (materialise a due
reminder, claim it or expire it, then always finalise what it claimed) and a late worker,
while a tiny stand-in for storage applies each effect the plan returns. After every
step it checks DESIGN §6's promises: never two reminders without a check-in between
them, never a send without a reserved grant, at most one available grant, nothing
available or booked after 关闭, no plan left `sending` once its job has ended, whichever way it ends (sent,
failed, unknown, expired between retries, cancelled, suppressed); and
ours: a check-in is never lost (not even one made while a reminder was being sent), a
scheduled plan always has a reminder booked, a stale job or a late worker changes
nothing.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from scheduler.core.job_state import expiry_cutoff
from scheduler.core.water_plan import (
    ACCEPTED,
    CLAIM,
    CLOSE,
    FAILED,
    PAUSE,
    UNKNOWN,
    Applied,
    CancelPendingJobs,
    ConsumeGrant,
    CreateGrant,
    Effect,
    Event,
    EventKind,
    InvalidateGrants,
    Plan,
    Refused,
    ReleaseGrant,
    ReserveGrant,
    ScheduleReminder,
    Unschedule,
    apply,
    event_for_job_end,
    take_notice,
)
from scheduler.core.water_rule import next_reminder
from storage.vocabulary import GrantStatus, PlanState

START = dt.datetime(2026, 11, 25, 0, 0, tzinfo=dt.UTC)  # 08:00 in Shanghai
SHANGHAI = ZoneInfo("Asia/Shanghai")
G = GrantStatus


class Storage:
    """Just enough of storage to apply effects and be inspected."""

    def __init__(self) -> None:
        self.grants: dict[str, GrantStatus] = {}
        self.next_fire_at: dt.datetime | None = None
        self.pending_job: dt.datetime | None = None  # a materialised, unclaimed job's slot

    def count(self, status: GrantStatus) -> int:
        return sum(1 for s in self.grants.values() if s is status)

    def store(self, effect: Effect) -> None:
        match effect:
            case CreateGrant(request_id=request_id):
                assert request_id not in self.grants, "a message makes one grant"
                self.grants[request_id] = G.AVAILABLE
            case ReserveGrant():
                self._flip(G.AVAILABLE, G.RESERVED)
            case ConsumeGrant():
                self._flip(G.RESERVED, G.CONSUMED)
            case ReleaseGrant():
                self._flip(G.RESERVED, G.AVAILABLE)
            case InvalidateGrants():
                for key, status in self.grants.items():
                    if status in (G.AVAILABLE, G.RESERVED):
                        self.grants[key] = G.INVALID
            case CancelPendingJobs():
                self.pending_job = None
            case ScheduleReminder(at=at):
                self.next_fire_at = at
            case Unschedule():
                self.next_fire_at = None

    def _flip(self, old: GrantStatus, new: GrantStatus) -> None:
        keys = [key for key, status in self.grants.items() if status is old]
        assert len(keys) == 1, f"exactly one {old} grant to make {new}, found {len(keys)}"
        self.grants[keys[0]] = new


class WaterPlanMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.plan = Plan()
        self.storage = Storage()
        self.now = START
        self.messages = 0
        self.in_flight = False  # a claimed reminder whose finaliser has not run
        self.owed = False  # the user granted a reminder, not yet claimed nor taken back

    def _apply(self, event: Event) -> Applied | Refused:
        result = apply(self.plan, event)
        if isinstance(result, Applied):
            for effect in result.effects:
                self.storage.store(effect)
            self.plan = result.plan
        return result

    def _next_at(self, goal_reached: bool = False) -> dt.datetime:
        return next_reminder(
            checkin_at=self.now,
            tz=SHANGHAI,
            interval=dt.timedelta(minutes=120),
            wake=dt.time(8),
            sleep=dt.time(22),
            goal_reached=goal_reached,
        )

    def _user(self, kind: EventKind, goal_reached: bool) -> None:
        self.messages += 1
        next_at = self._next_at(goal_reached)
        event = Event(kind=kind, request_id=f"msg-{self.messages}", next_at=next_at)
        if isinstance(self._apply(event), Applied):
            self.owed = True

    @initialize(enabled=st.booleans())
    def a_user_who_may_have_turned_the_plan_on(self, enabled: bool) -> None:
        if enabled:
            self._user(EventKind.ENABLE, goal_reached=False)

    @rule(
        kind=st.sampled_from([EventKind.ENABLE, EventKind.CHECKIN, EventKind.RESUME]),
        goal=st.booleans(),
    )
    def user_grants(self, kind: EventKind, goal: bool) -> None:
        self._user(kind, goal)

    @rule(stop=st.sampled_from([PAUSE, CLOSE]))
    def user_stops(self, stop: Event) -> None:
        if isinstance(self._apply(stop), Applied):
            self.owed = False

    @precondition(lambda self: self.in_flight)
    @rule(goal=st.booleans())
    def user_checks_in_while_the_reminder_is_sending(self, goal: bool) -> None:
        self._user(EventKind.CHECKIN, goal)

    @rule()
    def user_writes_anything(self) -> None:
        self.plan, _ = take_notice(self.plan)

    @rule(minutes=st.integers(1, 600))
    def time_passes(self, minutes: int) -> None:
        self.now += dt.timedelta(minutes=minutes)

    @precondition(
        lambda self: (
            self.storage.next_fire_at is not None
            and self.storage.next_fire_at <= self.now
            and self.storage.pending_job is None
        )
    )
    @rule()
    def tick_materialises(self) -> None:
        self.storage.pending_job, self.storage.next_fire_at = self.storage.next_fire_at, None

    @precondition(
        lambda self: (
            not self.in_flight
            and (self.storage.pending_job is not None or self.storage.next_fire_at is not None)
        )
    )
    @rule(late=st.integers(0, 12))
    def tick_at_the_booked_time(self, late: int) -> None:
        """Time reaches the booked reminder (plus `late` minutes), the tick runs."""
        if self.storage.pending_job is None:
            assert self.storage.next_fire_at is not None
            self.now = max(self.now, self.storage.next_fire_at + dt.timedelta(minutes=late))
            self.tick_materialises()
        slot = self.storage.pending_job
        assert slot is not None
        self.storage.pending_job = None
        if slot < expiry_cutoff("low", self.now):  # too late: book the next one instead
            expired = Event(kind=EventKind.EXPIRED, next_at=self._next_at())
            assert isinstance(self._apply(expired), Applied)
            return
        if isinstance(self._apply(CLAIM), Applied):  # refused: the job is suppressed
            assert self.owed, "two reminders without a check-in between"
            assert self.storage.count(G.RESERVED) == 1, "a send without a reserved grant"
            self.in_flight, self.owed = True, False

    def _finalise(self, status: str) -> None:
        """The claimed job ends in `status`; the plan hears it as the kind tells it."""
        holds = self.plan.state is PlanState.SENDING  # the one in-flight job reserved it
        event = event_for_job_end(
            self.plan, status, holds_reservation=holds, next_at=self._next_at()
        )
        if event is not None:
            result = self._apply(event)  # refused if the user paused or closed meanwhile
            if isinstance(result, Applied) and result.plan.state is PlanState.SCHEDULED:
                self.owed = True  # the grant is back (or a parked check-in granted anew)
        self.in_flight = False

    # One rule per outcome, so that hypothesis's swarm testing varies their mix.
    @precondition(lambda self: self.in_flight)
    @rule()
    def the_channel_accepts_the_reminder(self) -> None:
        self._finalise("accepted")

    @precondition(lambda self: self.in_flight)
    @rule()
    def the_send_fails(self) -> None:
        self._finalise("failed")

    @precondition(lambda self: self.in_flight)
    @rule()
    def the_send_ends_unknown(self) -> None:
        self._finalise("unknown")

    @precondition(lambda self: self.in_flight)
    @rule(minutes=st.integers(1, 30))
    def the_send_is_retried_later(self, minutes: int) -> None:
        """A transient error: the job waits in `retry_wait`, still the plan's send."""
        assert (
            event_for_job_end(
                self.plan, "retry_wait", holds_reservation=True, next_at=self._next_at()
            )
            is None
        )
        self.now += dt.timedelta(minutes=minutes)

    @precondition(lambda self: self.in_flight)
    @rule(end=st.sampled_from(["expired", "cancelled", "suppressed"]))
    def the_retried_job_ends_unsent(self, end: str) -> None:
        """Its catch-up window passed between retries, or it was cancelled or suppressed
        (quiet time) at its next try: nothing went out."""
        self._finalise(end)

    @precondition(lambda self: self.plan.state is not PlanState.SCHEDULED)
    @rule()
    def a_stale_job_tries_to_claim(self) -> None:
        assert isinstance(self._apply(CLAIM), Refused)

    @precondition(lambda self: not self.in_flight)
    @rule(outcome=st.sampled_from([ACCEPTED, FAILED, UNKNOWN]))
    def a_late_worker_finalises_again(self, outcome: Event) -> None:
        assert isinstance(self._apply(outcome), Refused)

    @rule(
        end=st.sampled_from(["accepted", "failed", "unknown", "expired", "cancelled", "suppressed"])
    )
    def a_job_that_holds_no_reservation_ends(self, end: str) -> None:
        """A stale or refused job's end never settles the plan (unless it is the
        expiry of a scheduled plan's due reminder, which books the next one)."""
        event = event_for_job_end(self.plan, end, holds_reservation=False, next_at=self._next_at())
        if event is not None:
            assert self.plan.state is PlanState.SCHEDULED
            assert event.kind is EventKind.EXPIRED
            assert isinstance(self._apply(event), Applied)

    @invariant()
    def at_most_one_grant_is_available(self) -> None:
        assert self.storage.count(G.AVAILABLE) <= 1

    @invariant()
    def the_stored_grants_match_the_plan(self) -> None:
        assert self.storage.count(G.AVAILABLE) == (self.plan.state is PlanState.SCHEDULED)
        assert self.storage.count(G.RESERVED) == (self.plan.state is PlanState.SENDING)

    @invariant()
    def nothing_is_available_or_booked_after_close(self) -> None:
        if self.plan.state is PlanState.DISABLED:
            assert self.storage.count(G.AVAILABLE) == self.storage.count(G.RESERVED) == 0
            assert self.storage.next_fire_at is None
            assert self.storage.pending_job is None

    @invariant()
    def a_scheduled_plan_has_a_reminder_booked(self) -> None:
        if self.plan.state is PlanState.SCHEDULED:
            assert self.storage.next_fire_at or self.storage.pending_job

    @invariant()
    def a_check_in_is_never_lost(self) -> None:
        if self.owed and not self.in_flight:
            assert self.plan.state is PlanState.SCHEDULED

    @invariant()
    def only_a_send_in_flight_keeps_the_plan_sending(self) -> None:
        if self.plan.state is PlanState.SENDING:
            assert self.in_flight

    def teardown(self) -> None:
        if self.in_flight:  # the finaliser always runs after a claim
            self._finalise("unknown")  # e.g. the lease sweeper, for a worker that died
        assert self.plan.state is not PlanState.SENDING


WaterPlanMachine.TestCase.settings = settings(
    max_examples=80, stateful_step_count=40, deadline=None
)
TestTheWaterPlanKeepsItsPromises = WaterPlanMachine.TestCase
