"""The one writer of every rule except water's: digests, event, task and custom reminders.

Handlers (and the conversation) turn the user's words into these calls; the tick's
kinds (`scheduler.reminder_kinds`) read what they wrote. A rule's `next_fire_at` is
always computed here, from the pure `scheduler.core.reminder_rules` and
`scheduler.core.schedule`, never by the caller. Water's rule is the plan's
(`services.water`); card updates are queued by `services.card_updates`.

Every rule is made by `create`, which takes its delivery policy and priority from
the kind's row in `scheduler.core.rule_kinds` (the reasons are written there).

Decisions:
- Digests are on by default for every user (08:00 and 21:30 local), and so is the
  weekly review (Sunday 20:00); they are created on the user's first message after
  the version that brought them (`DEFAULTS_VERSION`).
- An event reminder whose time has passed while the event is still ahead fires at
  once; a started event gets none. Task reminders (tasks with a due time) are 30
  minutes before.
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from scheduler.core import nag, rule_kinds
from scheduler.core.reminder_rules import (
    CHANNEL,
    DEFAULT_DIGEST_TIMES,
    DEFAULTS_VERSION,
    DIGESTS,
    REVIEW_DEFAULT,
    TASK_LEAD_MINUTES,
    digest_schedule,
    digest_time,
    event_reminder_at,
    review_schedule,
    review_spec,
    review_time,
    task_reminder_at,
)
from scheduler.core.rule_state import can_transition
from scheduler.core.schedule import Schedule, next_after
from storage.database import Session
from storage.records import EventRecord, RuleRecord, TaskRecord
from storage.repos import events, job_claims, rules, sent_or_missed, tasks, users
from storage.vocabulary import EventStatus, RuleKind, RuleStatus, TaskStatus


async def create(
    session: Session,
    *,
    user_id: int,
    kind: RuleKind,
    now: dt.datetime,
    important: bool = False,
    next_fire_at: dt.datetime | None = None,
    status: str = RuleStatus.ACTIVE,
    spec: str = "",
    ref_id: int | None = None,
    label: str = "",
    listed: bool = True,
) -> int:
    """Create a rule of `kind` on the user's channel; its id. Policy and priority come
    from the kind's terms (`important`: a custom reminder marked 重要)."""
    terms = rule_kinds.terms(kind, important=important)
    return await rules.create(
        session,
        user_id=user_id,
        kind=kind,
        policy=terms.policy,
        priority=terms.priority,
        channel=CHANNEL,
        now=now,
        next_fire_at=next_fire_at,
        status=status,
        spec=spec,
        ref_id=ref_id,
        label=label,
        listed=listed,
    )


async def internal_rule_id(session: Session, user_id: int, kind: RuleKind, now: dt.datetime) -> int:
    """The id of the user's unlisted internal rule of `kind` (card updates, admin
    alerts, channel tests hang their jobs on it), made on first use."""
    found = await rules.of_user(session, user_id, kind)
    if found:
        return found[0].id
    return await create(
        session, user_id=user_id, kind=kind, now=now, status=RuleStatus.INTERNAL, listed=False
    )


async def ensure_defaults(session: Session, user_id: int, tz: ZoneInfo, now: dt.datetime) -> None:
    """Give the user the default digests once (idempotent by kind)."""
    have = {r.kind for r in await rules.of_user(session, user_id)}
    for kind in DIGESTS:
        if kind not in have:
            at = DEFAULT_DIGEST_TIMES[kind]
            await create(
                session,
                user_id=user_id,
                kind=kind,
                now=now,
                next_fire_at=next_after(digest_schedule(at), now, tz),
                spec=at.strftime("%H:%M"),
                label=rule_kinds.ROWS[kind].label,
            )
    if RuleKind.WEEKLY_REVIEW not in have:
        weekday, at = REVIEW_DEFAULT
        await create(
            session,
            user_id=user_id,
            kind=RuleKind.WEEKLY_REVIEW,
            now=now,
            next_fire_at=next_after(review_schedule(weekday, at), now, tz),
            spec=review_spec(weekday, at),
            label=rule_kinds.ROWS[RuleKind.WEEKLY_REVIEW].label,
        )
    await users.update_user(session, user_id, defaults_version=DEFAULTS_VERSION)


