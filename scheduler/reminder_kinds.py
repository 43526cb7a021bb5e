"""Digests, event, task and custom reminders, and card updates, as rule kinds.

Each kind re-reads the business state at send time (`prepare`): a cancelled or moved
event, a task done meanwhile, a digest with nothing to say, a deleted rule: nothing is
sent and the job ends `cancelled` or `suppressed` with the reason. The words come
from `scheduler.core.texts.messages` and `scheduler.core.digests` (pure).
"""

from __future__ import annotations

import datetime as dt
import functools
from zoneinfo import ZoneInfo

import services.review
from scheduler.core import cards, digests
from scheduler.core import reminder_rules as store
from scheduler.core.channel import SendResult
from scheduler.core.schedule import Schedule, next_after
from scheduler.core.texts import messages, review_text
from scheduler.kinds import Occurrence, Send, Skip, job_for
from storage.database import Session
from storage.records import Addressee, JobRecord, RuleRecord
from storage.repos import events, reads, rules, tasks
from storage.vocabulary import (
    CardKind,
    DeliveryPolicy,
    EventStatus,
    JobStatus,
    RuleKind,
    RuleStatus,
    TaskStatus,
)

STARTED_GRACE = dt.timedelta(minutes=5)
"""An event reminder still goes out this long after the start (提前0分钟, a slow tick)."""
TRACKS_WEIGHT = dt.timedelta(days=30)
"""The evening nudge goes only to someone who recorded a weight this recently."""


def _tz(to: Addressee) -> ZoneInfo:
    return ZoneInfo(to.prefs.timezone)


async def _live_rule(session: Session, job: JobRecord) -> RuleRecord | Skip:
    """The job's rule, or the Skip when the user switched it off meanwhile."""
    rule = await rules.get(session, job.rule_id)
    if rule is None or rule.status in (RuleStatus.PAUSED, RuleStatus.OFF, RuleStatus.DELETED):
        return Skip(status=JobStatus.CANCELLED, reason="rule switched off")
    return rule


