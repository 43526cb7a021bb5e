"""A database that cannot be reached: a clear answer, a 503 health check, never a 500."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from handlers import texts
from scheduler.clock import FakeClock
from storage.engine import create_engine
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side


@pytest.fixture
async def down_client(
    tmp_path: Path, clock: FakeClock
) -> AsyncIterator[TestClient[object, object]]:
    # A file in a directory that does not exist: every connection attempt fails.
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'missing' / 'keeper.db'}")
    app = create_test_app(TEST_SETTINGS, clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        yield client
    await engine.dispose()


async def test_the_health_check_says_the_database_is_unreachable(
    down_client: TestClient[object, object],
) -> None:
    response = await down_client.get("/healthz")
    assert response.status == 503
    assert await response.json() == {
        "database": "unreachable",
        "scheduler": "unknown",
        "last_tick_age_seconds": None,
    }


async def test_a_message_gets_a_plain_apology_not_a_500(
    down_client: TestClient[object, object], clock: FakeClock
) -> None:
    wecom = wecom_side(down_client, TEST_SETTINGS, clock)
    reply = await wecom.send_text("alice", "体重 72.4")
    assert reply.status == 200
    assert reply.text == texts.STORAGE_DOWN
