"""Scheduler processes against one fake WeCom API: each due job goes out exactly once
whether two workers run or four, four workers fetch one token, a worker killed mid-send
leaves an `unknown` job that is never resent, and after downtime only what is still
inside its catch-up window is sent.

Workers are real processes (`drain_worker.py`, built like `keeper worker`); the fake
API is served from this test's event loop, so the test only ever awaits them.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import os
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

import services.water
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.scheduling import scheduler_for
from scheduler.clock import FakeClock
from scheduler.core import water_plan as wp
from scheduler.core.texts import messages
from scheduler.tick import LEASE, TickReport, tick
from storage.database import Database
from storage.delivery_models import ATTEMPTS, JOBS
from storage.engine import create_engine
from storage.records import JobRecord
from storage.repos import job_claims, rules, tokens, water
from storage.repos.users import ensure_and_lock_user
from tests.acceptance.drain_worker import PLAIN, seed_plain_jobs, with_plain
from tests.conftest import TEST_SETTINGS
from tests.integration.job_setup import count_by_status
from tests.settings_env import changed

DRIVER = Path(__file__).with_name("drain_worker.py")
T = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)
MINUTE = dt.timedelta(minutes=1)
PROCESS_TIMEOUT_S = 90
LOG_NUMBERS = itertools.count()
MARIADB_ONLY = pytest.mark.parametrize(
    "database_url", [pytest.param("mariadb", marks=pytest.mark.mariadb)], indirect=True
)


class WatchedFake(FakeWeCom):
    """The fake, plus an event set when it starts holding a request (`hang_next`) and
    one set when a chosen number of send requests has arrived (`until_sends`)."""

    def __init__(self) -> None:
        s = TEST_SETTINGS
        self._sends = 0
        self._sends_wanted: tuple[int, asyncio.Event] | None = None
        super().__init__(corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id)
        self.holding = asyncio.Event()

    async def wait_released(self) -> None:
        self.holding.set()
        await super().wait_released()

    @property
    def send_calls(self) -> int:  # counted by the fake's handler as each request arrives
        return self._sends

    @send_calls.setter
    def send_calls(self, value: int) -> None:
        self._sends = value
        if self._sends_wanted is not None and value >= self._sends_wanted[0]:
            self._sends_wanted[1].set()

    async def until_sends(self, count: int) -> None:
        """Return once `count` send requests have arrived."""
        arrived = asyncio.Event()
        self._sends_wanted = (count, arrived)
        if self.send_calls >= count:
            arrived.set()
        await arrived.wait()


@dataclass
class Worker:
    """One `drain_worker.py` process; its log (stderr) goes to a file."""

    proc: asyncio.subprocess.Process
    log: Path

    async def ready(self) -> None:
        """Wait for `--go-on-stdin`'s ready line."""
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), PROCESS_TIMEOUT_S)
        assert b"ready" in line, self.log.read_text()[-3000:]

    def go(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"go\n")

    async def result(self) -> dict[str, Any]:
        """Its JSON line, once it has exited cleanly."""
        out, _ = await asyncio.wait_for(self.proc.communicate(), PROCESS_TIMEOUT_S)
        assert self.proc.returncode == 0, self.log.read_text()[-3000:]
        figures: dict[str, Any] = json.loads(out.decode().splitlines()[-1])
        return figures


@asynccontextmanager
async def workers(
    count: int, database_url: str, api: str, log_dir: Path, *options: str
) -> AsyncIterator[list[Worker]]:
    """Start `count` workers; kill whichever is still running on the way out."""
    started: list[Worker] = []
    try:
        for _ in range(count):
            log = log_dir / f"worker{next(LOG_NUMBERS)}.log"
            with log.open("wb") as stderr:
                proc = await asyncio.create_subprocess_exec(
                    *(sys.executable, str(DRIVER), "--db", database_url, "--api", api, *options),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=stderr,
                    env=_worker_env(),
                )
            started.append(Worker(proc=proc, log=log))
        yield started
    finally:
        for worker in started:
            if worker.proc.returncode is None:
                worker.proc.kill()
            await worker.proc.wait()


