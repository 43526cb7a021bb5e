"""The daily backup as the scheduler runs it: two schedulers on one database reach the
slot, exactly one makes and verifies the backup, records it and prunes the directory.

Time is a FakeClock; the test ticks and then awaits the backup it started (an event,
never a sleep). Both engines: two engines on one SQLite file, two on one MariaDB
database.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import os
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from bot.scheduling import all_kinds
from scheduler.backup_job import BackupDuty, BackupPlan
from scheduler.clock import FakeClock
from scheduler.tick import Scheduler, tick
from storage.backup import BackupOutcome, make_and_verify, verify_backup
from storage.backup_models import BACKUP_RUNS
from storage.database import Database
from storage.engine import create_engine
from storage.repos import backups
from tests.integration.conftest import new_user

KEY = "scheduled backup passphrase 0001"
SHANGHAI = ZoneInfo("Asia/Shanghai")
BEFORE_SLOT = dt.datetime(2026, 11, 30, 3, 29, tzinfo=SHANGHAI)
OLD_BACKUPS = [f"keeper-202611{d:02d}T193000Z.kbak" for d in range(20, 25)]


def plan(url: str, directory: Path, keep: int = 3) -> BackupPlan:
    return BackupPlan(
        database_url=url, directory=directory, key=KEY, at=dt.time(3, 30), zone=SHANGHAI, keep=keep
    )


def scheduler(engine_url: str, clock: FakeClock, owner: str, backup: BackupPlan) -> Scheduler:
    return Scheduler(
        database=Database(create_engine(engine_url)),
        kinds=all_kinds(),
        channels={},
        clock=clock,
        owner=owner,
        backups=BackupDuty(backup),
    )


@pytest.fixture
def backup_dir(tmp_path: Path) -> Path:
    """Apart from the SQLite file the test database lives in."""
    directory = tmp_path / "backups"
    directory.mkdir()
    return directory


@pytest.fixture
async def two(database_url: str, backup_dir: Path) -> AsyncIterator[tuple[Scheduler, Scheduler]]:
    clock = FakeClock(BEFORE_SLOT)
    backup = plan(database_url, backup_dir)
    pair = (
        scheduler(database_url, clock, "worker-a:1", backup),
        scheduler(database_url, clock, "worker-b:2", backup),
    )
    yield pair
    for s in pair:
        await s.database.engine.dispose()


async def test_two_schedulers_at_the_slot_make_one_verified_backup_and_prune_to_n(
    two: tuple[Scheduler, Scheduler], backup_dir: Path
) -> None:
    a, b = two
    clock = a.clock
    assert isinstance(clock, FakeClock)
    await new_user(a.database.engine, clock)
    await yesterdays_backup_was_made(a)
    for name in [*OLD_BACKUPS, "keeper-20261125T193000Z.kbak.partial", "notes.txt"]:
        (backup_dir / name).write_bytes(b"not ours to judge")

    early = await asyncio.gather(tick(a), tick(b))
    assert [r.backup_started for r in early] == [False, False]

    clock.set(BEFORE_SLOT + dt.timedelta(minutes=1))
    reports = await asyncio.gather(tick(a), tick(b))
    assert sorted(r.backup_started for r in reports) == [False, True]
    await asyncio.gather(a.backups.wait(), b.backups.wait())  # type: ignore[union-attr]

    async with a.database.transaction() as session:
        runs = (await session.execute(select(func.count()).select_from(BACKUP_RUNS))).scalar_one()
        run = await backups.last_verified(session)
    assert runs == 2  # yesterday's and today's
    assert run is not None
    assert run.run_day == dt.date(2026, 11, 30)
    assert run.path == "keeper-20261129T193000Z.kbak"
    assert (run.verified, run.problem, run.rows > 0, run.size_bytes > 0) == (True, "", True, True)
    assert run.claimed_by in {"worker-a:1", "worker-b:2"}
    assert (await verify_backup(backup_dir / run.path, KEY)).ok

    left = sorted(os.listdir(backup_dir))
    assert left == [
        "keeper-20261123T193000Z.kbak",
        "keeper-20261124T193000Z.kbak",
        "keeper-20261125T193000Z.kbak.partial",
        "keeper-20261129T193000Z.kbak",
        "notes.txt",
    ]


async def yesterdays_backup_was_made(s: Scheduler) -> None:
    yesterday = BEFORE_SLOT - dt.timedelta(days=1, minutes=-1)
    async with s.database.transaction() as session:
        run_id = await backups.claim_day(
            session, day=yesterday.date(), owner="worker-a:0", now=yesterday
        )
        assert run_id is not None
        await backups.finish(
            session,
            run_id,
            finished_at=yesterday + dt.timedelta(minutes=1),
            path="keeper-20261128T193000Z.kbak",
            verified=True,
            revision="0012",
            rows=1,
            size_bytes=1,
            problem="",
        )


async def test_a_scheduler_started_after_a_missed_slot_makes_it_up_at_once(
    two: tuple[Scheduler, Scheduler],
) -> None:
    a, b = two
    reports = await asyncio.gather(tick(a), tick(b))  # 03:29: yesterday's slot is owed
    assert sorted(r.backup_started for r in reports) == [False, True]
    await asyncio.gather(a.backups.wait(), b.backups.wait())  # type: ignore[union-attr]
    async with a.database.transaction() as session:
        run = await backups.latest(session)
    assert run is not None
    assert (run.run_day, run.verified) == (dt.date(2026, 11, 29), True)


async def test_the_day_is_not_made_twice_later_nor_by_a_restarted_scheduler(
    two: tuple[Scheduler, Scheduler], database_url: str, backup_dir: Path
) -> None:
    a, b = two
    clock = a.clock
    assert isinstance(clock, FakeClock)
    clock.set(BEFORE_SLOT + dt.timedelta(minutes=2))
    assert (await tick(a)).backup_started
    await a.backups.wait()  # type: ignore[union-attr]

    clock.advance(dt.timedelta(hours=6))
    restarted = scheduler(database_url, clock, "worker-a:3", plan(database_url, backup_dir))
    try:
        later = await asyncio.gather(tick(a), tick(b), tick(restarted))
    finally:
        await restarted.database.engine.dispose()
    assert [r.backup_started for r in later] == [False, False, False]

    clock.set(BEFORE_SLOT + dt.timedelta(days=1, minutes=1))
    assert (await tick(b)).backup_started
    await b.backups.wait()  # type: ignore[union-attr]
    async with b.database.transaction() as session:
        run = await backups.latest(session)
    assert run is not None
    assert (run.run_day, run.verified, run.claimed_by) == (dt.date(2026, 12, 1), True, "worker-b:2")


async def test_a_failed_backup_is_recorded_with_its_problem_and_nothing_is_pruned(
    database_url: str, tmp_path: Path
) -> None:
    blocked = tmp_path / "backups"
    blocked.write_bytes(b"a file where the directory should be")
    clock = FakeClock(BEFORE_SLOT + dt.timedelta(minutes=1))
    s = scheduler(database_url, clock, "worker-a:1", plan(database_url, blocked))
    try:
        assert (await tick(s)).backup_started
        await s.backups.wait()  # type: ignore[union-attr]
        async with s.database.transaction() as session:
            run = await backups.latest(session)
            verified = await backups.last_verified(session)
    finally:
        await s.database.engine.dispose()
    assert run is not None
    assert verified is None
    assert (run.verified, run.path, run.finished_at is not None) == (False, None, True)
    assert run.problem == f"cannot create the directory {blocked}: File exists"
    assert KEY not in run.problem


async def test_the_scheduler_keeps_ticking_while_a_backup_runs(
    database_url: str, backup_dir: Path
) -> None:
    """The backup is held mid-way (a threading.Event, as a slow verify would hold it);
    ticks go on meanwhile, and the backup finishes once let go."""
    release = threading.Event()

    async def slow(url: str, directory: Path, key: str, *, now: Any) -> BackupOutcome:
        await asyncio.to_thread(release.wait)
        return await make_and_verify(url, directory, key, now=now)

    clock = FakeClock(BEFORE_SLOT + dt.timedelta(minutes=1))
    s = scheduler(database_url, clock, "worker-a:1", plan(database_url, backup_dir))
    s = dataclasses.replace(s, backups=BackupDuty(plan(database_url, backup_dir), make=slow))
    try:
        assert (await tick(s)).backup_started
        for _ in range(3):
            clock.advance(dt.timedelta(seconds=30))
            report = await tick(s)  # returns while the backup is held
            assert not report.backup_started
        async with s.database.transaction() as session:
            running = await backups.latest(session)
        assert running is not None
        assert running.finished_at is None
        release.set()
        await s.backups.wait()  # type: ignore[union-attr]
        async with s.database.transaction() as session:
            done = await backups.latest(session)
    finally:
        release.set()
        await s.database.engine.dispose()
    assert done is not None
    assert done.verified
