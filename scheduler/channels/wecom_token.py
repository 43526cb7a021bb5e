"""The WeCom access_token cache: fetched rarely, refreshed early, one fetch at a time.

WeCom asks callers to cache the token ("不能频繁调用gettoken接口，否则会受到频率拦截"),
per app, for its `expires_in` (normally 7200 s), and to fetch a new one when it is
rejected early. `TokenCache` does that for one (CorpID, AgentID):

- a token is reused until `refresh_at` (`REFRESH_EARLY` before its expiry);
- one coroutine refreshes while the others wait (an `asyncio.Lock`), and one process
  refreshes while the others wait (`TokenStore.lock`, a row lock in the database
  adapter); whoever gets the lock re-loads first, so a refresh another process made
  meanwhile is used instead of fetching again;
- `invalidate(token)` (after 40014/42001) makes the next `get` skip that value.

Storage and fetching are injected, and so is time: the cache does no I/O itself.

Early refresh against WeCom returns the *same* token with fewer seconds left
("有效期内重复获取返回相同结果"). So a token fetched with less than `REFRESH_EARLY`
left is not refetched on every call: at most every `MIN_REFETCH`, and it stays in
use until it really expires (a late 42001 then refreshes it, as for any rejection).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from scheduler import stats

__all__ = [
    "MIN_REFETCH",
    "REFRESH_EARLY",
    "CachedToken",
    "FetchedToken",
    "MemoryTokenStore",
    "TokenCache",
    "TokenStore",
    "refresh_at",
]

REFRESH_EARLY = timedelta(minutes=5)
MIN_REFETCH = timedelta(minutes=1)
Now = Callable[[], datetime]


@dataclass(frozen=True, kw_only=True, slots=True)
class FetchedToken:
    """What gettoken answered. The value never shows in a repr."""

    value: str = field(repr=False)
    expires_in: float  # seconds, as WeCom's `expires_in`


@dataclass(frozen=True, kw_only=True, slots=True)
class CachedToken:
    """A token as stored: its value, its expiry and when we fetched it (aware UTC)."""

    value: str = field(repr=False)
    expires_at: datetime
    fetched_at: datetime


def refresh_at(
    token: CachedToken, *, early: timedelta = REFRESH_EARLY, min_refetch: timedelta = MIN_REFETCH
) -> datetime:
    """When to stop reusing `token` and fetch again.

    Normally `early` before expiry; for a token that arrived with less life left
    than that, `min_refetch` after it was fetched, but never after its expiry.
    """
    early_at = token.expires_at - early
    if early_at >= token.fetched_at + min_refetch:
        return early_at
    return min(token.fetched_at + min_refetch, token.expires_at)


class TokenStore(Protocol):
    """Where tokens live between processes (the database in production).

    `load` and `save` are called inside `lock` when a refresh is needed, so an
    adapter may run all three in the lock's transaction.
    """

    async def load(self, corp_id: str, agent_id: int) -> CachedToken | None: ...

    async def save(self, corp_id: str, agent_id: int, token: CachedToken) -> None: ...

    def lock(self, corp_id: str, agent_id: int) -> AbstractAsyncContextManager[None]:
        """Held by one refresher at a time, across processes."""
        ...


class MemoryTokenStore:
    """A `TokenStore` in memory: for tests and the demo (one process, many caches)."""

    def __init__(self) -> None:
        self._tokens: dict[tuple[str, int], CachedToken] = {}
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}
        self.saves = 0

    async def load(self, corp_id: str, agent_id: int) -> CachedToken | None:
        return self._tokens.get((corp_id, agent_id))

    async def save(self, corp_id: str, agent_id: int, token: CachedToken) -> None:
        self._tokens[(corp_id, agent_id)] = token
        self.saves += 1

    @asynccontextmanager
    async def lock(self, corp_id: str, agent_id: int) -> AsyncIterator[None]:
        async with self._locks.setdefault((corp_id, agent_id), asyncio.Lock()):
            yield


class TokenCache:
    """A valid access_token for one app, fetched as rarely as WeCom asks.

    Args:
        corp_id, agent_id: the app.
        store: shared with the other processes.
        fetch: calls gettoken; raises when it fails (the error reaches `get`'s caller).
        now: the clock (aware UTC).
    """

    def __init__(
        self,
        corp_id: str,
        agent_id: int,
        *,
        store: TokenStore,
        fetch: Callable[[], Awaitable[FetchedToken]],
        now: Now,
        early: timedelta = REFRESH_EARLY,
        min_refetch: timedelta = MIN_REFETCH,
    ) -> None:
        self.corp_id, self.agent_id = corp_id, agent_id
        self._store, self._fetch, self._now = store, fetch, now
        self._early, self._min_refetch = early, min_refetch
        self._current: CachedToken | None = None
        self._rejected: str | None = None
        self._lock = asyncio.Lock()

    async def get(self) -> str:
        """A token to use now: cached, another process's refresh, or a new fetch.

        Concurrent callers (coroutines here, processes sharing the store) cause at
        most one fetch. Raises whatever `fetch` raises.
        """
        if (token := self._usable(self._current)) is not None:
            return token.value
        async with self._lock:
            token = self._usable(self._current) or self._usable(await self._load())
            if token is None:
                token = await self._refresh_across_processes()
            self._current = token
            return token.value

    def invalidate(self, token: str) -> None:
        """WeCom rejected `token` (40014/42001): the next `get` will not return it."""
        self._rejected = token
        if self._current is not None and self._current.value == token:
            self._current = None

    async def _refresh_across_processes(self) -> CachedToken:
        async with self._store.lock(self.corp_id, self.agent_id):
            # Another process may have refreshed while we waited for the lock.
            if (token := self._usable(await self._load())) is not None:
                return token
            started = self._now()
            fetched = await self._fetch()
            stats.count("token_refreshes")
            token = CachedToken(
                value=fetched.value,
                expires_at=started + timedelta(seconds=fetched.expires_in),
                fetched_at=started,  # before the call: the expiry errs on the early side
            )
            await self._store.save(self.corp_id, self.agent_id, token)
            self._rejected = None  # a fetched token is WeCom's current one, whatever it is
            return token

    async def _load(self) -> CachedToken | None:
        return await self._store.load(self.corp_id, self.agent_id)

    def _usable(self, token: CachedToken | None) -> CachedToken | None:
        if token is None or token.value == self._rejected:
            return None
        due = refresh_at(token, early=self._early, min_refetch=self._min_refetch)
        return token if self._now() < due else None
