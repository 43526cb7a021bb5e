"""Shared fixtures: real databases (SQLite and MariaDB), a fake clock.

MariaDB tests use `KEEPER_TEST_MYSQL_URL` (default: root on 127.0.0.1:3306). When
MariaDB is unreachable they skip with the reason shown, unless `KEEPER_REQUIRE_MARIADB=1`
(as `.ci/run` sets), in which case they fail: CI must never skip them silently.

Every test that asks for `database_url` gets a database in exactly the state the real
Alembic migrations leave a new one in, without paying for the migrations each time:

- SQLite: the migrations run once per session (per xdist worker) into a template
  file; each test gets a byte-for-byte copy of it in its own tmp_path.
- MariaDB: the migrations run once per session (per xdist worker) into a database of
  that session's own. Before each test it is checked against what the migrations
  built and brought back to it: every table whose rows, definition or AUTO_INCREMENT
  counter differs is truncated, and then each table's `SHOW CREATE TABLE` (columns,
  keys, foreign keys, counter) must equal the one recorded right after the migrations,
  the table set must be the same and `alembic_version` must hold the head. Anything
  else (a test changed the schema, a lock kept the truncation from finishing, or the
  migrations themselves wrote rows) and the test gets a new database migrated from
  scratch instead.

Tests marked `migrated_per_test` (the migration tests) get a database migrated from
scratch for themselves, as every test used to.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import os
import re
import shutil
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pymysql
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import keys
from bot.app import create_app
from bot.sandbox.wecom_side import WeComSide
from bot.settings import (
    ChannelSettings,
    DataSettings,
    MiniProgramSettings,
    Settings,
    WebSettings,
    WeComSettings,
)
from scheduler.clock import FakeClock
from scheduler.core.user_ids import KNOWN
from storage.engine import create_engine
from storage.migrate import upgrade

MYSQL_URL = os.environ.get("KEEPER_TEST_MYSQL_URL", "mysql+aiomysql://root@127.0.0.1:3306/test")
REQUIRE_MARIADB = os.environ.get("KEEPER_REQUIRE_MARIADB") == "1"
ENGINES = ["sqlite", pytest.param("mariadb", marks=pytest.mark.mariadb)]

# Hypothesis' per-example deadline (200 ms) and its too-slow health check time the
# machine, not the code: on a loaded CI machine an ordinary example of the key-mask
# property once took 289 ms and failed. No property here is about speed; each test is
# still bounded by pytest-timeout.
hypothesis.settings.register_profile(
    "keeper", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow]
)
hypothesis.settings.load_profile("keeper")

TEST_SETTINGS = Settings(
    web=WebSettings(secret="test-web-signing-key-0001-0123456789abcdef"),
    data=DataSettings(key="test-data-key-0001-0123456789abcdefABCDEF"),
    wecom=WeComSettings(
        corp_id="wwtestcorp000001",
        agent_id=1000002,
        secret="test-secret-value-0001",
        token="TestTokenValue123",
        aes_key="jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
    ),
    channels=ChannelSettings(
        robot_key="test-robot-key-0001",
        wxpusher_app_token="AT_testAppToken0001",
        serverchan_sendkey="SCTtestSendKey0001",
        wecomchan_url="http://127.0.0.1:9/wecomchan?sendkey=test-relay-key-0001",
    ),
    mp=MiniProgramSettings(
        appid="wx0123456789abcdef",
        secret="5ec7e7000000000000000000000000a1",
        template_id="tmpl-water-0001",
        api_base="http://127.0.0.1:9",
    ),
)
"""The settings every in-process app of the suite runs with."""

USER_SENDKEY = "SCT20261130TuserBoundKey0001xy"
"""The Server酱 SendKey a test member binds (`绑定 Server酱`): a secret like the
configured ones, so the log scan below looks for it too."""


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


@pytest.fixture(autouse=True)
def known_user_ids_forgotten() -> Iterator[None]:
    """The process's known UserIDs (`scheduler.core.user_ids.KNOWN`) start empty in every
    test: one test's members are not masked in the next one's texts."""
    KNOWN.clear()
    yield
    KNOWN.clear()


TEST_USERS = ("alice", "lisi", "zhangsan", "bob", "boss", "gina", "frank", "erin")
"""The UserIDs the suite's members use: none may appear in a log line (issue 10)."""


