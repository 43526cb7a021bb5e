"""The water reminder as a rule kind: one reminder per grant, then wait for the user.

A water rule's `next_fire_at` is set by the plan (on a check-in) and cleared when
its job is materialised; nothing repeats on its own. At send time the plan is asked
again (`claim`): paused, closed or already answered means the job is not sent.
"""

from __future__ import annotations

import datetime as dt

from scheduler import cards, messages, water_store
from scheduler import water_plan as wp
from scheduler.channels.base import SendResult
from scheduler.kinds import Occurrence, Send, Skip, job_for
from storage.database import Session
from storage.repos import water
from storage.repos.jobs import JobRecord
from storage.repos.rules import RuleRecord
from storage.repos.users import Addressee

FINAL_EVENTS = {"accepted": wp.ACCEPTED, "failed": wp.FAILED, "unknown": wp.UNKNOWN}
"""Job end states that settle the plan; `retry_wait` keeps it sending (nothing left)."""


class WaterKind:
    name = water_store.WATER

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        assert rule.next_fire_at is not None
        return Occurrence(job=job_for(rule, to, rule.next_fire_at), next_fire_at=None)

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        loaded = await self._load(session, job)
        if loaded is None:
            return Skip(status="cancelled", reason="no water plan")
        if loaded.plan.state is wp.PlanState.SENDING and await self._is_retry_of(
            session, loaded, job
        ):
            return _reminder(job)
        result = await water_store.act(session, loaded, wp.CLAIM, now, job_id=job.id)
        if isinstance(result, wp.Refused):
            status = "cancelled" if loaded.plan.state in _OFF else "suppressed"
            return Skip(status=status, reason=f"plan: {result.reason.value}")
        return _reminder(job)

    async def settle(
        self, session: Session, job: JobRecord, result: SendResult, status: str, now: dt.datetime
    ) -> None:
        event = FINAL_EVENTS.get(status)
        loaded = await self._load(session, job)
        if event is not None and loaded is not None:
            await water_store.act(session, loaded, event, now)  # refused: the user moved on

    async def expired(self, session: Session, job: JobRecord, now: dt.datetime) -> None:
        loaded = await self._load(session, job)
        if loaded is None:
            return
        next_at = await water_store.next_time(session, job.user_id, now, now)
        await water_store.act(
            session, loaded, wp.Event(kind=wp.EventKind.EXPIRED, next_at=next_at), now
        )

    async def _load(self, session: Session, job: JobRecord) -> water_store.Loaded | None:
        record = await water.plan_of(session, job.user_id)
        return None if record is None else await water_store.load(session, record)

    async def _is_retry_of(
        self, session: Session, loaded: water_store.Loaded, job: JobRecord
    ) -> bool:
        return await water.reserved_for_job(session, loaded.record.id, job.id)


_OFF = (wp.PlanState.DISABLED, wp.PlanState.PAUSED)


def _reminder(job: JobRecord) -> Send:
    """The reminder as text, and as a card with 喝了 / 稍后 for users who chose cards."""
    task_id = cards.card_task_id("water", job.id, job.attempts)
    card = cards.water_card(messages.water_reminder(cards=True), task_id)
    return Send(text=messages.WATER_REMINDER, card=card)
