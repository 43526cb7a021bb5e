"""Admin alerts as a rule kind: jobs queued by `services.alerts`, never by a schedule.

The text was composed when the incident opened or healed and is stored on the job
(`payload`), so there is no business state to re-read: an alert about a hold that has
since healed still goes out, and the all-clear follows it.
"""

from __future__ import annotations

import datetime as dt

from scheduler.core.channel import SendResult
from scheduler.kinds import Occurrence, Send, Skip
from storage.database import Session
from storage.records import Addressee, JobRecord, RuleRecord
from storage.vocabulary import JobStatus, RuleKind


class AdminAlertKind:
    """`admin_alert`: at least once, high priority (`scheduler.core.rule_kinds`)."""

    name = RuleKind.ADMIN_ALERT.value

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        raise RuntimeError("admin alerts are never scheduled by a rule")

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        if not job.payload:
            return Skip(status=JobStatus.CANCELLED, reason="empty alert")
        return Send(text=job.payload, dedup=True)

    async def settle(
        self, session: Session, job: JobRecord, result: SendResult, status: str, now: dt.datetime
    ) -> None:
        """Nothing to update: the incident already records that it was told."""

    async def unsent(self, session: Session, job: JobRecord, status: str, now: dt.datetime) -> None:
        """Nothing to update: the incident stays in 管理 状态."""
