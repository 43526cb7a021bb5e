"""A sliding window of sends: up to `size` in flight; as one finishes, another starts.

The window owns no database: its caller's `flush(finished, to_start)` records, in one
transaction, the outcomes of the sends that finished since the last flush and the
start of the next ones, and returns those that may start (a start is durable before
its request leaves). Flushes never overlap, so the sends that finish while one flush
commits are all taken by the next: under load a flush carries many outcomes (group
commit), when idle it carries one at once. A send that hangs holds one place in the
window and nothing else: the others are finalised as they finish.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

Flush = Callable[[list[tuple[T, R]], list[T]], Awaitable[list[T]]]
"""(finished sends with their results, sends that want to start) -> those to start."""


class SendWindow(Generic[T, R]):
    """Run `send` over items, `size` at a time, with `flush` between (see the module).

    `send` must not raise (a channel call ends in a result). If `flush` raises, the
    sends in flight are awaited (their results dropped: whoever recovers the jobs
    treats them as uncertain) and the error propagates.
    """

    def __init__(self, *, size: int, send: Callable[[T], Awaitable[R]], flush: Flush[T, R]):
        if size < 1:
            raise ValueError("a window holds at least one send")
        self.size, self._send, self._flush = size, send, flush
        self._in_flight: dict[asyncio.Task[R], T] = {}
        self._finished: list[tuple[T, R]] = []

    async def run(self, started: list[T], queued: list[T]) -> None:
        """Send `started` (already recorded as started) at once, then `queued` as
        places free up; return when every send has finished and been flushed."""
        queue = deque(queued)
        self._launch(started)
        try:
            while True:
                self._collect()
                free = self.size - len(self._in_flight)
                if not self._finished and not (queue and free > 0):
                    if not self._in_flight:
                        return
                    await asyncio.wait(self._in_flight, return_when=asyncio.FIRST_COMPLETED)
                    continue
                to_start = [queue.popleft() for _ in range(min(free, len(queue)))]
                finished, self._finished = self._finished, []
                self._launch(await self._flush(finished, to_start))
        finally:
            if self._in_flight:  # only after a failed flush
                await asyncio.gather(*self._in_flight, return_exceptions=True)

    def _launch(self, items: list[T]) -> None:
        for item in items:
            self._in_flight[asyncio.ensure_future(self._send(item))] = item

    def _collect(self) -> None:
        for task in [task for task in self._in_flight if task.done()]:
            self._finished.append((self._in_flight.pop(task), task.result()))
