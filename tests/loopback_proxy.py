"""A loopback TCP proxy in front of a database, for tests that watch or hold the wire.

`LoopbackProxy.serving()` listens on a free local port and forwards each connection
to `target`; a subclass says what happens to the bytes (`_accept`) and what must be
let go before the pumps are stopped (`_closing`). `StallProxy` holds them,
`WireCounter` counts round trips.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Self


class LoopbackProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self._pumps: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def serving(self) -> AsyncIterator[Self]:
        server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        try:
            yield self
        finally:
            self._closing()
            server.close()
            for pump in list(self._pumps):
                pump.cancel()
            await asyncio.gather(*self._pumps, return_exceptions=True)
            await server.wait_closed()

    def _closing(self) -> None:
        """What to let go before the connections are dropped (nothing by default)."""

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        raise NotImplementedError