def _secret_values() -> list[tuple[str, str]]:
    from bot.sandbox.fake_wechat import ISSUED_TOKENS as MP_TOKENS
    from bot.sandbox.fake_wecom import ISSUED_TOKENS

    s = TEST_SETTINGS
    configured = [
        ("KEEPER_WEB_SECRET", s.web.secret),
        ("KEEPER_DATA_KEY", s.data.key),
        ("WECOM_SECRET", s.wecom.secret),
        ("WECOM_TOKEN", s.wecom.token),
        ("WECOM_AES_KEY", s.wecom.aes_key),
        ("KEEPER_MP_SECRET", s.mp.secret),
        *((f"channel credential {i}", value) for i, value in enumerate(s.channels.secrets())),
        ("a bound SendKey", USER_SENDKEY),
    ]
    issued = [("access_token", token) for token in ISSUED_TOKENS]
    return configured + issued + [("mp access_token", token) for token in MP_TOKENS]


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


async def _migrated_mysql_database() -> str:
    """A new MariaDB database, brought to head by the real migrations; its URL."""
    url = await _fresh_mysql_database()
    engine = create_engine(url)
    await upgrade(engine)
    await engine.dispose()
    return url


class _SessionMariaDB:
    """This session's (this xdist worker's) MariaDB database, migrated once and reset to
    that migrated state before each test (see the module docstring)."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.abandoned: list[str] = []
        self._admin: pymysql.connections.Connection[Any] | None = None
        self._definitions: dict[str, str] = {}  # table -> SHOW CREATE TABLE, as migrated
        self._head: list[tuple[Any, ...]] = []  # alembic_version's rows, as migrated
        self._seeded: set[str] = set()  # tables the migrations wrote rows into

    async def for_next_test(self) -> str:
        """The URL, with the database in its just-migrated state."""
        if self.url is not None and self._reset():
            return self.url
        if self.url is not None:
            self._drop(self.url)
        self.url = await _migrated_mysql_database()
        self._record()
        return self.url

    def close(self) -> None:
        names = [make_url(url).database for url in [*self.abandoned, self.url] if url]
        if names:
            with self._connect().cursor() as cursor:
                for name in names:
                    cursor.execute(f"DROP DATABASE IF EXISTS `{name}`")
        self._disconnect()

    def _drop(self, url: str) -> None:
        """Drop a database no longer used (at the end, if a lock keeps it now)."""
        try:
            with self._connect().cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS `{make_url(url).database}`")
        except pymysql.MySQLError:
            self._disconnect()
            self.abandoned.append(url)

    def _disconnect(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None

    def _connect(self) -> pymysql.connections.Connection[Any]:
        if self._admin is None:
            url = make_url(MYSQL_URL)
            self._admin = pymysql.connect(
                host=url.host or "127.0.0.1",
                port=url.port or 3306,
                user=url.username or "root",
                password=url.password or "",
                autocommit=True,
                charset="utf8mb4",
            )
            with self._admin.cursor() as cursor:
                # Bounded waits: a test that left a transaction open gets a new database.
                cursor.execute("SET SESSION lock_wait_timeout = 5")
                cursor.execute("SET SESSION innodb_lock_wait_timeout = 5")
        return self._admin

    def _snapshot(self) -> tuple[dict[str, str], set[str], list[tuple[Any, ...]]]:
        """Each table's definition, the tables holding rows, and alembic_version's rows."""
        assert self.url is not None
        admin = self._connect()
        with admin.cursor() as cursor:
            cursor.execute(f"USE `{make_url(self.url).database}`")
            cursor.execute("SHOW FULL TABLES")
            names = sorted(str(row[0]) for row in cursor.fetchall())
            definitions = {}
            for name in names:
                cursor.execute(f"SHOW CREATE TABLE `{name}`")
                definitions[name] = str(cursor.fetchone()[1])
            others = [name for name in names if name != "alembic_version"]
            cursor.execute(
                " UNION ALL ".join(f"(SELECT '{name}' FROM `{name}` LIMIT 1)" for name in others)
            )
            holding = {str(row[0]) for row in cursor.fetchall()}
            head: list[tuple[Any, ...]] = []
            if "alembic_version" in definitions:
                cursor.execute("SELECT * FROM alembic_version ORDER BY 1")
                head = list(cursor.fetchall())
        return definitions, holding, head

    def _record(self) -> None:
        definitions, holding, head = self._snapshot()
        assert head, "a just-migrated database has no alembic_version"
        self._definitions, self._head, self._seeded = definitions, head, holding

    def _reset(self) -> bool:
        """Bring the database back to its migrated state; False when that cannot be."""
        if self._seeded:  # the migrations wrote rows: truncating would lose them
            return False
        try:
            definitions, holding, head = self._snapshot()
            if set(definitions) != set(self._definitions) or head != self._head:
                return False
            changed = {name for name, ddl in definitions.items() if ddl != self._definitions[name]}
            dirty = sorted(holding | changed)
            if dirty:
                with self._connect().cursor() as cursor:
                    cursor.execute("SET SESSION foreign_key_checks = 0")
                    try:
                        for name in dirty:
                            cursor.execute(f"TRUNCATE TABLE `{name}`")
                    finally:
                        cursor.execute("SET SESSION foreign_key_checks = 1")
                definitions, holding, head = self._snapshot()
            return (definitions, holding, head) == (self._definitions, set(), self._head)
        except pymysql.MySQLError:
            self._disconnect()
            return False


@pytest.fixture(scope="session")
def _session_mariadb() -> Iterator[_SessionMariaDB]:
    database = _SessionMariaDB()
    yield database
    database.close()


class _SessionSQLite:
    """This session's (this xdist worker's) SQLite file, migrated once, to copy from."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.migrated = False

    async def copy_to(self, path: Path) -> None:
        if not self.migrated:
            await migrated_sqlite_file(self.path)
            self._check_closed_cleanly()
            self.migrated = True
        shutil.copyfile(self.path, path)

    def _check_closed_cleanly(self) -> None:
        """Everything is in the one file: no -wal or -shm beside it."""
        assert [p.name for p in self.path.parent.iterdir()] == [self.path.name]


