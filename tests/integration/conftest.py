"""A running keeper app (real crypto, real database) and a WeCom-side client for it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import pytest
from aiohttp import CookieJar
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.wecom_side import WeComSide
from bot.settings import Settings
from scheduler.clock import FakeClock
from storage.repos import rules
from storage.repos.users import ensure_and_lock_user
from storage.schema import metadata
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side
from tests.settings_env import changed

if TYPE_CHECKING:  # the mini-program fixtures' types; mp_support imports this module
    from bot.sandbox.fake_wechat import FakeWeChat
    from tests.integration.mp_support import Client, MiniProgram


@pytest.fixture
def settings() -> Settings:
    return TEST_SETTINGS


@pytest.fixture
async def client(
    settings: Settings, clock: FakeClock, engine: AsyncEngine
) -> AsyncIterator[TestClient[object, object]]:
    app = create_test_app(settings, clock=clock, engine=engine)
    # unsafe: the test server is 127.0.0.1, whose cookies aiohttp's jar keeps only so
    # (the pages' tests log in through a cookie)
    async with TestClient(TestServer(app), cookie_jar=CookieJar(unsafe=True)) as test_client:
        yield test_client


PAGES_SETTINGS = changed(
    TEST_SETTINGS,
    web={"public_url": "http://keeper.test"},
    operations={"admins": frozenset({"boss"})},
)
"""Settings for the pages' tests: a public address for links, and one admin."""


@pytest.fixture
def wecom(client: TestClient[object, object], settings: Settings, clock: FakeClock) -> WeComSide:
    return wecom_side(client, settings, clock)


async def row_counts(engine: AsyncEngine) -> dict[str, int]:
    """Rows per table: the whole database's state, for "changes nothing" checks."""
    async with engine.connect() as conn:
        return {
            name: (await conn.execute(select(func.count()).select_from(table))).scalar_one()
            for name, table in metadata.tables.items()
        }


async def new_user(
    engine: AsyncEngine,
    clock: FakeClock,
    wecom_user_id: str = "zhangsan",
    zone: str = "Asia/Shanghai",
) -> int:
    """Create (or find) a user in a transaction of its own; its id."""
    async with engine.begin() as session:
        user = await ensure_and_lock_user(session, wecom_user_id, timezone=zone, now=clock.now())
    return user.id


async def new_rule(engine: AsyncEngine, clock: FakeClock, user_id: int, **fields: Any) -> int:
    """Create a rule in a transaction of its own (a plain custom one unless `fields`
    say otherwise); its id."""
    values: dict[str, Any] = {
        "kind": "custom",
        "policy": "at_most_once",
        "priority": "normal",
        "channel": "wecom_app",
    }
    async with engine.begin() as session:
        return await rules.create(session, user_id=user_id, now=clock.now(), **(values | fields))


# --- the mini-program API's fixtures (tests/integration/mp_support.py) -------------------
# A module that needs another fake WeChat (one with a subscriber, say) defines its own
# `fake`, which wins over this one.


@pytest.fixture
def fake(clock: FakeClock) -> FakeWeChat:
    """The fake WeChat of one test, on its clock."""
    from tests.integration.mp_support import make_fake

    return make_fake(clock)


@pytest.fixture
async def api(fake: FakeWeChat, clock: FakeClock, engine: AsyncEngine) -> AsyncIterator[Client]:
    """A client of the mini-program API, served over loopback against `engine`."""
    from tests.integration.mp_support import serve_api

    async with serve_api(fake, clock, engine) as (client, _):
        yield client


@pytest.fixture
async def phone(api: Client, fake: FakeWeChat) -> MiniProgram:
    """The mini-program on a phone, logged in."""
    from tests.integration.mp_support import MiniProgram

    phone = MiniProgram(api, fake)
    await phone.login()
    return phone
