"""What differs per rule kind, behind one small interface.

The tick is the same for every kind of reminder; what a kind decides is: the job an
occurrence becomes and when the rule fires next (`materialise`), whether the job is
still worth sending and with what words, re-read from the business state at send
time (`prepare`), and what the job's end means for that state: after a send
(`settle`) or without one (`unsent`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Protocol

from scheduler.core.channel import SendResult
from storage.database import Session
from storage.records import Addressee, JobRecord, NewJob, RuleRecord


@dataclass(frozen=True, kw_only=True, slots=True)
class Occurrence:
    """A due rule's job, and the rule's next occurrence (None: until something sets it,
    or never: a one-off is retired once its job has finished, see `rules.retire_spent`)."""

    job: NewJob
    next_fire_at: dt.datetime | None


@dataclass(frozen=True, kw_only=True, slots=True)
class Send:
    """Send this text for the job.

    `card`: the same notification as a WeCom template card, used when the user turned
    cards on and the job leaves alone (a merged message is always text).
    `update`: not a message but a card update (response code, new button text).
    """

    text: str
    dedup: bool = False
    card: dict[str, Any] | None = None
    update: tuple[str, str] | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Skip:
    """Do not send: the job ends `suppressed` or `cancelled`, with the reason."""

    status: str
    reason: str


def job_for(rule: RuleRecord, to: Addressee, slot: dt.datetime, ref: int | None = None) -> NewJob:
    """The job of one occurrence of `rule`, addressed to `to`: its policy, priority and
    channel copied from the rule, so a later change of the rule leaves it alone."""
    return NewJob(
        user_id=rule.user_id,
        rule_id=rule.id,
        slot=slot,
        policy=rule.policy,
        priority=rule.priority,
        channel=rule.channel,
        recipient=to.wecom_user_id,
        payload_kind=rule.kind,
        payload_ref=ref,
    )


class Kind(Protocol):
    """One rule kind's decisions; each call runs inside the caller's transaction.

    `to` (address, zone, quiet time, cards) is read once per batch by the caller.
    """

    name: str

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence: ...

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip: ...

    async def settle(
        self, session: Session, job: JobRecord, result: SendResult, status: str, now: dt.datetime
    ) -> None:
        """The job ended in `status` after `result` (or a lost lease): update the state."""
        ...

    async def unsent(self, session: Session, job: JobRecord, status: str, now: dt.datetime) -> None:
        """The job ended without a send: `expired` (its catch-up window passed, waiting
        or between retries), `suppressed` or `cancelled` (at send time, by `prepare`
        or quiet time). With `settle`, every end the tick gives a job reaches its kind.
        Jobs withdrawn by the user's own change (`job_claims.cancel_pending_for_rule`) do not
        call back: that change already moved the business state."""
        ...