class _NoSettle:
    """What the reminder kinds share: a name, and nothing to update after a send."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def settle(
        self, session: Session, job: JobRecord, result: SendResult, status: str, now: dt.datetime
    ) -> None:
        """Nothing to update: the rule already moved on when the job was made."""

    async def unsent(self, session: Session, job: JobRecord, status: str, now: dt.datetime) -> None:
        """Nothing to update; an expired reminder is told to the user on their next
        message (see `sent_or_missed.missed_since`)."""


class RecurringKind(_NoSettle):
    """Digests and custom reminders: fire on a schedule, the next slot after this one."""

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        assert rule.next_fire_at is not None
        slot = rule.next_fire_at
        following = next_after(_schedule(rule.kind, rule.spec), slot, _tz(to))
        return Occurrence(job=job_for(rule, to, slot), next_fire_at=following)

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        rule = await _live_rule(session, job)
        if isinstance(rule, Skip):
            return rule
        if self.name == RuleKind.CUSTOM:
            return Send(text=messages.custom_reminder(rule.label), dedup=_dedup(job))
        tz = _tz(to)
        if self.name == RuleKind.WEEKLY_REVIEW:
            return await _review(session, job, now, tz)
        if not is_digest_slot(rule, job.slot, tz):
            return Skip(status=JobStatus.SUPPRESSED, reason="digest moved to another time")
        text = await self._digest(session, job, now, tz)
        # A budget crossing 80% or 100% is told once, in the next digest that goes out.
        nudge = await services.review.budget_nudge(session, job.user_id, now, tz)
        text = "\n".join(t for t in (text, nudge) if t) or None
        if text is None:
            return Skip(status=JobStatus.SUPPRESSED, reason="nothing to say")
        return Send(text=text)

    async def _digest(
        self, session: Session, job: JobRecord, now: dt.datetime, tz: ZoneInfo
    ) -> str | None:
        """The digest of the slot's day (a 00:00 digest claimed at 23:58 is tomorrow's)."""
        local = max(now, job.slot).astimezone(tz)
        facts = await day_facts(session, job.user_id, local.date(), tz, now)
        if self.name == RuleKind.DIGEST_MORNING:
            return digests.morning(facts)
        return digests.evening(facts, local.time())


@functools.lru_cache(maxsize=4096)
def _schedule(kind: str, spec: str) -> Schedule:
    """The schedule a rule's stored spec says (cached: the rules a tick plans share a
    few specs, and reading one cost more than computing its next time). A digest's
    spec is its HH:MM, as `store.digest_time` reads it; a malformed spec raises."""
    if kind in store.DIGESTS:
        return store.digest_schedule(dt.time.fromisoformat(spec))
    if kind == RuleKind.WEEKLY_REVIEW:
        return store.review_schedule(*store.review_time(spec))
    return Schedule.from_json(spec)


async def _review(session: Session, job: JobRecord, now: dt.datetime, tz: ZoneInfo) -> Send | Skip:
    """The week ending on the slot's local day, without amounts or text. (A push that
    quiet time moves keeps its week unless the move crosses midnight.)"""
    week_end = job.slot.astimezone(tz).date()
    found = await services.review.build(session, job.user_id, week_end, tz)
    text = review_text.push(found)
    if text is None:
        return Skip(status=JobStatus.SUPPRESSED, reason="nothing recorded this week")
    return Send(text=text)


def is_digest_slot(rule: RuleRecord, slot: dt.datetime, tz: ZoneInfo) -> bool:
    """Whether `slot` is one of the digest's times as its rule now says (asked of the
    same calculator that made it, so a DST-shifted slot still matches)."""
    schedule = store.digest_schedule(store.digest_time(rule))
    return next_after(schedule, slot - dt.timedelta(seconds=1), tz) == slot


async def day_facts(
    session: Session, user_id: int, today: dt.date, tz: ZoneInfo, now: dt.datetime
) -> digests.DayFacts:
    """What a digest is composed from: titles and times only, never amounts or notes."""
    midnight = dt.datetime.combine(today, dt.time(), tz).astimezone(dt.UTC)
    open_tasks = tuple(
        digests.DigestTask(number=t.number, title=t.title, due_date=t.due_date, due_time=t.due_time)
        for t in await tasks.open_tasks(session, user_id)
    )
    todays = tuple(
        digests.DigestEvent(
            title=e.title,
            day=e.day,
            start=e.starts_at.astimezone(tz).time() if e.starts_at else None,
        )
        for e in await reads.events_on(session, user_id, today)
    )
    return digests.DayFacts(
        today=today,
        open_tasks=open_tasks,
        events=todays,
        weight_today=await reads.weighed_since(session, user_id, midnight),
        tracks_weight=await reads.weighed_since(session, user_id, now - TRACKS_WEIGHT),
    )


def _dedup(job: JobRecord) -> bool:
    return job.policy == DeliveryPolicy.AT_LEAST_ONCE


class OneOffKind(_NoSettle):
    """Event and task reminders: one job; the rule is retired when it has finished."""

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        assert rule.next_fire_at is not None
        job = job_for(rule, to, rule.next_fire_at, rule.ref_id)
        return Occurrence(job=job, next_fire_at=None)

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        if job.payload_ref is None:
            return Skip(status=JobStatus.CANCELLED, reason="no subject")
        rule = await _live_rule(session, job)
        if isinstance(rule, Skip):
            return rule
        if self.name == RuleKind.EVENT_REMINDER:
            return await self._event(session, job, _tz(to), now)
        return await self._task(session, job, _tz(to), now)

    async def _event(
        self, session: Session, job: JobRecord, tz: ZoneInfo, now: dt.datetime
    ) -> Send | Skip:
        assert job.payload_ref is not None
        event = await events.get(session, job.payload_ref)
        if event is None or event.status != EventStatus.SCHEDULED or event.starts_at is None:
            return Skip(status=JobStatus.CANCELLED, reason="event cancelled")
        expected = store.event_reminder_at(event)
        # Valid from the reminder time (later only when it was booked "at once" because
        # that time had passed) up to the start; outside it, the event has moved.
        if expected is None or not expected <= job.slot <= event.starts_at:
            return Skip(status=JobStatus.SUPPRESSED, reason="event moved")
        if now > event.starts_at + STARTED_GRACE:
            return Skip(status=JobStatus.SUPPRESSED, reason="event already started")
        # From now (accurate when sent early with a merge or late after an outage); a
        # resend repeats the first try's stored text exactly (`delivery._exact_repeat`).
        minutes = max(0, round((event.starts_at - now).total_seconds() / 60))
        text = messages.event_reminder(event.title, event.starts_at.astimezone(tz), minutes)
        return Send(text=text, dedup=_dedup(job))

    async def _task(
        self, session: Session, job: JobRecord, tz: ZoneInfo, now: dt.datetime
    ) -> Send | Skip:
        assert job.payload_ref is not None
        task = await tasks.get(session, job.payload_ref)
        if task is None or task.status != TaskStatus.OPEN:
            return Skip(status=JobStatus.SUPPRESSED, reason="task no longer open")
        at = store.task_reminder_at(task, tz)
        due = None if at is None else at + dt.timedelta(minutes=store.TASK_LEAD_MINUTES)
        if at is None or due is None or not at <= job.slot <= due:
            return Skip(status=JobStatus.SUPPRESSED, reason="task moved")
        text = messages.task_reminder(task.number, task.title, due.astimezone(tz), cards=False)
        card_text = messages.task_reminder(task.number, task.title, due.astimezone(tz), cards=True)
        card_id = cards.card_task_id(CardKind.TASK, job.id, job.attempts)
        card = cards.task_card(card_text, card_id, task.id)
        return Send(text=text, dedup=_dedup(job), card=card)


class CardUpdateKind(_NoSettle):
    """A clicked card's buttons replaced by what was done (update_template_card).

    Jobs are made by the conversation, not by a rule's schedule; `payload` holds
    "<response_code>\\n<button text>".
    """

    def __init__(self) -> None:
        super().__init__(RuleKind.CARD_UPDATE)

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        raise RuntimeError("card updates are never scheduled by a rule")

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        code, _, name = job.payload.partition("\n")
        if not code or not name:
            return Skip(status=JobStatus.CANCELLED, reason="no response code")
        return Send(text=name, update=(code, name))
