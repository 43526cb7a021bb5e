"""Rows for the retention tests, written straight into the tables: jobs in any state at
any age with their attempts, inbound messages, links and link codes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from scheduler.core.retention_policy import Periods
from scheduler.retention_job import RetentionDuty, RetentionPlan
from storage.database import Database
from storage.delivery_models import ATTEMPTS, JOBS
from storage.models import INBOUND
from storage.mp_models import MP_LINK_CODES
from storage.retention_models import DAY_COUNTS, RETENTION_RUNS
from storage.web_models import WEB_LINKS
from tests.integration.conftest import new_rule, new_user

ZONE = ZoneInfo("Asia/Shanghai")


@dataclass(frozen=True, kw_only=True, slots=True)
class Try:
    """One attempt of a seeded job."""

    outcome: str = "accepted"
    error_class: str = ""
    code: int | None = None
    at: dt.timedelta = dt.timedelta()  # after the job's slot
    settled: str | None = None


@dataclass(kw_only=True)
class Seeder:
    engine: AsyncEngine
    clock: FakeClock
    users: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (user, rule)
    slots: int = 0

    async def user(self, name: str) -> tuple[int, int]:
        if name not in self.users:
            user_id = await new_user(self.engine, self.clock, name)
            self.users[name] = (user_id, await new_rule(self.engine, self.clock, user_id))
        return self.users[name]

    async def job(
        self,
        status: str,
        ago: dt.timedelta,
        *,
        tries: tuple[Try, ...] = (Try(),),
        user: str = "zhangsan",
        channel: str = "wecom_app",
        kind: str = "custom",
        finished: bool = True,
    ) -> int:
        """A job whose slot was `ago` before now, ended a minute later (unless
        `finished` is False), with `tries` as its attempts."""
        user_id, rule_id = await self.user(user)
        self.slots += 1  # each job its own slot: (user, rule, slot) is unique
        slot = self.clock.now() - ago + dt.timedelta(microseconds=self.slots)
        ended = slot + dt.timedelta(minutes=1)
        values: dict[str, Any] = {
            "user_id": user_id,
            "rule_id": rule_id,
            "scheduled_slot_utc": slot,
            "status": status,
            "policy": "at_most_once",
            "priority": "normal",
            "channel": channel,
            "recipient": user,
            "payload_kind": kind,
            "payload": "",
            "attempts": len(tries),
            "next_attempt_at": slot,
            "created_at": slot,
            "updated_at": ended,
            "finished_at": ended if finished else None,
            "outcome_note": "",
        }
        async with self.engine.begin() as session:
            job_id = int(
                (await session.execute(insert(JOBS).values(values))).inserted_primary_key[0]
            )
            for n, t in enumerate(tries, start=1):
                await session.execute(
                    insert(ATTEMPTS).values(
                        job_id=job_id,
                        attempt_no=n,
                        channel=channel,
                        started_at=slot + t.at,
                        duration_ms=5,
                        outcome=t.outcome,
                        error_class=t.error_class,
                        provider_code=t.code,
                        error="",
                        settled=t.settled,
                    )
                )
        return job_id

    async def message(self, ago: dt.timedelta, *, user: str = "zhangsan") -> int:
        user_id, _ = await self.user(user)
        self.slots += 1
        at = self.clock.now() - ago
        values = {
            "dedup_key": f"msg:{user}:{self.slots}",
            "wecom_user_id": user,
            "user_id": user_id,
            "kind": "text",
            "content": "体重 72.4",
            "sent_at": at,
            "received_at": at,
            "reply_text": "记下了",
        }
        async with self.engine.begin() as session:
            return int(
                (await session.execute(insert(INBOUND).values(values))).inserted_primary_key[0]
            )

    async def link(
        self, table: str, made_ago: dt.timedelta, *, used: bool, user: str = "zhangsan"
    ) -> int:
        """A link (`web_links`) or code (`mp_link_codes`) made `made_ago`, good ten minutes."""
        user_id, _ = await self.user(user)
        self.slots += 1
        made = self.clock.now() - made_ago
        values: dict[str, Any] = {
            "user_id": user_id,
            "created_at": made,
            "expires_at": made + dt.timedelta(minutes=10),
            "used_at": made + dt.timedelta(minutes=1) if used else None,
        }
        if table == "web_links":
            target, values = (
                WEB_LINKS,
                {**values, "token_hash": f"{self.slots:064x}", "purpose": "page"},
            )
        else:
            target, values = MP_LINK_CODES, {**values, "code_hash": f"{self.slots:064x}"}
        async with self.engine.begin() as session:
            return int(
                (await session.execute(insert(target).values(values))).inserted_primary_key[0]
            )


async def ids(engine: AsyncEngine, table: Any) -> set[int]:
    async with engine.connect() as conn:
        return set((await conn.execute(select(table.c.id))).scalars())


async def kept_counts(engine: AsyncEngine) -> dict[str, int]:
    """Sum of `delivery_day_counts` per subject."""
    async with engine.connect() as conn:
        stmt = select(DAY_COUNTS.c.subject, func.sum(DAY_COUNTS.c.count)).group_by(
            DAY_COUNTS.c.subject
        )
        return {subject: int(n) for subject, n in await conn.execute(stmt)}


def duty(periods: Periods | None = None, **limits: int) -> RetentionDuty:
    return RetentionDuty(RetentionPlan(periods=periods or Periods(), zone=ZONE), **limits)


async def run_to_end(
    d: RetentionDuty, engine: AsyncEngine, clock: FakeClock, owner: str = "w:1"
) -> int:
    """Step the duty until every run row is finished; the rows it pruned."""
    database, total = Database(engine), 0
    for _ in range(1000):
        total += await d.step(database, clock, owner)
        async with engine.connect() as conn:
            stmt = select(func.count()).where(RETENTION_RUNS.c.finished_at.is_(None))
            if not (await conn.execute(stmt)).scalar_one():
                return total
    raise AssertionError("the run did not end")
