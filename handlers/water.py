"""Handlers for the water reminders: switch them, tune them, see them.

The plan itself is changed only through `services.water` (its one writer);
these handlers turn the user's words into its events and its answers into words.
"""

from __future__ import annotations

import datetime as dt

import services.water
from handlers import texts
from handlers.commands import (
    SetDayWindow,
    SetWaterGoal,
    SetWaterInterval,
    SnoozeWater,
    SwitchWater,
)
from handlers.context import Context, Outcome
from handlers.router import Router
from scheduler.core import water_plan as wp
from scheduler.core.texts import times
from storage.database import Session
from storage.repos import water
from storage.vocabulary import PlanState

router = Router("water")

KINDS = {"enable": wp.EventKind.ENABLE, "resume": wp.EventKind.RESUME}


@router.handles(SwitchWater)
async def switch_water(session: Session, ctx: Context, cmd: SwitchWater) -> Outcome:
    record = await services.water.ensure(session, ctx.user.id, ctx.now)
    loaded = await services.water.load(session, record)
    if cmd.action in KINDS:
        next_at = await services.water.next_time(session, ctx.user.id, ctx.occurred_at, ctx.now)
        event = wp.Event(kind=KINDS[cmd.action], request_id=ctx.source_key, next_at=next_at)
    else:
        event = wp.PAUSE if cmd.action == "pause" else wp.CLOSE
    result = await services.water.act(session, loaded, event, ctx.now)
    if isinstance(result, wp.Refused):
        return Outcome(
            reply=texts.WATER_REFUSED.get(result.reason.value, texts.WATER_REFUSED_OTHER)
        )
    return Outcome(reply=_switched(cmd.action, event, ctx))


def _switched(action: str, event: wp.Event, ctx: Context) -> str:
    if action == "pause":
        return texts.WATER_PAUSED
    if action == "close":
        return texts.WATER_CLOSED
    assert event.next_at is not None
    label = ctx.when(event.next_at)
    return texts.water_enabled(label) if action == "enable" else texts.water_resumed(label)


async def check_in(session: Session, ctx: Context, today_total: int) -> str | None:
    """A glass was recorded: the plan's check-in, and the line about the goal and the
    next reminder if the plan is on."""
    if not ctx.user.water_plan_on:
        # Read with the user's row lock: no plan, or one switched off. Nothing here
        # writes the plan then, so this message orders before any enable racing it.
        return None
    record = await water.plan_of(session, ctx.user.id, lock=True)
    if record is None:
        return None
    loaded = await services.water.load(session, record)
    if loaded.plan.state is PlanState.DISABLED:
        return None
    habit = await water.habit(session, ctx.user.id)
    next_at = await services.water.next_time(session, ctx.user.id, ctx.occurred_at, ctx.now, habit)
    event = wp.Event(kind=wp.EventKind.CHECKIN, request_id=ctx.source_key, next_at=next_at)
    result = await services.water.act(session, loaded, event, ctx.now)
    if isinstance(result, wp.Refused):
        return None
    goal = habit.goal
    return texts.checkin_next(ctx.when(next_at), today_total, goal)


@router.handles(SnoozeWater)
async def snooze(session: Session, ctx: Context, cmd: SnoozeWater) -> Outcome:
    """稍后 (or the card's button): one more reminder in `cmd.minutes`, like a check-in
    without a glass (the message is the grant's request, so the plan stays one grant)."""
    record = await water.plan_of(session, ctx.user.id, lock=True)
    if record is None:
        return Outcome(reply=texts.SNOOZE_OFF)
    loaded = await services.water.load(session, record)
    at = ctx.now + dt.timedelta(minutes=cmd.minutes)
    event = wp.Event(kind=wp.EventKind.CHECKIN, request_id=ctx.source_key, next_at=at)
    if loaded.plan.state is PlanState.DISABLED or isinstance(
        await services.water.act(session, loaded, event, ctx.now), wp.Refused
    ):
        return Outcome(reply=texts.SNOOZE_OFF)
    return Outcome(reply=texts.snoozed(ctx.when(at)))


@router.handles(SetDayWindow)
async def set_day_window(session: Session, ctx: Context, cmd: SetDayWindow) -> Outcome:
    await water.set_habit(session, ctx.user.id, wake_at=cmd.wake, sleep_at=cmd.sleep)
    return Outcome(reply=texts.window_set(f"{times.hm(cmd.wake)}-{times.hm(cmd.sleep)}"))


@router.handles(SetWaterInterval)
async def set_water_interval(session: Session, ctx: Context, cmd: SetWaterInterval) -> Outcome:
    await water.set_habit(session, ctx.user.id, water_interval_minutes=cmd.minutes)
    return Outcome(reply=texts.interval_set(cmd.minutes))


@router.handles(SetWaterGoal)
async def set_water_goal(session: Session, ctx: Context, cmd: SetWaterGoal) -> Outcome:
    await water.set_habit(session, ctx.user.id, water_goal=cmd.glasses)
    return Outcome(reply=texts.goal_set(cmd.glasses))


async def notice_owed(session: Session, user_id: int, now: dt.datetime) -> str | None:
    """If the plan paused itself since the user last wrote, say so once."""
    record = await water.plan_of(session, user_id)
    if record is None or record.pause_notice is None:
        return None  # the usual case, read without a lock
    record = await water.plan_of(session, user_id, lock=True)
    assert record is not None
    loaded = await services.water.load(session, record)
    told, notice = wp.take_notice(loaded.plan)
    if notice is None:
        return None
    await services.water.save(session, record, told, now)
    return texts.WATER_NOTICE.get(notice.paused_because)
