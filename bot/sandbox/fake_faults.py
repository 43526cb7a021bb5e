"""Fault injection for the fake WeCom API: the switches a test flips.

One role: queue misbehaviour per route (an errcode, a hang, a reset connection,
an HTTP error page) and hand it to the aiohttp shell (`fake_wecom_app`), which
acts it out. `FakeWeCom` inherits these switches, so tests call them on the fake.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import Literal, get_args

__all__ = ["Fault", "FaultSwitches", "Route"]

Route = Literal["gettoken", "send", "update_card"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Fault:
    """One queued misbehaviour for one request."""

    kind: Literal["errcode", "hang", "reset", "status"]
    code: int = 0  # errcode or HTTP status
    delivered: bool = False  # hang/reset: record the message before misbehaving
    text: str = ""  # errcode: the errmsg's own words; status: the whole page (else stock)


class FaultSwitches:
    """Per-route queues of faults; each request on a route takes the next one."""

    def __init__(self) -> None:
        self.hanging = 0  # requests currently held by hang_next
        self._faults: dict[Route, deque[Fault]] = {r: deque() for r in get_args(Route)}
        self._release = asyncio.Event()

    def fail_next(
        self, errcode: int, times: int = 1, *, on: Route = "send", errmsg: str = ""
    ) -> None:
        """Answer the next `times` calls with HTTP 200 and this errcode (its errmsg
        starting with `errmsg` instead of WeCom's usual words, when given)."""
        self._queue(on, times, Fault(kind="errcode", code=errcode, text=errmsg))

    def hang_next(self, times: int = 1, *, on: Route = "send", delivered: bool = False) -> None:
        """Never answer the next calls (until `release_hung` or shutdown).

        With `delivered=True` the message (or card update) is recorded first: the
        sender cannot know, which is exactly the "unknown" outcome.
        """
        self._queue(on, times, Fault(kind="hang", delivered=delivered))

    def reset_next(self, times: int = 1, *, on: Route = "send", delivered: bool = False) -> None:
        """Read the next requests, then close the connection without answering."""
        self._queue(on, times, Fault(kind="reset", delivered=delivered))

    def status_next(
        self, http_status: int, times: int = 1, *, on: Route = "send", page: str = ""
    ) -> None:
        """Answer the next calls with this HTTP status and an HTML page (a proxy's 502;
        `page` instead of the stock one, when given)."""
        self._queue(on, times, Fault(kind="status", code=http_status, text=page))

    def heal(self) -> None:
        """Drop every queued fault: the API behaves again from the next request on."""
        for queue in self._faults.values():
            queue.clear()

    def release_hung(self) -> None:
        """Let every hung request finish (by closing its connection)."""
        self._release.set()
        self._release = asyncio.Event()

    def _queue(self, route: Route, times: int, fault: Fault) -> None:
        self._faults[route].extend([fault] * times)

    def take_fault(self, route: Route) -> Fault | None:
        """Pop the next queued fault for a route, if any."""
        queue = self._faults[route]
        return queue.popleft() if queue else None

    async def wait_released(self) -> None:
        """Block until `release_hung` (called on shutdown at the latest)."""
        self.hanging += 1
        try:
            await self._release.wait()
        finally:
            self.hanging -= 1