def _worker_env() -> dict[str, str]:
    """The test app's settings, the way `keeper worker` reads them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KEEPER_", "WECOM_"))}
    s = TEST_SETTINGS
    env |= {"WECOM_CORP_ID": s.wecom.corp_id, "WECOM_AGENT_ID": str(s.wecom.agent_id)}
    env |= {
        "WECOM_SECRET": s.wecom.secret,
        "WECOM_TOKEN": s.wecom.token,
        "WECOM_AES_KEY": s.wecom.aes_key,
    }
    return env


async def release_together(started: list[Worker]) -> None:
    """Let workers started with `--go-on-stdin` begin at the same moment."""
    for worker in started:
        await worker.ready()
    for worker in started:
        worker.go()


def at(when: dt.datetime) -> tuple[str, str]:
    return ("--at", when.isoformat())


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


async def attempts_per_job(engine: AsyncEngine) -> dict[int, int]:
    stmt = select(ATTEMPTS.c.job_id, func.count()).group_by(ATTEMPTS.c.job_id)
    async with engine.connect() as conn:
        return {job_id: n for job_id, n in await conn.execute(stmt)}


async def statuses(engine: AsyncEngine) -> dict[str, int]:
    async with engine.connect() as conn:
        return await count_by_status(conn)


async def in_test_tick(engine: AsyncEngine, api: str, now: dt.datetime) -> TickReport:
    """One tick of this test's own scheduler (`plain` known too) at `now`."""
    settings = changed(TEST_SETTINGS, wecom={"api_base": api})
    clock = FakeClock(now)
    async with scheduler_for(settings, Database(engine), clock, send_timeout=0.5) as scheduler:
        return await tick(with_plain(scheduler))


# -- many workers, one API ---------------------------------------------------------------


async def test_concurrent_workers_send_every_due_job_exactly_once(
    database_url: str, engine: AsyncEngine, tmp_path: Path
) -> None:
    # What races is the claim: 40 batches among four workers on MariaDB (more jobs per
    # batch would only add sends). SQLite serialises the claim anyway: two processes
    # and fewer claims show the same.
    sqlite = is_sqlite(database_url)
    processes, count, batch = (2, 1_000, 200) if sqlite else (4, 2_000, 50)
    job_ids = await seed_plain_jobs(engine, count=count, due=T)
    fake = WatchedFake()
    if sqlite:
        # Start with a token: on SQLite this test is about claims, not the token lock
        # (a worker that cannot read the token store now retries, transiently).
        await store_token(engine, fake)
    options = (
        *at(T),
        "--until-empty",
        "--go-on-stdin",
        "--batch",
        str(batch),
        "--concurrency",
        "32",
    )
    # All sends in one (frozen) minute: WeCom's enterprise budget would hold some back
    # (test_enterprise_limit.py is about that); this test is about the claims.
    options += ("--per-minute", "100000")
    async with (
        run_fake_wecom(fake) as api,
        workers(processes, database_url, api, tmp_path, *options) as started,
    ):
        await release_together(started)
        results = [await worker.result() for worker in started]

    texts = [m.content for m in fake.messages]
    assert len(texts) == count
    assert set(texts) == {f"job {job_id}" for job_id in job_ids}
    assert sum(r["claimed"] for r in results) == count
    assert all(r["claimed"] > 0 and r["stopped"] == "empty" for r in results), results
    assert fake.gettoken_calls == (0 if sqlite else 1)
    assert await statuses(engine) == {"accepted": count}
    assert await attempts_per_job(engine) == dict.fromkeys(job_ids, 1)


@MARIADB_ONLY
async def test_four_workers_starting_with_no_token_fetch_one(
    database_url: str, engine: AsyncEngine, tmp_path: Path
) -> None:
    processes, batch = 4, 10
    await seed_plain_jobs(engine, count=processes * batch, due=T)
    fake = WatchedFake()
    options = (*at(T), "--until-empty", "--batch", str(batch))
    async with run_fake_wecom(fake) as api, engine.connect() as probe, engine.begin() as holder:
        # Hold the token row: each worker claims one batch, finds no token and
        # queues on this lock; all four want a token at the same moment.
        await tokens.lock_row(holder, TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.agent_id)
        async with workers(processes, database_url, api, tmp_path, *options) as started:
            await until_lock_waits(probe, processes)
            await holder.commit()
            results = [await worker.result() for worker in started]

    assert fake.gettoken_calls == 1
    assert [r["claimed"] for r in results] == [batch] * processes
    assert len(fake.messages) == processes * batch
    assert await statuses(engine) == {"accepted": processes * batch}


