"""An HTTP client that uses its caller's aiohttp session, or opens and closes its own.

Shared by the WeCom channel and the WeCom-side test client: `async with Client(...)`
owns a session for the block; passing `session=` leaves closing it to the caller.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

import aiohttp


class SessionHolder:
    """The session part of an HTTP client (subclasses call `__init__(session)`)."""

    def __init__(self, session: aiohttp.ClientSession | None) -> None:
        self._session, self._owns_session = session, session is None

    async def __aenter__(self) -> Self:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the session if this client opened it."""
        if self._owns_session and self._session is not None:
            await self._session.close()
            self._session = None

    def require_session(self) -> aiohttp.ClientSession:
        """The open session. Raises RuntimeError when used outside `async with`."""
        if self._session is None:
            raise RuntimeError(f"use `async with {type(self).__name__}(...)` or pass a session")
        return self._session
