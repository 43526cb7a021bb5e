"""The token cache: single-flight in a process and across processes, early refresh,
invalidation after 40014/42001. Time is a fake clock; nothing sleeps."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from scheduler.channels.wecom_token import (
    CachedToken,
    FetchedToken,
    MemoryTokenStore,
    TokenCache,
    refresh_at,
)
from scheduler.clock import FakeClock

T0 = datetime(2026, 11, 25, 2, 0, tzinfo=UTC)
CORP, AGENT = "wwcorp", 1000002


class Fetcher:
    """gettoken stand-in: hands out tok-1, tok-2, ... (or one fixed value), counting calls."""

    def __init__(self, expires_in: float = 7200, same: str | None = None) -> None:
        self.calls, self.expires_in, self.same = 0, expires_in, same
        self.fail_next = False

    async def __call__(self) -> FetchedToken:
        self.calls += 1
        for _ in range(5):  # let the other coroutines pile up meanwhile
            await asyncio.sleep(0)
        if self.fail_next:
            self.fail_next = False
            raise RuntimeError("gettoken failed")
        return FetchedToken(value=self.same or f"tok-{self.calls}", expires_in=self.expires_in)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


def cache(store: MemoryTokenStore, fetch: Fetcher, clock: FakeClock) -> TokenCache:
    return TokenCache(CORP, AGENT, store=store, fetch=fetch, now=clock.now)


async def test_twenty_concurrent_gets_on_an_empty_cache_fetch_once(clock: FakeClock) -> None:
    fetch, store = Fetcher(), MemoryTokenStore()
    tokens = cache(store, fetch, clock)
    values = await asyncio.gather(*(tokens.get() for _ in range(20)))
    assert set(values) == {"tok-1"}
    assert (fetch.calls, store.saves) == (1, 1)


async def test_two_processes_sharing_a_store_fetch_once(clock: FakeClock) -> None:
    fetch, store = Fetcher(), MemoryTokenStore()
    first, second = cache(store, fetch, clock), cache(store, fetch, clock)
    values = await asyncio.gather(*(c.get() for _ in range(10) for c in (first, second)))
    assert set(values) == {"tok-1"}
    assert fetch.calls == 1


async def test_a_token_saved_by_another_process_is_used_without_fetching(clock: FakeClock) -> None:
    store = MemoryTokenStore()
    await store.save(
        CORP, AGENT, CachedToken(value="theirs", expires_at=T0 + timedelta(hours=2), fetched_at=T0)
    )
    fetch = Fetcher()
    assert await cache(store, fetch, clock).get() == "theirs"
    assert fetch.calls == 0


async def test_the_token_is_reused_until_five_minutes_before_expiry(clock: FakeClock) -> None:
    fetch = Fetcher()
    tokens = cache(MemoryTokenStore(), fetch, clock)
    assert await tokens.get() == "tok-1"
    clock.advance(timedelta(seconds=7200 - 301))
    assert await tokens.get() == "tok-1"
    clock.advance(timedelta(seconds=1))
    assert await tokens.get() == "tok-2"
    assert fetch.calls == 2


async def test_a_nearly_expired_token_is_refetched_at_most_once_a_minute(clock: FakeClock) -> None:
    fetch = Fetcher(expires_in=200, same="same")  # WeCom hands back the old token
    tokens = cache(MemoryTokenStore(), fetch, clock)
    assert await tokens.get() == "same"
    for _ in range(10):
        clock.advance(timedelta(seconds=5))
        await tokens.get()
    assert fetch.calls == 1
    clock.advance(timedelta(seconds=10))
    await tokens.get()
    assert fetch.calls == 2


async def test_invalidate_makes_the_next_get_fetch_a_new_token(clock: FakeClock) -> None:
    fetch = Fetcher()
    tokens = cache(MemoryTokenStore(), fetch, clock)
    assert await tokens.get() == "tok-1"
    tokens.invalidate("tok-1")
    assert await tokens.get() == "tok-2"
    tokens.invalidate("tok-1")  # a stale rejection changes nothing
    assert await tokens.get() == "tok-2"
    assert fetch.calls == 2


async def test_after_invalidate_a_refresh_by_another_process_is_used(clock: FakeClock) -> None:
    fetch, store = Fetcher(), MemoryTokenStore()
    mine, theirs = cache(store, fetch, clock), cache(store, fetch, clock)
    assert await mine.get() == await theirs.get() == "tok-1"
    theirs.invalidate("tok-1")
    assert await theirs.get() == "tok-2"
    mine.invalidate("tok-1")
    assert await mine.get() == "tok-2"
    assert fetch.calls == 2


async def test_a_rejected_token_fetched_again_is_used_not_refetched_forever(
    clock: FakeClock,
) -> None:
    fetch = Fetcher(same="same")
    tokens = cache(MemoryTokenStore(), fetch, clock)
    await tokens.get()
    tokens.invalidate("same")
    assert await tokens.get() == "same"  # WeCom's current token, whatever we thought
    assert await tokens.get() == "same"
    assert fetch.calls == 2


async def test_a_failed_fetch_reaches_the_caller_and_the_next_get_tries_again(
    clock: FakeClock,
) -> None:
    fetch = Fetcher()
    fetch.fail_next = True
    tokens = cache(MemoryTokenStore(), fetch, clock)
    with pytest.raises(RuntimeError, match="gettoken failed"):
        await tokens.get()
    assert await tokens.get() == "tok-2"


@pytest.mark.parametrize(
    ("expires_in", "expected_after_fetch"),
    [(7200, 6900), (600, 300), (360, 60), (300, 60), (200, 60), (30, 30)],
)
def test_refresh_at(expires_in: int, expected_after_fetch: int) -> None:
    token = CachedToken(value="v", expires_at=T0 + timedelta(seconds=expires_in), fetched_at=T0)
    assert refresh_at(token) == T0 + timedelta(seconds=expected_after_fetch)


def test_a_token_never_shows_in_a_repr() -> None:
    token = CachedToken(value="very-secret-token", expires_at=T0, fetched_at=T0)
    assert "very-secret-token" not in repr(token)
    assert "very-secret-token" not in repr(FetchedToken(value="very-secret-token", expires_in=1))
