"""A process that acknowledges group-committed writes, then stops before a COMMIT.

Used by `test_group_commit.py` to kill a process (SIGKILL) between a batch's
statements and its COMMIT. It writes three rows in one batch and prints `ack N` for
each once its transaction has returned (what a passive reply waits for), then writes
three more in a second batch, prints `holding` just before that COMMIT and waits to
be killed.

    python tests/integration/group_commit_child.py /tmp/x.db
"""

from __future__ import annotations

import asyncio
import sys

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from storage.database import Database
from storage.engine import create_engine
from storage.group_commit import GroupCommit


class HoldsSecondCommit(GroupCommit):
    async def _send_commit(self, connection: AsyncConnection) -> None:
        if self.commits >= 1:
            print("holding", flush=True)  # noqa: T201 - the parent reads stdout
            await asyncio.Event().wait()  # until SIGKILL
        await super()._send_commit(connection)


async def write(database: Database, n: int) -> None:
    async with database.transaction() as session:
        await session.execute(text("INSERT INTO t (v) VALUES (:v)"), {"v": n})
    print(f"ack {n}", flush=True)  # noqa: T201 - the parent reads stdout


async def main(path: str) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE t (v INTEGER PRIMARY KEY)"))
    database = Database(engine)
    database.group = HoldsSecondCommit(engine)
    await asyncio.gather(*(write(database, n) for n in (1, 2, 3)))
    await asyncio.gather(*(write(database, n) for n in (4, 5, 6)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