async def set_digest(
    session: Session,
    user_id: int,
    kind: RuleKind,
    at: dt.time | None,
    tz: ZoneInfo,
    now: dt.datetime,
) -> RuleRecord:
    """Move a digest to `at` (and turn it on), or turn it off (`at` None). The user has
    their digests: the conversation gives every user the defaults first."""
    found = next(
        r for r in await rules.of_user(session, user_id, kind) if r.status != RuleStatus.DELETED
    )
    rule = await _locked(session, found)
    assert rule is not None  # digests are never retired or deleted
    await job_claims.cancel_pending_for_rule(session, rule.id, now=now, note="digest changed")
    if at is None:
        await _move(session, rule, RuleStatus.PAUSED, now, next_fire_at=None)
    else:
        await _move(
            session,
            rule,
            RuleStatus.ACTIVE,
            now,
            spec=at.strftime("%H:%M"),
            next_fire_at=next_after(digest_schedule(at), now, tz),
        )
    changed = await rules.get(session, rule.id)
    assert changed is not None
    return changed


async def set_review(
    session: Session,
    user_id: int,
    when: tuple[int, dt.time] | None,
    tz: ZoneInfo,
    now: dt.datetime,
) -> RuleRecord:
    """Move the weekly review to (weekday, time) and turn it on, or off (`when` None).
    Like the digests, every user has it: the conversation gives the defaults first."""
    found = next(
        r
        for r in await rules.of_user(session, user_id, RuleKind.WEEKLY_REVIEW)
        if r.status != RuleStatus.DELETED
    )
    rule = await _locked(session, found)
    assert rule is not None  # the review is never retired or deleted
    await job_claims.cancel_pending_for_rule(session, rule.id, now=now, note="review changed")
    if when is None:
        await _move(session, rule, RuleStatus.PAUSED, now, next_fire_at=None)
    else:
        at = next_after(review_schedule(*when), now, tz)
        await _move(session, rule, RuleStatus.ACTIVE, now, spec=review_spec(*when), next_fire_at=at)
    changed = await rules.get(session, rule.id)
    assert changed is not None
    return changed


async def schedule_event(
    session: Session, user_id: int, event: EventRecord, now: dt.datetime
) -> dt.datetime | None:
    """Create or move the event's reminder (a changed event moves it); its time, or None."""
    at = event_reminder_at(event)
    if event.status != EventStatus.SCHEDULED or at is None or event.starts_at is None:
        await cancel_for(session, RuleKind.EVENT_REMINDER, event.id, now)
        return None
    return await _one_off(
        session,
        user_id,
        RuleKind.EVENT_REMINDER,
        event.id,
        event.title,
        max(at, now),
        event.starts_at,
        now,
    )


async def schedule_task(
    session: Session, user_id: int, task: TaskRecord, tz: ZoneInfo, now: dt.datetime
) -> dt.datetime | None:
    """Create or move the task's reminder; its time, or None (no time, or already due)."""
    at = task_reminder_at(task, tz)
    if task.status != TaskStatus.OPEN or at is None:
        await cancel_for(session, RuleKind.TASK_DUE, task.id, now)
        return None
    due = at + dt.timedelta(minutes=TASK_LEAD_MINUTES)
    return await _one_off(
        session, user_id, RuleKind.TASK_DUE, task.id, task.title, max(at, now), due, now
    )


