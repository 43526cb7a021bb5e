"""Two processes on one SQLite file: a writer that finds the file locked retries.

Statements run inline (storage.inline_sqlite), so a lock held by another process
is waited for only briefly on the event loop, then the unit of work is retried
asynchronously by storage.retry. Two engines on one file stand in for two processes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from storage.database import Database
from storage.engine import create_engine
from storage.migrate import upgrade
from storage.models import User
from storage.repos.users import ensure_and_lock_user
from storage.retry import retrying

NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)


async def test_a_writer_blocked_by_another_process_retries_and_succeeds(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    first, second = create_engine(url), create_engine(url)
    await upgrade(first)
    other_process, this_process = Database(first), Database(second)
    failed_once = asyncio.Event()
    attempts = 0

    async def blocked_unit() -> None:
        nonlocal attempts
        attempts += 1
        try:
            async with this_process.transaction() as session:
                await ensure_and_lock_user(session, "bob", timezone="UTC", now=NOW)
        except OperationalError:
            failed_once.set()
            raise

    try:
        async with other_process.transaction() as session:
            await ensure_and_lock_user(session, "alice", timezone="UTC", now=NOW)
            blocked = asyncio.create_task(retrying(blocked_unit))
            await failed_once.wait()  # the other "process" still holds the write lock
        await blocked
        async with first.connect() as conn:
            users = (await conn.execute(select(func.count()).select_from(User))).scalar_one()
        assert attempts >= 2
        assert users == 2
    finally:
        await first.dispose()
        await second.dispose()