@pytest.fixture(scope="session")
def _session_sqlite(tmp_path_factory: pytest.TempPathFactory) -> _SessionSQLite:
    return _SessionSQLite(tmp_path_factory.mktemp("sqlite-template") / "keeper.db")


MigratedSQLite = Callable[[Path], Awaitable[str]]
"""The `migrated_sqlite` fixture's type."""


@pytest.fixture
def migrated_sqlite(_session_sqlite: _SessionSQLite) -> MigratedSQLite:
    """`await migrated_sqlite(path)`: a migrated, empty SQLite file at `path`, its URL.

    A copy of this session's migrated template, as `database_url` gives, for tests that
    need the file itself (a `keeper` process opens it by name). `migrated_sqlite_file`
    runs the migrations for that one file instead."""

    async def copy(path: Path) -> str:
        await _session_sqlite.copy_to(path)
        return f"sqlite+aiosqlite:///{path}"

    return copy


async def migrated_sqlite_file(path: Path) -> str:
    """A new SQLite database file at `path`, migrated to the head; its URL."""
    url = f"sqlite+aiosqlite:///{path}"
    engine = create_engine(url)
    await upgrade(engine)
    await engine.dispose()
    return url


@pytest.fixture(params=ENGINES)
async def database_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    _session_sqlite: _SessionSQLite,
    _session_mariadb: _SessionMariaDB,
) -> AsyncIterator[str]:
    """A migrated, empty database URL: a SQLite file or a MariaDB database, in the
    state the migrations leave a new one in (see the module docstring)."""
    from_scratch = request.node.get_closest_marker("migrated_per_test") is not None
    if request.param == "sqlite":
        path = tmp_path / "keeper.db"
        if from_scratch:
            await migrated_sqlite_file(path)
        else:
            await _session_sqlite.copy_to(path)
        yield f"sqlite+aiosqlite:///{path}"
        return
    if from_scratch:
        url = await _migrated_mysql_database()
        try:
            yield url
        finally:
            await _drop_mysql_database(url)
        return
    yield await _session_mariadb.for_next_test()


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


TEST_REPLY_DEADLINE_S = 30.0
"""The callback's reply deadline in the suite's in-process apps (`create_test_app`),
and how long their WeCom side waits (`wecom_side`). The app's own is 3 s and WeCom's
5 s: on a loaded CI machine an ordinary message once took longer than 3 s and the test
got the "storage too slow" answer instead of the one it checks. The deadline itself
is tested at its real value (tests/integration/test_database_stall.py, its own app
and WeCom side); pytest-timeout still bounds every test."""


def create_test_app(settings: Settings, **options: Any) -> web.Application:
    """`bot.app.create_app(settings, **options)` with the reply deadline at
    TEST_REPLY_DEADLINE_S, for tests that are not about the deadline."""
    app = create_app(settings, **options)
    app[keys.REPLY_DEADLINE_S] = TEST_REPLY_DEADLINE_S
    return app


def wecom_side(
    client: TestClient[object, object], settings: Settings, clock: FakeClock
) -> WeComSide:
    """WeCom's side of the app `client` serves, on the test's clock and session; it
    waits TEST_REPLY_DEADLINE_S and a little more for each answer."""
    return WeComSide(
        str(client.make_url("")).rstrip("/"),
        settings.wecom.token,
        settings.wecom.aes_key,
        settings.wecom.corp_id,
        settings.wecom.agent_id,
        clock.now,
        session=client.session,
        timeout_s=TEST_REPLY_DEADLINE_S + 5,
    )
