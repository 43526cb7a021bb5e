"""Channel tests as a rule kind: jobs queued by `services.evidence.queue_tests` on
`测试 渠道`, never by a schedule. The job's channel is the one tested: it is never
routed elsewhere (`scheduler.core.fallback.NOT_ROUTED`). What the test proves is
recorded when the person answers `收到` (`services.evidence.confirm`), not here: an
accepted send only says the provider took it.
"""

from __future__ import annotations

import datetime as dt

from scheduler.core.channel import SendResult
from scheduler.core.texts.channel_test import channel_test_text
from scheduler.kinds import Occurrence, Send, Skip
from storage.database import Session
from storage.records import Addressee, JobRecord, RuleRecord
from storage.vocabulary import RuleKind


class ChannelTestKind:
    """`channel_test`: at most once, high priority (`scheduler.core.rule_kinds`)."""

    name = RuleKind.CHANNEL_TEST.value

    async def materialise(
        self, session: Session, rule: RuleRecord, to: Addressee, now: dt.datetime
    ) -> Occurrence:
        raise RuntimeError("channel tests are never scheduled by a rule")

    async def prepare(
        self, session: Session, job: JobRecord, to: Addressee, now: dt.datetime
    ) -> Send | Skip:
        """The payload names the channel when several were tested at once."""
        return Send(text=channel_test_text(job.channel, named=bool(job.payload)))

    async def settle(
        self, session: Session, job: JobRecord, result: SendResult, status: str, now: dt.datetime
    ) -> None:
        """Nothing to update: the device check waits for the person's `收到`."""

    async def unsent(self, session: Session, job: JobRecord, status: str, now: dt.datetime) -> None:
        """Nothing to update: an unsent test is never confirmed, and expires."""
