"""The water plan's one writer: load the plan, run the pure machine, store the result.

`scheduler.core.water_plan` decides; this module loads the plan (its row and its live
grant), applies one event, and carries out the effects in the caller's transaction.
Both the conversation (the user's 开启/喝水/暂停/恢复/关闭) and the tick (claim,
send result, expiry) come through `act`, so the plan has exactly one writer.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import services.rules
from scheduler.core import water_plan as wp
from scheduler.core.water_rule import next_reminder
from storage.database import Session
from storage.records import Habit, PlanRecord
from storage.repos import job_claims, reads, rules, water
from storage.vocabulary import GrantStatus, JobStatus, PlanState, RuleKind


@dataclass(frozen=True, kw_only=True, slots=True)
class Loaded:
    record: PlanRecord
    plan: wp.Plan


async def ensure(session: Session, user_id: int, now: dt.datetime) -> PlanRecord:
    """The user's plan, created disabled (with its rule) on first use; its row locked
    (MySQL/MariaDB) for the caller, who is about to act on it."""
    record = await water.plan_of(session, user_id, lock=True)
    if record is not None:
        return record
    rule_id = await services.rules.create(session, user_id=user_id, kind=RuleKind.WATER, now=now)
    await water.create_plan(session, user_id=user_id, rule_id=rule_id, now=now)
    record = await water.plan_of(session, user_id)
    assert record is not None
    return record


async def load(session: Session, record: PlanRecord) -> Loaded:
    state = PlanState(record.state)
    live = wp.LIVE_GRANT[state]
    grant = None
    if live is not None and await water.grant_in(session, record.id, live.value) is not None:
        grant = live
    parked = None
    if record.parked_request_key and record.parked_next_at:
        parked = wp.Event(
            kind=wp.EventKind.CHECKIN,
            request_id=record.parked_request_key,
            next_at=record.parked_next_at,
        )
    notice: wp.PauseCause | None = None
    if record.pause_notice in (JobStatus.FAILED, JobStatus.UNKNOWN):
        notice = JobStatus.FAILED if record.pause_notice == JobStatus.FAILED else JobStatus.UNKNOWN
    plan = wp.Plan(state=state, grant=grant, parked=parked, pause_notice_pending=notice)
    return Loaded(record=record, plan=plan)


async def act(
    session: Session,
    loaded: Loaded,
    event: wp.Event,
    now: dt.datetime,
    *,
    job_id: int | None = None,
) -> wp.Applied | wp.Refused:
    """Apply `event`; on success store the plan and carry out its effects."""
    result = wp.apply(loaded.plan, event)
    if isinstance(result, wp.Applied):
        await save(session, loaded.record, result.plan, now)
        for effect in result.effects:
            await _carry_out(session, loaded.record, effect, now, job_id)
    return result


async def save(session: Session, record: PlanRecord, plan: wp.Plan, now: dt.datetime) -> None:
    parked = plan.parked
    await water.save_plan(
        session,
        record.id,
        state=plan.state.value,
        parked_request_key=parked.request_id if parked else None,
        parked_next_at=parked.next_at if parked else None,
        pause_notice=plan.pause_notice_pending,
        now=now,
    )


async def _carry_out(
    session: Session, record: PlanRecord, effect: wp.Effect, now: dt.datetime, job_id: int | None
) -> None:
    if isinstance(effect, wp.CreateGrant):
        await water.add_grant(session, plan_id=record.id, request_key=effect.request_id, now=now)
    elif isinstance(effect, wp.ReserveGrant):
        await _move(session, record, GrantStatus.AVAILABLE, GrantStatus.RESERVED, now, job_id)
    elif isinstance(effect, wp.ReleaseGrant):
        if not await water.release_grant(session, record.id, now=now):
            raise RuntimeError(f"water plan {record.id}: no reserved grant to release")
    elif isinstance(effect, wp.ConsumeGrant):
        await _move(session, record, GrantStatus.RESERVED, GrantStatus.CONSUMED, now, None)
    elif isinstance(effect, wp.InvalidateGrants):
        await water.invalidate_open_grants(session, record.id, now=now)
    elif isinstance(effect, wp.CancelPendingJobs):
        await job_claims.cancel_pending_for_rule(
            session, record.rule_id, now=now, note="plan changed"
        )
    elif isinstance(effect, wp.ScheduleReminder):
        await rules.set_next_fire(session, record.rule_id, effect.at, now=now)
    else:
        await rules.set_next_fire(session, record.rule_id, None, now=now)


async def _move(
    session: Session,
    record: PlanRecord,
    expected: str,
    to: str,
    now: dt.datetime,
    job_id: int | None,
) -> None:
    grant_id = await water.grant_in(session, record.id, expected)
    if grant_id is None or not await water.move_grant(
        session, grant_id, expected=expected, to=to, now=now, job_id=job_id
    ):
        raise RuntimeError(f"water plan {record.id}: no {expected} grant to move to {to}")


async def next_time(
    session: Session, user_id: int, at: dt.datetime, now: dt.datetime, habit: Habit | None = None
) -> dt.datetime:
    """When the next reminder is due after a check-in at `at` (the pure rule, with the
    user's window, interval, goal and today's glasses)."""
    habit = habit or await water.habit(session, user_id)
    tz = ZoneInfo(habit.timezone)
    return next_reminder(
        checkin_at=at,
        tz=tz,
        interval=dt.timedelta(minutes=habit.interval_minutes),
        wake=habit.wake_at,
        sleep=habit.sleep_at,
        goal_reached=await _goal_reached(session, user_id, habit, tz, now),
    )


async def _goal_reached(
    session: Session, user_id: int, habit: Habit, tz: ZoneInfo, now: dt.datetime
) -> bool:
    today = now.astimezone(tz).date()
    start = dt.datetime.combine(today, dt.time(), tz)
    glasses = await reads.water_total(session, user_id, start, start + dt.timedelta(days=1))
    return glasses >= habit.goal