async def _one_off(
    session: Session,
    user_id: int,
    kind: RuleKind,
    ref_id: int,
    label: str,
    at: dt.datetime,
    deadline: dt.datetime,
    now: dt.datetime,
) -> dt.datetime | None:
    """The rule of a thing that happens once: fires at `at`, pointless after `deadline`.

    A reminder whose time has passed fires at once, unless one was already sent for
    this thing (an edit after the reminder must not remind again for the same time).
    """
    rule = await rules.of_ref(session, kind, ref_id)
    if rule is not None:
        rule = await _locked(session, rule)
    if rule is not None:
        await job_claims.cancel_pending_for_rule(session, rule.id, now=now, note="moved")
    if at <= now and await sent_or_missed.sent_for_ref(session, kind, ref_id):
        if rule is not None:
            await _move(session, rule, RuleStatus.DONE, now)
        return None
    if deadline <= now:
        if rule is not None:
            await _move(session, rule, RuleStatus.DONE, now)
        return None
    if rule is None:
        await create(
            session,
            user_id=user_id,
            kind=kind,
            now=now,
            next_fire_at=at,
            ref_id=ref_id,
            label=label,
        )
    else:  # a paused reminder stays paused; it only gets the new time
        await rules.change(session, rule.id, now=now, next_fire_at=at, label=label)
    return at


async def cancel_for(session: Session, kind: RuleKind, ref_id: int, now: dt.datetime) -> None:
    """The thing is gone (cancelled, deleted): its reminder leaves the list."""
    found = await rules.of_ref(session, kind, ref_id)
    rule = None if found is None else await _locked(session, found)
    if rule is not None:
        await job_claims.cancel_pending_for_rule(session, rule.id, now=now, note="cancelled")
        await _move(session, rule, RuleStatus.DELETED, now)


async def add_custom(
    session: Session,
    user_id: int,
    *,
    title: str,
    schedule: Schedule,
    important: bool,
    tz: ZoneInfo,
    now: dt.datetime,
) -> RuleRecord:
    """A reminder in the user's words; the caller checked that it has a next time."""
    rule_id = await create(
        session,
        user_id=user_id,
        kind=RuleKind.CUSTOM,
        now=now,
        important=important,
        next_fire_at=next_after(schedule, now, tz),
        spec=schedule.to_json(),
        label=title,
    )
    found = await rules.get(session, rule_id)
    assert found is not None
    return found


async def next_fire(
    session: Session, rule: RuleRecord, tz: ZoneInfo, now: dt.datetime
) -> dt.datetime | None:
    """When a rule that is switched back on fires next, from its own schedule (an
    event's or task's reminder from the thing itself: at once if its time passed
    while paused and the thing is still ahead)."""
    if rule.kind in DIGESTS:
        return next_after(digest_schedule(digest_time(rule)), now, tz)
    if rule.kind == RuleKind.WEEKLY_REVIEW:
        return next_after(review_schedule(*review_time(rule.spec)), now, tz)
    if rule.kind == RuleKind.CUSTOM:
        return next_after(Schedule.from_json(rule.spec), now, tz)
    if rule.kind == RuleKind.NAG:  # picks up its repeats where the clock is now
        return nag.first_after(nag.NagSpec.from_json(rule.spec), now)
    at, deadline = await _thing_times(session, rule, tz)
    if at is None or deadline is None or deadline <= now:
        return None
    return max(at, now)


async def _thing_times(
    session: Session, rule: RuleRecord, tz: ZoneInfo
) -> tuple[dt.datetime | None, dt.datetime | None]:
    """An event or task reminder's time and the moment it becomes pointless."""
    if rule.ref_id is None:
        return None, None
    if rule.kind == RuleKind.EVENT_REMINDER:
        event = await events.get(session, rule.ref_id)
        if event is None or event.status != EventStatus.SCHEDULED:
            return None, None
        return event_reminder_at(event), event.starts_at
    task = await tasks.get(session, rule.ref_id)
    if task is None or task.status != TaskStatus.OPEN:
        return None, None
    at = task_reminder_at(task, tz)
    return at, None if at is None else at + dt.timedelta(minutes=TASK_LEAD_MINUTES)


