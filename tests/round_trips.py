"""Counting what one message costs the database: statements and round trips.

`StatementLog` listens on an engine (SQLAlchemy's own events): every statement a
cursor executes, and every COMMIT and ROLLBACK the connection sends. That is the
whole conversation on SQLite, where nothing travels.

`WireCounter` sits between a client and MariaDB as a TCP proxy and counts round
trips as the server sees them: each time the client speaks after the server has
answered (or first). It sees what SQLAlchemy's events do not: a pool's ping, a
reset's ROLLBACK, a driver's own SET or SHOW, whatever the driver.
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from tests.loopback_proxy import LoopbackProxy


class StatementLog:
    """The statements and transaction ends an engine's connections send, in order."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.sent: list[str] = []
        sync = engine.sync_engine
        event.listen(sync, "before_cursor_execute", self._statement)
        event.listen(sync, "commit", self._commit)
        event.listen(sync, "rollback", self._rollback)

    def _statement(self, _conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        self.sent.append(" ".join(statement.split()[:3]))  # enough to tell them apart

    def _commit(self, _conn: Any) -> None:
        self.sent.append("COMMIT")

    def _rollback(self, _conn: Any) -> None:
        self.sent.append("ROLLBACK")

    def clear(self) -> None:
        self.sent.clear()


class WireCounter(LoopbackProxy):
    """A loopback TCP proxy to `target` that counts the client's round trips."""

    def __init__(self, target_host: str, target_port: int) -> None:
        super().__init__(target_host, target_port)
        self.round_trips = 0
        self._client_turn: dict[int, bool] = {}  # per connection: the client speaks next

    def clear(self) -> None:
        self.round_trips = 0

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection(*self.target)
        link = id(client_w)
        self._client_turn[link] = False  # the server greets first
        for pump in (
            self._pump(client_r, server_w, link, from_client=True),
            self._pump(server_r, client_w, link, from_client=False),
        ):
            task = asyncio.create_task(pump)
            self._pumps.add(task)
            task.add_done_callback(self._pumps.discard)

    async def _pump(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        link: int,
        *,
        from_client: bool,
    ) -> None:
        try:
            while chunk := await reader.read(65536):
                if from_client and self._client_turn[link]:
                    self.round_trips += 1
                    self._client_turn[link] = False
                elif not from_client:
                    self._client_turn[link] = True
                writer.write(chunk)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