@MARIADB_ONLY
async def test_a_token_store_error_before_sending_is_not_an_uncertain_send(
    database_url: str, engine: AsyncEngine
) -> None:
    (job_id,) = await seed_plain_jobs(engine, count=1, due=T)
    impatient = create_engine(database_url)
    event.listen(impatient.sync_engine, "connect", _short_lock_waits)
    fake = WatchedFake()
    try:
        async with run_fake_wecom(fake) as api, engine.begin() as holder:
            # Another process refreshes the token for longer than this one waits.
            await tokens.lock_row(holder, TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.agent_id)
            report = await in_test_tick(impatient, api, T)
    finally:
        await impatient.dispose()

    async with engine.connect() as conn:
        job = await job_claims.get(conn, job_id)
    assert fake.send_calls == 0
    assert report.outcomes == {"retry_wait": 1}
    assert job is not None
    assert job.status == "retry_wait"


def _short_lock_waits(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("SET SESSION innodb_lock_wait_timeout = 1")  # not InnoDB's 50 s
    cursor.close()


async def store_token(engine: AsyncEngine, fake: FakeWeCom) -> None:
    """Put a token the fake accepts in the token store, as if a worker had fetched it."""
    reply = fake.gettoken(TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.secret)
    expires_at = T + dt.timedelta(seconds=reply["expires_in"])
    async with engine.begin() as session:
        await tokens.lock_row(session, TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.agent_id)
        await tokens.save(
            session,
            TEST_SETTINGS.wecom.corp_id,
            TEST_SETTINGS.wecom.agent_id,
            token=reply["access_token"],
            expires_at=expires_at,
            refreshed_at=T,
        )


async def until_lock_waits(probe: AsyncConnection, expected: int) -> None:
    """Wait until `expected` transactions of this database wait for a row lock.

    The waiters are other processes, which nothing here can await, so the server's
    own view is polled, with a bound. Not faster than every 0.1 s: InnoDB refreshes
    INNODB_TRX only when it has not been read for that long, so a tight loop would
    keep reading a stale snapshot.
    """
    query = text(
        "SELECT COUNT(*) FROM information_schema.INNODB_TRX t"
        " JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id"
        " WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()"
    )
    async with asyncio.timeout(PROCESS_TIMEOUT_S):
        while (await probe.execute(query)).scalar_one() < expected:  # noqa: ASYNC110 - no event crosses processes
            await asyncio.sleep(0.25)


# -- a worker killed mid-send ------------------------------------------------------------


async def test_a_worker_killed_mid_send_leaves_the_job_unknown_and_it_is_never_resent(
    database_url: str, engine: AsyncEngine, tmp_path: Path
) -> None:
    user_id = await enable_water(engine, "alice", due=T)
    await seed_plain_jobs(engine, count=3, due=T + 5 * MINUTE)  # due after the crash
    fake = WatchedFake()
    fake.hang_next(delivered=True)
    async with run_fake_wecom(fake) as api:
        async with workers(1, database_url, api, tmp_path, *at(T), "--batch", "1") as (doomed,):
            await asyncio.wait_for(fake.holding.wait(), PROCESS_TIMEOUT_S)
            (water_job,) = await jobs_of(engine, user_id)
            assert water_job.status == "processing"  # claimed, sent, not finalised
            doomed.proc.send_signal(signal.SIGKILL)
            assert await doomed.proc.wait() == -signal.SIGKILL

        report = await in_test_tick(engine, api, T + LEASE + MINUTE)
        assert (report.recovered, report.claimed) == (1, 0)
        async with workers(
            1, database_url, api, tmp_path, *at(T + 5 * MINUTE), "--until-empty"
        ) as (survivor,):
            assert (await survivor.result())["outcomes"] == {"accepted": 3}

    assert [m.content for m in fake.messages_to("alice")] == [messages.WATER_REMINDER]
    assert len(fake.messages) == 1 + 3
    (water_job,) = await jobs_of(engine, user_id)
    assert water_job.status == "unknown"
    assert await plan_state(engine, user_id) == "paused"


async def test_a_killed_workers_never_started_sends_go_out_once_from_the_survivors(
    database_url: str, engine: AsyncEngine, tmp_path: Path
) -> None:
    """Issue 8, loss 2: a SIGKILLed worker's whole claimed batch used to become
    `unknown`, although most of it never reached the API. Now only its wave in flight
    (at most `--concurrency` sends) is uncertain; the rest is released when the lease
    runs out and sent, exactly once, by the workers that are left."""
    count, concurrency = 300, 16
    job_ids = await seed_plain_jobs(engine, count=count, due=T)
    fake = WatchedFake()
    fake.latency = 0.2  # a slow API: the batch is still going out when the kill comes
    await store_token(engine, fake)
    async with run_fake_wecom(fake) as api:
        options = (*at(T), "--batch", str(count), "--concurrency", str(concurrency))
        async with workers(1, database_url, api, tmp_path, *options) as (doomed,):
            await asyncio.wait_for(fake.until_sends(40), PROCESS_TIMEOUT_S)
            doomed.proc.send_signal(signal.SIGKILL)
            assert await doomed.proc.wait() == -signal.SIGKILL
        started = await sends_started(engine)
        assert 40 <= len(started) <= 40 + 2 * concurrency  # the waves so far, not the batch
        later = (*at(T + LEASE + MINUTE), "--until-empty")
        async with workers(2, database_url, api, tmp_path, *later) as survivors:
            results = [await worker.result() for worker in survivors]
        assert all(r["stopped"] == "empty" for r in results), results

    received = Counter(m.content for m in fake.messages)
    assert set(received.values()) == {1}, "a job was sent twice"
    final = await statuses(engine)
    assert set(final) <= {"accepted", "unknown"}
    assert final.get("unknown", 0) <= concurrency  # only the wave that was in flight
    unknown = {job.id for job in await jobs_in(engine, "unknown")}
    assert unknown <= started
    for job_id in set(job_ids) - unknown:
        assert received[f"job {job_id}"] == 1  # never-started or finished: sent once


async def sends_started(engine: AsyncEngine) -> set[int]:
    """Jobs whose send had begun (the request may have left)."""
    stmt = select(JOBS.c.id).where(JOBS.c.send_started_at.is_not(None))
    async with engine.connect() as conn:
        return set((await conn.execute(stmt)).scalars())


async def jobs_in(engine: AsyncEngine, status: str) -> list[JobRecord]:
    async with engine.connect() as conn:
        ids = (await conn.execute(select(JOBS.c.id).where(JOBS.c.status == status))).scalars()
        return [job for job_id in ids if (job := await job_claims.get(conn, job_id)) is not None]


async def enable_water(engine: AsyncEngine, wecom_id: str, *, due: dt.datetime) -> int:
    """A user whose water plan is on, its first reminder due at `due`; their id."""
    async with engine.begin() as session:
        user = await ensure_and_lock_user(session, wecom_id, timezone="Asia/Shanghai", now=T)
        record = await services.water.ensure(session, user.id, T)
        loaded = await services.water.load(session, record)
        enable = wp.Event(kind=wp.EventKind.ENABLE, request_id=f"enable-{wecom_id}", next_at=due)
        assert isinstance(await services.water.act(session, loaded, enable, T), wp.Applied)
    return user.id


async def jobs_of(engine: AsyncEngine, user_id: int) -> list[JobRecord]:
    async with engine.connect() as conn:
        ids = (await conn.execute(select(JOBS.c.id).where(JOBS.c.user_id == user_id))).scalars()
        return [job for job_id in ids if (job := await job_claims.get(conn, job_id)) is not None]


async def plan_state(engine: AsyncEngine, user_id: int) -> str | None:
    async with engine.connect() as conn:
        plan = await water.plan_of(conn, user_id)
    return None if plan is None else plan.state


# -- downtime ----------------------------------------------------------------------------

DOWNTIME = [
    # (recipient, due this long before the tick, priority, still sent?)
    ("high-180", 180, "high", False),
    ("normal-180", 180, "normal", False),
    ("low-180", 180, "low", False),
    ("high-30", 30, "high", True),  # exactly at the edge of its window: still sent
    ("high-20", 20, "high", True),
    ("normal-20", 20, "normal", False),
    ("normal-15", 15, "normal", True),
    ("low-12", 12, "low", False),
    ("low-5", 5, "low", True),
]


async def test_after_downtime_one_tick_sends_only_what_is_inside_the_catch_up_window(
    engine: AsyncEngine,
) -> None:
    async with engine.begin() as session:
        for recipient, minutes, priority, _ in DOWNTIME:
            user = await ensure_and_lock_user(session, recipient, timezone="UTC", now=T)
            await rules.create(
                session,
                user_id=user.id,
                kind=PLAIN,
                policy="at_most_once",
                priority=priority,
                channel="wecom_app",
                now=T,
                next_fire_at=T - minutes * MINUTE,
            )
    fake = WatchedFake()
    async with run_fake_wecom(fake) as api:
        report = await in_test_tick(engine, api, T)

    sent = {recipient for recipient, *_, goes in DOWNTIME if goes}
    assert {m.recipient for m in fake.messages} == sent
    assert len(fake.messages) == len(sent)
    assert (report.materialised, report.expired) == (len(DOWNTIME), len(DOWNTIME) - len(sent))
    assert report.outcomes == {"accepted": len(sent)}
    assert await statuses(engine) == {"accepted": len(sent), "expired": len(DOWNTIME) - len(sent)}
