"""The writer of admin incidents and their alerts: an incident row and the alert job
that tells about it, in the caller's transaction, so they are made together or not
at all.

Decisions (see `scheduler.core.incidents` for the state table):
- An alert is a notification job like any other: kind `admin_alert` (at least once,
  high priority), of an unlisted internal rule of the admin's, on the alert route's
  channel (`job.channel`), to the route's recipients; its text is fixed on the job
  (`payload`), so a resend is an exact repeat.
- Once per incident: the alert is queued only on the transition that says so, under
  the incident's row lock and a conditional UPDATE (`incidents.mark_alerted`).
- Never through the broken road: a route whose channel is the incident's subject
  queues nothing; the incident stays `open` and shows in 管理 状态.
- Never a storm: at most `ALERTS_PER_HOUR` incidents are alerted in a sliding hour;
  past that an incident stays `open` and is alerted at its next sighting after the
  hour frees. The channel's own per-recipient budget applies on top, at send time.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

import services.rules
from scheduler.core import incidents as pure
from scheduler.core import rule_kinds
from scheduler.core.incidents import Action, AlertRoute, Event
from scheduler.core.texts import incidents as words
from storage.database import Session
from storage.records import NewJob
from storage.repos import incidents, job_claims, users
from storage.vocabulary import IncidentKind, RuleKind

ALERTS_PER_HOUR = 10
_SLOT_TRIES = 5


async def failure_seen(
    session: Session,
    route: AlertRoute | None,
    kind: IncidentKind,
    subject: str,
    *,
    code: int | None,
    detail: str,
    now: dt.datetime,
    since: dt.datetime | None = None,
) -> bool:
    """Record that `subject` is broken (open or refresh its incident) and queue the
    admins' alert when the state table says so and a road exists. True when an alert
    was queued by this call. `since`: when it broke, if known before it was noticed
    (the last tick), kept as the incident's `opened_at`; else now."""
    found, _ = await incidents.seen(session, kind, subject, detail=detail, now=now, since=since)
    state = pure.state_of(alerted_at=found.alerted_at, resolved_at=None, told=None)
    if pure.step(state, Event.SEEN).action is not Action.ALERT:
        return False
    if route is None or not route.reaches_around(subject):
        return False
    if await incidents.alerted_since(session, now - dt.timedelta(hours=1)) >= ALERTS_PER_HOUR:
        return False
    if not await incidents.mark_alerted(session, found.id, now=now):
        return False  # another worker queued it
    tz = ZoneInfo(route.timezone)
    text = words.alert_text(kind, subject, code=code, detail=detail, since=found.opened_at, tz=tz)
    await _queue(session, route, text, now)
    return True


async def healed(
    session: Session,
    route: AlertRoute | None,
    kind: IncidentKind,
    subject: str,
    *,
    now: dt.datetime,
) -> bool:
    """`subject` works again: resolve its open incident and, if the admins were told
    about it, queue the all-clear once. True when the all-clear was queued.

    Reads without a lock first: called on every tick for the scheduler's incident,
    it must not take a (gap) lock when nothing is open, which is nearly always."""
    if await incidents.open_one(session, kind, subject) is None:
        return False
    found = await incidents.open_one(session, kind, subject, lock=True)
    if found is None:
        return False
    state = pure.state_of(alerted_at=found.alerted_at, resolved_at=None, told=None)
    tell = pure.step(state, Event.HEALED).action is Action.TELL_RECOVERY
    tell = tell and route is not None and route.reaches_around(subject)
    if not await incidents.resolve(session, found.id, now=now, told=tell):
        return False  # another worker resolved it
    if tell and route is not None:
        tz = ZoneInfo(route.timezone)
        await _queue(
            session,
            route,
            words.recovery_text(kind, subject, since=found.opened_at, healed=now, tz=tz),
            now,
        )
    return tell


async def _queue(session: Session, route: AlertRoute, text: str, now: dt.datetime) -> None:
    """One alert job per recipient, due now, of the owner's internal admin_alert rule."""
    owner = await users.ensure_and_lock_user(session, route.owner, timezone=route.timezone, now=now)
    rule_id = await services.rules.internal_rule_id(session, owner.id, RuleKind.ADMIN_ALERT, now)
    terms = rule_kinds.TERMS[RuleKind.ADMIN_ALERT]
    for recipient in route.recipients:
        job = NewJob(
            user_id=owner.id,
            rule_id=rule_id,
            slot=now,
            policy=terms.policy,
            priority=terms.priority,
            channel=route.channel,
            recipient=recipient,
            payload_kind=RuleKind.ADMIN_ALERT,
            payload=text,
        )
        await _materialise_distinct(session, job, now)


async def _materialise_distinct(session: Session, job: NewJob, now: dt.datetime) -> None:
    """Insert the job at the rule's next free slot: (user, rule, slot) is unique, and
    alerts queued at one instant (several incidents, several recipients) must all be
    kept. A companion worker may take the same slot meanwhile: read again and retry."""
    for _ in range(_SLOT_TRIES):
        latest = await job_claims.last_slot(session, job.rule_id)
        slot = now if latest is None or latest < now else latest + dt.timedelta(microseconds=1)
        if await job_claims.materialise(session, dataclasses.replace(job, slot=slot), now=now):
            return
    raise RuntimeError("no free slot for an admin alert")