async def replan(
    session: Session,
    found: RuleRecord,
    now: dt.datetime,
    *,
    note: str,
    spec: str,
    next_fire_at: dt.datetime,
) -> bool:
    """The rule's schedule changed (a nagged task moved): its waiting jobs are
    withdrawn and the new `spec` set, under the rule's lock. It fires next at
    `next_fire_at` if active; a paused rule stays paused (no next fire), decided from
    the locked row, so a pause that landed meanwhile is kept. False when it was gone
    already."""
    rule = await _locked(session, found)
    if rule is None:
        return False
    await job_claims.cancel_pending_for_rule(session, rule.id, now=now, note=note)
    at = next_fire_at if rule.status == RuleStatus.ACTIVE else None
    await rules.change(session, rule.id, now=now, spec=spec, next_fire_at=at)
    return True


async def pause(
    session: Session, found: RuleRecord, now: dt.datetime, *, to: str = RuleStatus.PAUSED
) -> bool:
    """Stop a rule (not water's: that is the plan's); nothing of it is sent meanwhile.
    False when it is gone already."""
    rule = await _locked(session, found)
    if rule is None:
        return False
    await job_claims.cancel_pending_for_rule(session, rule.id, now=now, note=f"rule {to}")
    await _move(session, rule, to, now, next_fire_at=None)
    return True


async def resume(session: Session, found: RuleRecord, tz: ZoneInfo, now: dt.datetime) -> bool:
    """Switch a paused rule back on. False when it is gone or has nothing left to fire
    (then it is done)."""
    rule = await _locked(session, found)
    if rule is None:
        return False
    at = await next_fire(session, rule, tz, now)
    if at is None:
        await _move(session, rule, RuleStatus.DONE, now)
        return False
    await _move(session, rule, RuleStatus.ACTIVE, now, next_fire_at=at)
    return True


async def delete(session: Session, found: RuleRecord, now: dt.datetime) -> bool:
    """The user deleted the rule: its waiting jobs go, its number is released. False
    when it was gone already."""
    rule = await _locked(session, found)
    if rule is None:
        return False
    await job_claims.cancel_pending_for_rule(session, rule.id, now=now, note="rule deleted")
    await _move(session, rule, RuleStatus.DELETED, now)
    return True


async def finish(session: Session, found: RuleRecord, now: dt.datetime, *, note: str) -> bool:
    """The rule has done its work (a nag the user answered): its waiting jobs are
    withdrawn and it is `done`, releasing its number. False when it was gone already."""
    rule = await _locked(session, found)
    if rule is None:
        return False
    await job_claims.cancel_pending_for_rule(session, rule.id, now=now, note=note)
    await _move(session, rule, RuleStatus.DONE, now)
    return True


async def _locked(session: Session, rule: RuleRecord) -> RuleRecord | None:
    """Re-read the rule holding its row lock: a tick that materialised it meanwhile has
    committed (its jobs are then withdrawn by the caller), and none can start now.

    None when the rule left the list meanwhile (the tick retired a one-off whose job
    had just been sent): the caller treats it as gone.
    """
    locked = await rules.get(session, rule.id, lock=True)
    if locked is None or locked.status not in rules.SHOWN:
        return None
    return locked


async def _move(
    session: Session, rule: RuleRecord, to: str, now: dt.datetime, **values: object
) -> None:
    """Change a rule's status as `scheduler.core.rule_state` allows (staying is allowed)."""
    if rule.status != to and not can_transition(rule.status, to):
        raise RuntimeError(f"rule {rule.id}: {rule.status} -> {to} is not a rule transition")
    if to in (RuleStatus.DONE, RuleStatus.DELETED):
        await rules.set_status(session, rule.id, to, now=now)
    else:
        await rules.change(session, rule.id, now=now, status=to, **values)
