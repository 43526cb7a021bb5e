"""The records the admin page tests read (tests/integration/test_admin_page.py and the
browser's): written straight into the tables, at times either side of local midnight.

The clock is 2026-11-25 10:00 in Shanghai (02:00 UTC). Sends straddle local midnight
(15:50 and 16:30 UTC on the 24th: the 24th and the 25th in Shanghai), so a page that
counted UTC days would put both on the 24th.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.delivery_models import ATTEMPTS, JOBS
from storage.models import INBOUND
from storage.repos import ticks
from storage.vocabulary import AttemptOutcome, ErrorClass, JobStatus, RuleKind
from tests.integration.conftest import new_rule, new_user


def utc(month: int, day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, month, day, hour, minute, tzinfo=dt.UTC)


async def _job(
    engine: AsyncEngine,
    clock: FakeClock,
    user: int,
    rule: int,
    at: dt.datetime,
    outcome: AttemptOutcome,
    kind: RuleKind = RuleKind.CUSTOM,
) -> None:
    status = JobStatus(outcome)  # the job ends as its one attempt did
    error = ErrorClass.NONE if outcome == AttemptOutcome.ACCEPTED else ErrorClass.PERMANENT
    async with engine.begin() as conn:
        job = (
            await conn.execute(
                insert(JOBS).values(
                    user_id=user, rule_id=rule, scheduled_slot_utc=at, status=status,
                    policy="at_most_once", priority="normal", channel="wecom_app",
                    recipient="alice", payload_kind=kind, next_attempt_at=at,
                    created_at=at, updated_at=at, finished_at=at, attempts=1,
                )
            )
        ).inserted_primary_key[0]  # fmt: skip
        await conn.execute(
            insert(ATTEMPTS).values(
                job_id=job, attempt_no=1, channel="wecom_app", started_at=at, duration_ms=12,
                outcome=outcome, error_class=error, provider_code=None, error="",
            )
        )  # fmt: skip


async def _message(
    engine: AsyncEngine, user: int, at: dt.datetime, handled_ms: int | None, key: str
) -> None:
    async with engine.begin() as conn:
        await conn.execute(
            insert(INBOUND).values(
                dedup_key=key, wecom_user_id="alice", user_id=user, kind="text",
                content="收到", sent_at=at, received_at=at, handled_ms=handled_ms,
            )
        )  # fmt: skip


async def seed(engine: AsyncEngine, clock: FakeClock) -> None:
    alice = await new_user(engine, clock, "alice")
    rule = await new_rule(engine, clock, alice)
    await _job(engine, clock, alice, rule, utc(11, 24, 15, 50), AttemptOutcome.ACCEPTED)
    await _message(engine, alice, utc(11, 24, 16, 20), 120, "answer")  # answers the 15:50
    await _job(engine, clock, alice, rule, utc(11, 24, 16, 30), AttemptOutcome.ACCEPTED)
    await _job(  # an alert to the admins: a send, not a reminder
        engine, clock, alice, rule, utc(11, 24, 17, 0), AttemptOutcome.ACCEPTED,
        kind=RuleKind.ADMIN_ALERT,
    )  # fmt: skip
    await _job(engine, clock, alice, rule, utc(11, 20, 4, 0), AttemptOutcome.FAILED)
    await _job(engine, clock, alice, rule, utc(11, 13, 2, 0), AttemptOutcome.UNKNOWN)
    for n in range(1, 21):  # the 23rd in Shanghai: 10 ms ... 200 ms
        await _message(engine, alice, utc(11, 23, 3, n), n * 10, f"timed-{n}")
    async with engine.begin() as session:
        await ticks.heartbeat(
            session, worker="tick:1", at=clock.now() - dt.timedelta(hours=38, minutes=30),
            duration_ms=40,
        )  # fmt: skip
