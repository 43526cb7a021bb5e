"""Group commit on SQLite (issue 11): messages that queue up share one COMMIT, each in
its own savepoint; a failure rolls back only its own work, nothing is acknowledged
before the COMMIT that holds it, and a crash before that COMMIT loses nothing that
was acknowledged."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot import keys
from scheduler.clock import FakeClock
from storage.database import CommitWatch, Database
from storage.engine import create_engine
from storage.group_commit import GroupCommit
from storage.migrate import upgrade
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side

CHILD = Path(__file__).with_name("group_commit_child.py")
CHILD_PATIENCE_S = 60


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (v INTEGER PRIMARY KEY)"))
    yield Database(engine)
    await engine.dispose()


async def _insert(session: AsyncConnection, v: int) -> None:
    await session.execute(text("INSERT INTO t (v) VALUES (:v)"), {"v": v})


async def _rows(database: Database) -> list[int]:
    async with database.transaction() as session:
        return list((await session.execute(text("SELECT v FROM t ORDER BY v"))).scalars())


async def test_a_failure_in_one_message_of_a_batch_rolls_back_only_that_message(
    database: Database,
) -> None:
    inside, go_on = asyncio.Event(), asyncio.Event()

    async def first() -> None:
        async with database.transaction() as session:
            await _insert(session, 1)
            inside.set()
            await go_on.wait()  # the others queue up meanwhile: they join this batch

    async def queued(values: tuple[int, ...], started: asyncio.Event) -> None:
        started.set()  # the transaction below queues at once: nothing runs in between
        async with database.transaction() as session:
            for v in values:
                await _insert(session, v)

    a = asyncio.create_task(first())
    await inside.wait()
    b_started, c_started = asyncio.Event(), asyncio.Event()
    b = asyncio.create_task(queued((2, 1), b_started))  # 1 again: a unique-key clash
    c = asyncio.create_task(queued((3,), c_started))
    await b_started.wait()
    await c_started.wait()
    go_on.set()
    results = await asyncio.gather(a, b, c, return_exceptions=True)

    assert results[0] is None
    assert isinstance(results[1], IntegrityError)
    assert results[2] is None
    assert await _rows(database) == [1, 3]  # b's first insert (2) went with its savepoint
    assert database.group is not None
    assert database.group.commits == 2  # a and c in one, the read after in another
    assert database.group.members_committed == 3


async def test_a_failure_in_the_message_that_opened_a_batch_leaves_the_next_one_whole(
    database: Database,
) -> None:
    async def twice() -> None:
        async with database.transaction() as session:
            await _insert(session, 5)
            await _insert(session, 5)

    with pytest.raises(IntegrityError):
        await twice()
    async with database.transaction() as session:
        await _insert(session, 6)

    assert await _rows(database) == [6]


async def test_every_member_of_a_batch_is_told_its_commit_was_sent(database: Database) -> None:
    watches = [CommitWatch() for _ in range(3)]

    async def write(v: int, watch: CommitWatch) -> None:
        async with database.transaction(watch) as session:
            await _insert(session, v)

    await asyncio.gather(*(write(v, w) for v, w in enumerate(watches)))

    assert [w.commit_sent for w in watches] == [True, True, True]
    assert database.group is not None
    assert database.group.commits == 1


class HeldCommit(GroupCommit):
    """Holds every COMMIT until the test lets it go."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.reached, self.release = asyncio.Event(), asyncio.Event()

    async def _send_commit(self, connection: AsyncConnection) -> None:
        self.reached.set()
        await self.release.wait()
        await super()._send_commit(connection)


async def test_a_reply_never_leaves_before_the_commit_that_holds_it(
    tmp_path: Path, clock: FakeClock
) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'keeper.db'}")
    await upgrade(engine)
    app = create_test_app(TEST_SETTINGS, clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        database = app[keys.DATABASE]
        held = database.group = HeldCommit(engine)
        wecom = wecom_side(client, TEST_SETTINGS, clock)
        sending = asyncio.create_task(wecom.send_text("alice", "体重 72", msg_id=1))
        await held.reached.wait()

        assert not sending.done()  # the statements ran; the COMMIT has not returned
        held.release.set()
        reply = await sending
    await engine.dispose()

    assert reply.text == "记下了：体重 72 kg。"
    assert held.commits >= 1


def test_a_crash_before_a_batch_commits_loses_nothing_that_was_acknowledged(
    tmp_path: Path,
) -> None:
    path = tmp_path / "crash.db"
    lines: list[str] = []
    cmd = [sys.executable, str(CHILD), str(path)]
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        try:
            for line in child.stdout:  # ends if the child dies (the test timeout bounds it)
                lines.append(line.strip())
                if line.strip() == "holding":  # rows 4-6 written, their COMMIT not sent
                    break
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait(CHILD_PATIENCE_S)

    acknowledged = sorted(int(x.split()[1]) for x in lines if x.startswith("ack "))
    with sqlite3.connect(path) as conn:
        stored = [v for (v,) in conn.execute("SELECT v FROM t ORDER BY v")]
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert lines[-1] == "holding"
    assert acknowledged == [1, 2, 3]
    assert stored == [1, 2, 3]  # every acknowledged row; the unacknowledged batch is gone
