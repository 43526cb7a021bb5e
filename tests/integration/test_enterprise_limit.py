"""The enterprise budget under four workers: never more than the budget in any window,
high priority first, nothing lost.

Four schedulers, each with its own engine (its own connections, as four processes
would have), tick together in rounds on one fake clock that moves one bucket (5 s)
a round; WeCom's limits are shrunk to 40 a minute so that a few dozen jobs show them.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from collections import Counter
from collections.abc import AsyncIterator

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.scheduling import scheduler_for
from scheduler.channels.enterprise_budget import MESSAGE_SEND, SHARED_FRACTION, EnterpriseLimits
from scheduler.clock import FakeClock
from scheduler.tick import Scheduler, tick
from storage.database import Database
from storage.delivery_models import API_BUDGET, JOBS
from storage.engine import create_engine
from tests.acceptance.drain_worker import seed_plain_jobs, with_plain
from tests.conftest import TEST_SETTINGS
from tests.settings_env import changed

T = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)
ROUND = dt.timedelta(seconds=5)  # one bucket of the minute window
PER_MINUTE = 40
LIMITS = EnterpriseLimits(per_minute=PER_MINUTE, per_hour=1000, daily=200)
WORKERS = 4


@contextlib.asynccontextmanager
async def four_workers(url: str, api: str, clock: FakeClock) -> AsyncIterator[list[Scheduler]]:
    """Four schedulers on engines of their own, claiming 25 jobs a tick."""
    settings = changed(TEST_SETTINGS, wecom={"api_base": api})
    engines = [create_engine(url) for _ in range(WORKERS)]
    try:
        async with contextlib.AsyncExitStack() as stack:
            built = [
                await stack.enter_async_context(
                    scheduler_for(settings, Database(e), clock, owner=f"w{n}", send_timeout=5)
                )
                for n, e in enumerate(engines)
            ]
            yield [with_plain(s, batch=25, enterprise=LIMITS) for s in built]
    finally:
        for engine in engines:
            await engine.dispose()


async def drain_in_rounds(workers: list[Scheduler], clock: FakeClock, rounds: int) -> int:
    """Tick all four together each round, one bucket apart, until a round finds no work;
    how many rounds it took."""
    for n in range(rounds):
        reports = await asyncio.gather(*(tick(w) for w in workers))
        if not any(r.claimed or r.expired for r in reports) and n:
            return n
        clock.advance(ROUND)
    return rounds


async def accepted_at(engine: AsyncEngine) -> list[tuple[dt.datetime, str]]:
    """(finalised at, priority) of every accepted job: a round's instant each."""
    stmt = select(JOBS.c.finished_at, JOBS.c.priority).where(JOBS.c.status == "accepted")
    async with engine.connect() as conn:
        return [(at, priority) for at, priority in await conn.execute(stmt)]


async def budget_buckets(engine: AsyncEngine, api: str) -> dict[tuple[str, dt.datetime], int]:
    """Every bucket of `api` still kept: (window, bucket start) -> calls counted."""
    stmt = select(API_BUDGET.c.span, API_BUDGET.c.bucket_start, API_BUDGET.c.used).where(
        API_BUDGET.c.api == api
    )
    async with engine.connect() as conn:
        return {(span, start): used for span, start, used in await conn.execute(stmt)}


def most_in_a_minute(times: list[dt.datetime]) -> int:
    """The most sends in any sliding minute (each send's instant opening one)."""
    return max(
        (sum(1 for t in times if start <= t < start + dt.timedelta(minutes=1)) for start in times),
        default=0,
    )


async def test_four_workers_never_pass_the_budget_high_priority_first_and_nothing_lost(
    database_url: str, engine: AsyncEngine
) -> None:
    # Sixty water-like (low) jobs queue ahead of eight high ones: same due time, lower ids.
    low = await seed_plain_jobs(engine, count=60, due=T, priority="low")
    high = await seed_plain_jobs(engine, count=8, due=T, priority="high")
    fake = FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
    )
    clock = FakeClock(T)
    async with run_fake_wecom(fake) as api, four_workers(database_url, api, clock) as workers:
        rounds = await drain_in_rounds(workers, clock, rounds=120)

    sent = await accepted_at(engine)
    # Nothing lost, nothing twice: every job accepted (inside the low ones' 10 minutes).
    received = Counter(m.content for m in fake.messages)
    assert received == Counter({f"job {i}": 1 for i in [*low, *high]})
    assert len(sent) == 68
    assert rounds < 120
    # Never more than the budget in any minute, and the low ones never past their share.
    assert most_in_a_minute([at for at, _ in sent]) <= PER_MINUTE
    low_share = int(PER_MINUTE * SHARED_FRACTION)
    assert most_in_a_minute([at for at, p in sent if p == "low"]) <= low_share
    # High first: the eight high jobs all left in the first round, though the budget
    # ran out in it and sixty low ones were due before them.
    assert {at for at, p in sent if p == "high"} == {T}
    assert sum(1 for at, _ in sent if at == T) <= PER_MINUTE
    assert any(at > T for at, p in sent if p == "low")
    # And the shared counters agree with what was sent (each send reserved once).
    counted = await budget_buckets(engine, MESSAGE_SEND)
    assert sum(n for (window, _), n in counted.items() if window == "day") == 68
