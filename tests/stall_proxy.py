"""A TCP proxy in front of a database that can stop forwarding: a stalled server.

`freeze()` holds every byte in both directions, as a server stopped with SIGSTOP
would (the kernel still accepts the client's bytes and closes, the server reads them
when it wakes); `thaw()` forwards what was held, in order, closes included.
`freeze_after(marker)` lets the client's bytes that contain `marker` through (say a
COMMIT) and then freezes: the server acts on it, the client never hears back.
`cut()` drops every connection.
"""

from __future__ import annotations

import asyncio

from tests.loopback_proxy import LoopbackProxy


class StallProxy(LoopbackProxy):
    def __init__(self, target_host: str, target_port: int) -> None:
        super().__init__(target_host, target_port)
        self._running = asyncio.Event()
        self._running.set()
        self._marker: bytes | None = None

    @property
    def running(self) -> bool:
        return self._running.is_set()

    def freeze(self) -> None:
        self._running.clear()

    def freeze_after(self, marker: bytes) -> None:
        """Forward the next client chunk containing `marker`, then freeze."""
        self._marker = marker

    def cut(self) -> None:
        """Drop every connection now (a server restart, a reset on the way)."""
        for pump in list(self._pumps):
            pump.cancel()

    def thaw(self) -> None:
        self._marker = None
        self._running.set()

    def _closing(self) -> None:
        self.thaw()

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection(*self.target)
        for pump in (
            self._pump(client_r, server_w, from_client=True),
            self._pump(server_r, client_w, from_client=False),
        ):
            task = asyncio.create_task(pump)
            self._pumps.add(task)
            task.add_done_callback(self._pumps.discard)

    async def _pump(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, from_client: bool
    ) -> None:
        try:
            while chunk := await reader.read(65536):
                marked = from_client and self._marker is not None and self._marker in chunk
                if not marked:
                    await self._running.wait()
                writer.write(chunk)
                await writer.drain()
                if marked:
                    self._marker = None
                    self.freeze()
            await self._running.wait()  # a close waits its turn like any byte
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()
