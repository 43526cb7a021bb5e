"""One-time links in the database: used once, also when two uses race."""

from __future__ import annotations

import asyncio
import datetime as dt

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.repos import links
from storage.web_models import WEB_LINKS
from tests.integration.conftest import new_user

TEN_MINUTES = dt.timedelta(minutes=10)


async def _made(engine: AsyncEngine, clock: FakeClock, token: str = "t" * 43) -> int:
    user = await new_user(engine, clock)
    async with engine.begin() as session:
        await links.create(
            session, token_hash=links.hash_token(token), user_id=user, purpose="page",
            now=clock.now(), expires_at=clock.now() + TEN_MINUTES,
        )  # fmt: skip
    return user


async def _consume(engine: AsyncEngine, token: str, now: dt.datetime) -> object:
    async with engine.begin() as session:
        return await links.consume(session, links.hash_token(token), now)


async def test_a_link_is_honoured_once_then_refused_as_used(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    user = await _made(engine, clock)
    assert await _consume(engine, "t" * 43, clock.now()) == links.Consumed(
        user_id=user, purpose="page"
    )
    assert await _consume(engine, "t" * 43, clock.now()) == "used"


async def test_a_link_is_refused_at_its_expiry_and_an_unknown_one_is_unknown(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    await _made(engine, clock)
    assert await _consume(engine, "t" * 43, clock.now() + TEN_MINUTES) == "expired"
    assert await _consume(engine, "u" * 43, clock.now()) == "unknown"


async def test_only_the_tokens_hash_is_stored(engine: AsyncEngine, clock: FakeClock) -> None:
    await _made(engine, clock, token="secret-token-value-abcdefghijklmnopqrstuvw")
    async with engine.connect() as conn:
        row = (await conn.execute(select(WEB_LINKS))).one()
    assert "secret-token-value" not in str(tuple(row))
    assert row.token_hash == links.hash_token("secret-token-value-abcdefghijklmnopqrstuvw")


async def test_racing_uses_of_one_link_succeed_exactly_once(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    await _made(engine, clock)
    results = await asyncio.gather(*(_consume(engine, "t" * 43, clock.now()) for _ in range(8)))
    assert sum(isinstance(r, links.Consumed) for r in results) == 1
    assert sorted(r for r in results if isinstance(r, str)) == ["used"] * 7
