"""`keeper doctor`'s backups line, on an injected clock, through its main function."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.repos import backups
from tests.integration.doctor_support import doctor_table

KEY = "doctor test backup passphrase"


async def backups_line(database_url: str, clock: FakeClock, **extra: str) -> tuple[int, str]:
    code, table = await doctor_table(database_url, clock, KEEPER_SCHEDULER="on", **extra)
    [line] = [x for x in table.splitlines() if " backups " in x]
    fix = table.splitlines()[table.splitlines().index(line) + 1] if line[0] == "✗" else ""
    return code, f"{line}\n{fix}".strip()


async def record(
    engine: AsyncEngine, clock: FakeClock, ago: dt.timedelta, *, verified: bool, day: int
) -> None:
    at = clock.now() - ago
    async with engine.begin() as session:
        run = await backups.claim_day(session, day=dt.date(2026, 11, day), owner="w:1", now=at)
        assert run is not None
        await backups.finish(
            session, run, finished_at=at, path="keeper-x.kbak" if verified else None,
            verified=verified, revision="0012", rows=1602, size_bytes=1,
            problem="" if verified else "cannot create /b/keeper-x.kbak.partial: Permission denied",
        )  # fmt: skip


async def test_backups_that_are_off_are_a_passing_line(database_url: str, clock: FakeClock) -> None:
    code, line = await backups_line(database_url, clock)
    assert line.startswith("✓")
    assert "off (KEEPER_BACKUP_DIR is empty" in line
    assert code == 0


@pytest.mark.parametrize(
    ("ago", "ok"), [(dt.timedelta(hours=5), True), (dt.timedelta(hours=27), False)]
)
async def test_a_verified_backup_passes_for_26_hours(
    database_url: str, engine: AsyncEngine, clock: FakeClock, tmp_path: Path,
    ago: dt.timedelta, ok: bool,
) -> None:  # fmt: skip
    await record(engine, clock, ago, verified=True, day=24)
    code, line = await backups_line(
        database_url, clock, KEEPER_BACKUP_DIR=str(tmp_path), KEEPER_BACKUP_KEY=KEY
    )
    if ok:
        assert line.startswith("✓")
        assert "keeper-x.kbak verified 5.0 h ago (1,602 rows)" in line
    else:
        assert line.startswith("✗")
        assert "no verified backup in the last 26 h (last at " in line
        assert "backs up daily at 03:30" in line
    assert KEY not in line
    assert code == (0 if ok else 1)


async def test_a_failing_backup_is_named_with_its_problem(
    database_url: str, engine: AsyncEngine, clock: FakeClock, tmp_path: Path
) -> None:
    await record(engine, clock, dt.timedelta(hours=1), verified=False, day=25)
    code, line = await backups_line(
        database_url, clock, KEEPER_BACKUP_DIR=str(tmp_path), KEEPER_BACKUP_KEY=KEY
    )
    assert line.startswith("✗ backups")
    assert "(never); the latest failed: cannot create /b/keeper-x.kbak.partial" in line
    assert code == 1
