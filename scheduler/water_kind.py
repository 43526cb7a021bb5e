"""The water reminder as a rule kind: one reminder per grant, then wait for the user.

A water rule's `next_fire_at` is set by the plan (on a check-in) and cleared when
its job is materialised; nothing repeats on its own. At send time the plan is asked
again (`claim`): paused, closed or already answered means the job is not sent.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import services.water
from scheduler.core import cards
from scheduler.core import water_plan as wp
from scheduler.core.channel import SendResult
from scheduler.core.texts import messages
from scheduler.kinds import Occurrence, Send, Skip, job_for
from storage.database import Session
from storage.records import Addressee, JobRecord, NewJob, RuleRecord
from storage.repos import mp, water
from storage.vocabulary import CardKind, JobStatus, PlanState, RuleKind

_SENT_ENDS = (JobStatus.ACCEPTED, JobStatus.FAILED, JobStatus.UNKNOWN, JobStatus.RETRY_WAIT)
"""Statuses after a channel call: they book no time (no next_time read needed)."""


class WaterKind:
    name: str = RuleKind.WATER

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        assert rule.next_fire_at is not None
        job = job_for(rule, to, rule.next_fire_at)
        return Occurrence(job=await _door(session, job), next_fire_at=None)

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        loaded = await self._load(session, job)
        if loaded is None:
            return Skip(status=JobStatus.CANCELLED, reason="no water plan")
        if loaded.plan.state is PlanState.SENDING and await self._is_retry_of(session, loaded, job):
            return _reminder(job)
        result = await services.water.act(session, loaded, wp.CLAIM, now, job_id=job.id)
        if isinstance(result, wp.Refused):
            status = JobStatus.CANCELLED if loaded.plan.state in _OFF else JobStatus.SUPPRESSED
            return Skip(status=status, reason=f"plan: {result.reason.value}")
        return _reminder(job)

    async def settle(
        self, session: Session, job: JobRecord, result: SendResult, status: str, now: dt.datetime
    ) -> None:
        await self._ended(session, job, status, now)

    async def unsent(self, session: Session, job: JobRecord, status: str, now: dt.datetime) -> None:
        await self._ended(session, job, status, now)

    async def _ended(self, session: Session, job: JobRecord, status: str, now: dt.datetime) -> None:
        """Every end of a water job goes to the plan through one pure decision
        (`water_plan.event_for_job_end`), so none can leave it `sending`."""
        loaded = await self._load(session, job)
        if loaded is None:
            return
        holds = loaded.plan.state is PlanState.SENDING and await self._is_retry_of(
            session, loaded, job
        )
        if status in _SENT_ENDS:
            next_at = now  # unused: a send's outcome books nothing
        else:
            next_at = await services.water.next_time(session, job.user_id, now, now)
        event = wp.event_for_job_end(loaded.plan, status, holds_reservation=holds, next_at=next_at)
        if event is not None:
            await services.water.act(session, loaded, event, now)  # refused: the user moved on

    async def _load(self, session: Session, job: JobRecord) -> services.water.Loaded | None:
        record = await water.plan_of(session, job.user_id, lock=True)
        return None if record is None else await services.water.load(session, record)

    async def _is_retry_of(
        self, session: Session, loaded: services.water.Loaded, job: JobRecord
    ) -> bool:
        return await water.reserved_for_job(session, loaded.record.id, job.id)


_OFF = (PlanState.DISABLED, PlanState.PAUSED)
MP_CHANNEL = "mp_subscribe"


async def _door(session: Session, job: NewJob) -> NewJob:
    """The reminder leaves through the door its grant came from: a mini-program
    subscribe accept (`mp:` key) only covers a subscribe message to that openid; any
    other grant is a chat message, answered through the rule's own channel."""
    if not await mp.mp_grant_available(session, job.user_id):
        return job
    openid = await mp.openid_of(session, job.user_id)
    return job if openid is None else replace(job, channel=MP_CHANNEL, recipient=openid)


def _reminder(job: JobRecord) -> Send:
    """The reminder as text, and as a card with 喝了 / 稍后 for users who chose cards."""
    task_id = cards.card_task_id(CardKind.WATER, job.id, job.attempts)
    card = cards.water_card(messages.water_reminder(cards=True), task_id)
    return Send(text=messages.WATER_REMINDER, card=card)
