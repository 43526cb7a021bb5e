"""Shared fixtures: real databases (SQLite and MariaDB), a fake clock.

MariaDB tests use `KEEPER_TEST_MYSQL_URL` (default: root on 127.0.0.1:3306). Each test
gets a database of its own, migrated from scratch, dropped afterwards. When MariaDB is
unreachable they skip with the reason shown, unless `KEEPER_REQUIRE_MARIADB=1` (as
`.ci/run` sets), in which case they fail: CI must never skip them silently.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import os
import re
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.wecom_side import WeComSide
from bot.settings import Settings
from scheduler.clock import FakeClock
from storage.engine import create_engine
from storage.migrate import upgrade

MYSQL_URL = os.environ.get("KEEPER_TEST_MYSQL_URL", "mysql+aiomysql://root@127.0.0.1:3306/test")
REQUIRE_MARIADB = os.environ.get("KEEPER_REQUIRE_MARIADB") == "1"
ENGINES = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]

TEST_SETTINGS = Settings(
    corp_id="wwtestcorp000001",
    agent_id=1000002,
    secret="test-secret-value-0001",
    token="TestTokenValue123",
    aes_key="jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
    robot_key="test-robot-key-0001",
    wxpusher_app_token="AT_testAppToken0001",
    serverchan_sendkey="SCTtestSendKey0001",
    wecomchan_url="http://127.0.0.1:9/wecomchan?sendkey=test-relay-key-0001",
)
"""The settings every in-process app of the suite runs with."""


@pytest.fixture(scope="session", autouse=True)
def no_secret_in_any_log_line() -> Iterator[None]:
    """Scan everything the code logged during the whole run for the configured secrets
    and for the test members' full UserIDs.

    The handler has no redacting filter on purpose: the code itself must not log them.
    """
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    root = logging.getLogger()
    previous = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield
    root.removeHandler(handler)
    root.setLevel(previous)
    text = stream.getvalue()
    leaked = [name for name, value in _secret_values() if value in text]
    assert not leaked, f"secrets found in log output: {leaked}"
    users = [
        user for user in TEST_USERS if re.search(rf"(?<![A-Za-z0-9_]){user}(?![A-Za-z0-9_])", text)
    ]
    assert not users, f"full UserIDs found in log output: {users}"


TEST_USERS = ("alice", "lisi", "zhangsan", "bob", "boss", "gina", "frank", "erin")
"""The UserIDs the suite's members use: none may appear in a log line (issue 10)."""


def _secret_values() -> list[tuple[str, str]]:
    from bot.sandbox.fake_wecom import ISSUED_TOKENS

    s = TEST_SETTINGS
    configured = [
        ("WECOM_SECRET", s.secret),
        ("WECOM_TOKEN", s.token),
        ("WECOM_AES_KEY", s.aes_key),
        *((f"channel credential {i}", value) for i, value in enumerate(s.channel_secrets())),
    ]
    return configured + [("access_token", token) for token in ISSUED_TOKENS]


async def _server_reachable(url: str) -> str | None:
    """None when we can connect, else the reason (without credentials)."""
    engine = create_engine(url)
    try:
        async with engine.connect():
            return None
    except Exception as exc:
        where = f"{make_url(url).host}:{make_url(url).port}"
        return f"MariaDB at {where} unreachable ({type(exc).__name__})"
    finally:
        await engine.dispose()


async def _fresh_mysql_database() -> str:
    reason = await _server_reachable(MYSQL_URL)
    if reason:
        if REQUIRE_MARIADB:
            pytest.fail(reason + " and KEEPER_REQUIRE_MARIADB=1")
        pytest.skip(reason)
    name = f"keeper_t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(MYSQL_URL)
    async with admin.begin() as conn:
        await conn.exec_driver_sql(f"CREATE DATABASE {name} CHARACTER SET utf8mb4")
    await admin.dispose()
    return make_url(MYSQL_URL).set(database=name).render_as_string(hide_password=False)


async def _drop_mysql_database(url: str) -> None:
    admin = create_engine(MYSQL_URL)
    async with admin.begin() as conn:
        await conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {make_url(url).database}")
    await admin.dispose()


@pytest.fixture(params=ENGINES)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A migrated, empty database URL: SQLite file or a MariaDB database of its own."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'keeper.db'}"
        engine = create_engine(url)
        await upgrade(engine)
        await engine.dispose()
        yield url
        return
    url = await _fresh_mysql_database()
    engine = create_engine(url)
    await upgrade(engine)
    await engine.dispose()
    try:
        yield url
    finally:
        await _drop_mysql_database(url)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(database_url)
    yield engine
    await engine.dispose()


@pytest.fixture
def sessionmaker(engine: AsyncEngine) -> AsyncEngine:
    """What tests open transactions with: `async with sessionmaker.begin() as session`."""
    return engine


@pytest.fixture
def clock() -> FakeClock:
    """Wednesday 2026-11-25 10:00 in Shanghai (02:00 UTC)."""
    return FakeClock(dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC))


def wecom_side(
    client: TestClient[object, object], settings: Settings, clock: FakeClock
) -> WeComSide:
    """WeCom's side of the app `client` serves, on the test's clock and session."""
    return WeComSide(
        str(client.make_url("")).rstrip("/"),
        settings.token,
        settings.aes_key,
        settings.corp_id,
        settings.agent_id,
        clock.now,
        session=client.session,
    )
