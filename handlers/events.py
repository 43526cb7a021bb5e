"""Handlers for calendar events: add, list, cancel, change; each keeps its reminder
in step through `services.rules` (a changed event moves its pending
reminder, a cancelled one cancels it)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import services.rules
from handlers import texts
from handlers.commands import AddEvent, CancelEvent, EditEvent, ShowEvents
from handlers.context import Context, Outcome
from handlers.naming import named
from handlers.router import Router
from scheduler.core.texts import times
from storage.database import Session
from storage.records import Effect, EventRecord
from storage.repos import events, records
from storage.vocabulary import EffectKind, EventStatus, RuleKind

router = Router("events")


@router.handles(AddEvent)
async def add_event(session: Session, ctx: Context, cmd: AddEvent) -> Outcome:
    starts_at = ctx.local(cmd.day, cmd.start) if cmd.start else None
    ends_at = ctx.local(cmd.day, cmd.end) if cmd.start and cmd.end else None
    number = await events.free_number(session, ctx.user.id, ctx.today)
    record_id = await records.add_event(
        session,
        user_id=ctx.user.id,
        title=cmd.title,
        day=cmd.day,
        starts_at=starts_at,
        ends_at=ends_at,
        remind_minutes_before=cmd.remind_minutes_before,
        now=ctx.now,
        source_key=ctx.source_key,
        number=number,
    )
    event = await events.get(session, record_id)
    assert event is not None
    remind_at = await services.rules.schedule_event(session, ctx.user.id, event, ctx.now)
    reply = texts.event_added(
        number,
        times.day_label(cmd.day, ctx.today),
        texts.event_span(cmd.start, cmd.end),
        cmd.title,
        ctx.when(remind_at) if remind_at else None,
    )
    return Outcome(reply=reply, effect=Effect(kind=EffectKind.EVENT, record_id=record_id))


@router.handles(ShowEvents)
async def show_events(session: Session, ctx: Context, cmd: ShowEvents) -> Outcome:
    upcoming = await events.upcoming(session, ctx.user.id, ctx.today)
    if not upcoming:
        return Outcome(reply=texts.NO_EVENTS)
    lines = [
        texts.event_line(e.number, times.day_label(e.day, ctx.today), _span(e, ctx), e.title)
        for e in upcoming[:20]
    ]
    return Outcome(reply=texts.events_list(lines))


@router.handles(CancelEvent)
async def cancel_event(session: Session, ctx: Context, cmd: CancelEvent) -> Outcome:
    if cmd.title_ref is not None:
        named = await _named(session, ctx, cmd.title_ref, cmd.day)
        if isinstance(named, str):
            return Outcome(reply=named)
        event: EventRecord | None = named
    else:
        event = await events.by_number(session, ctx.user.id, cmd.number, ctx.today)
    if event is None:
        return Outcome(reply=texts.event_not_found(cmd.number))
    return await cancel(session, ctx, event)


async def cancel(session: Session, ctx: Context, event: EventRecord) -> Outcome:
    """Call `event` off: cancelled (kept, not deleted) and its reminder with it."""
    await events.change(session, event.id, ctx.user.id, status=EventStatus.CANCELLED, number=None)
    await services.rules.cancel_for(session, RuleKind.EVENT_REMINDER, event.id, ctx.now)
    return Outcome(reply=texts.event_cancelled(event.title))


async def named_event(session: Session, ctx: Context, title: str) -> EventRecord | None:
    """The one upcoming event whose title holds `title`, or None (none, or several)."""
    named = await _named(session, ctx, title, None)
    return None if isinstance(named, str) else named


@router.handles(EditEvent)
async def edit_event(session: Session, ctx: Context, cmd: EditEvent) -> Outcome:
    event = await _target(session, ctx, cmd)
    if isinstance(event, str):
        return Outcome(reply=event)
    changed = _edited(event, cmd, ctx)
    await events.change(
        session,
        event.id,
        ctx.user.id,
        title=changed.title,
        day=changed.day,
        starts_at=changed.starts_at,
        ends_at=changed.ends_at,
        remind_minutes_before=changed.remind_minutes_before,
    )
    remind_at = await services.rules.schedule_event(session, ctx.user.id, changed, ctx.now)
    day = times.day_label(changed.day, ctx.today)
    reply = texts.event_changed(
        day, _span(changed, ctx), changed.title, ctx.when(remind_at) if remind_at else None
    )
    return Outcome(reply=reply)


async def _target(session: Session, ctx: Context, cmd: EditEvent) -> EventRecord | str:
    """The event `cmd` names (by number, or by a part of its title), or the reply
    saying why there is none (no such event, or several with that title)."""
    if cmd.title_ref is None:
        event = await events.by_number(session, ctx.user.id, cmd.number, ctx.today)
        return event if event is not None else texts.event_not_found(cmd.number)
    return await _named(session, ctx, cmd.title_ref, None)


async def _named(
    session: Session, ctx: Context, title: str, day: dt.date | None
) -> EventRecord | str:
    """The one upcoming event (on `day` when said) that `title` names (`handlers.naming`:
    打疫苗 finds 疫苗第二针, 孙女钢琴课 finds 钢琴课), or the reply saying there is none or
    which ones match."""
    upcoming = [
        e for e in await events.upcoming(session, ctx.user.id, ctx.today) if day in (None, e.day)
    ]
    found = named(upcoming, title, lambda event: event.title)
    if not found:
        return texts.event_title_not_found(title)
    if len(found) > 1:
        return texts.event_title_ambiguous(title, [(e.number, e.title) for e in found])
    return found[0]


def _edited(event: EventRecord, cmd: EditEvent, ctx: Context) -> EventRecord:
    """The event with only what the command gave replaced (a new start moves the end
    with it, keeping the length, unless a new end was given)."""
    day = cmd.day or event.day
    old_start = event.starts_at.astimezone(ctx.tz).time() if event.starts_at else None
    start = cmd.start or old_start
    starts_at = ctx.local(day, start) if start else None
    ends_at = ctx.local(day, cmd.end) if cmd.end and start else None
    if ends_at is None and event.ends_at and event.starts_at and starts_at:
        ends_at = starts_at + (event.ends_at - event.starts_at)
    return dataclasses.replace(
        event,
        title=cmd.title or event.title,
        day=day,
        starts_at=starts_at,
        ends_at=ends_at,
        remind_minutes_before=(
            cmd.remind_minutes_before
            if cmd.remind_minutes_before is not None
            else event.remind_minutes_before
        ),
    )


def _span(event: EventRecord, ctx: Context) -> str:
    start = event.starts_at.astimezone(ctx.tz).time() if event.starts_at else None
    end = event.ends_at.astimezone(ctx.tz).time() if event.ends_at else None
    return texts.event_span(start, end)
