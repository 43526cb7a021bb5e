"""Safe commands, as an operator runs them: `migrate` says what it did to which database,
`tick --at` refuses a live database, a broken database is one line and exit 2, and
`--version` answers. Real processes, on SQLite and MariaDB where storage is touched."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from importlib.metadata import version
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from storage.engine import create_engine
from storage.migrate import upgrade
from storage.repos import ticks
from tests.acceptance.processes import keeper_env, run_keeper
from tests.conftest import ENGINES, MigratedSQLite, _drop_mysql_database, _fresh_mysql_database
from tests.mariadb_user import database_of_its_own_user

UNUSED_API = "http://127.0.0.1:9"  # no test here reaches WeCom
DB_PASSWORD = "s3cret-db-pass-0042"


@pytest.fixture(params=ENGINES)
async def empty_database(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[tuple[str, dict[str, str]]]:
    """An empty (unmigrated) database: its URL as configured, and the extra environment.

    On MariaDB it belongs to a user of its own whose password reaches keeper only
    through KEEPER_DATABASE_PASSWORD_FILE, as in deploy/compose.yaml.
    """
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'keeper.db'}", {}
        return
    async with database_of_its_own_user(DB_PASSWORD) as configured:
        (tmp_path / "db_password").write_text(DB_PASSWORD + "\n")
        yield configured, {"KEEPER_DATABASE_PASSWORD_FILE": str(tmp_path / "db_password")}


async def test_migrate_names_the_masked_database_and_what_it_applied_then_already_current(
    empty_database: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    url, extra = empty_database
    env = keeper_env(url, UNUSED_API, **extra)
    code, first, err = await run_keeper(["migrate"], env, cwd=tmp_path)
    assert code == 0, err
    shown = make_url(url).render_as_string(False)
    if extra:  # the password came from the file: shown as *** after the user name
        shown = shown.replace("@", ":***@", 1)
    assert first.startswith(f"keeper: database {shown}: applied 0001, 0002, ")
    code, second, _ = await run_keeper(["migrate"], env, cwd=tmp_path)
    assert code == 0
    assert second.startswith(f"keeper: database {shown}: already current (revision ")
    assert DB_PASSWORD not in first + second + err


BROKEN = {
    "refused": "mysql+aiomysql://keeper:pw-not-shown@127.0.0.1:1/keeper",
    "missing directory": "sqlite+aiosqlite:////nonexistent-dir-of-keeper/keeper.db",
}


def _said(stderr: str) -> list[str]:
    """stderr without log records (timestamped lines; their format is the logger's)."""
    return [line for line in stderr.splitlines() if not re.match(r"\d{4}-\d\d-\d\d", line)]


@pytest.mark.parametrize("command", [["migrate"], ["serve"], ["worker"], ["tick"]])
@pytest.mark.parametrize("case", sorted(BROKEN))
async def test_an_unreachable_database_is_one_line_and_exit_2(
    command: list[str], case: str, tmp_path: Path
) -> None:
    code, out, err = await run_keeper(command, keeper_env(BROKEN[case], UNUSED_API), cwd=tmp_path)
    assert code == 2
    assert out == ""
    assert _said(err) == [_said(err)[0]], err
    assert _said(err)[0].startswith("keeper: database ")
    assert "Traceback" not in err
    assert "pw-not-shown" not in err


@pytest.mark.mariadb
@pytest.mark.parametrize("command", [["migrate"], ["tick"]])
async def test_a_missing_mariadb_database_is_one_line_and_exit_2(
    command: list[str], tmp_path: Path
) -> None:
    url = await _fresh_mysql_database()  # skips (or fails under CI) without MariaDB
    await _drop_mysql_database(url)
    code, _, err = await run_keeper(command, keeper_env(url, UNUSED_API), cwd=tmp_path)
    assert code == 2
    assert len(_said(err)) == 1, err
    assert "1049" in _said(err)[0]  # Unknown database


async def _migrated_with_heartbeat(
    url: str, extra: dict[str, str], worker: str, age: dt.timedelta
) -> None:
    password = DB_PASSWORD if extra else None
    engine = create_engine(make_url(url).set(password=password).render_as_string(False))
    await upgrade(engine)
    async with engine.begin() as session:
        now = dt.datetime.now(dt.UTC)  # the guard reads the real clock, so the test does too
        await ticks.heartbeat(session, worker=worker, at=now - age, duration_ms=5)
    await engine.dispose()


@pytest.mark.parametrize(
    ("worker", "age", "refused"),
    [
        ("keeper-host:4242", dt.timedelta(hours=1), True),
        ("keeper-host:4242", dt.timedelta(hours=25), False),
        ("tick-at:keeper-host:4242", dt.timedelta(minutes=1), False),
    ],
)
async def test_tick_at_refuses_a_database_a_real_scheduler_ticked_within_a_day(
    empty_database: tuple[str, dict[str, str]],
    tmp_path: Path,
    worker: str,
    age: dt.timedelta,
    refused: bool,
) -> None:
    url, extra = empty_database
    await _migrated_with_heartbeat(url, extra, worker, age)
    env = keeper_env(url, UNUSED_API, **extra)
    at = ["tick", "--at", "2026-12-01T08:00+08:00"]
    code, out, err = await run_keeper(at, env, cwd=tmp_path)
    if refused:
        assert code == 2
        assert "refusing `tick --at`: keeper-host:4242 ticked this database" in err
        assert "--force" in err
        assert out == ""
        code, out, err = await run_keeper([*at, "--force"], env, cwd=tmp_path)
    assert code == 0, err
    assert out.startswith("keeper: tick ")


async def test_a_pretend_tick_is_not_taken_for_a_real_one_by_the_next(
    tmp_path: Path, migrated_sqlite: MigratedSQLite
) -> None:
    env = keeper_env(await migrated_sqlite(tmp_path / "keeper.db"), UNUSED_API)
    for day in ("2026-12-01T08:00+08:00", "2026-12-02T08:00+08:00"):
        code, _, err = await run_keeper(["tick", "--at", day], env, cwd=tmp_path)
        assert code == 0, err


async def test_version_prints_the_installed_version() -> None:
    code, out, _ = await run_keeper(["--version"], keeper_env("sqlite+aiosqlite://", UNUSED_API))
    assert code == 0
    assert out.strip() == f"keeper {version('keeper')}"
