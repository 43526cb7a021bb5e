"""`keeper backup` / `keeper restore` as an operator runs them: real processes and files.

The operator's path when keeper outgrows one machine: back up the SQLite file,
verify the backup, restore it into a fresh MariaDB database; every record comes back.
One flipped byte and both verify and restore refuse, and nothing is written.

The laptop's database is migrated and seeded once per module (per xdist worker) and
each test gets a copy of the file; the tests about restoring take a copy of one
backup of it, made once by a real `keeper backup` (the first test makes its own and
checks what that run says).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.engine import create_engine
from storage.migrate import upgrade
from storage.schema import metadata
from tests.acceptance.processes import run_keeper
from tests.conftest import _drop_mysql_database, _fresh_mysql_database
from tests.integration.backup_seed import seed

KEY = "an operator's passphrase 0001"
START = dt.datetime(2026, 1, 1, 1, 0, tzinfo=dt.UTC)


def _env(database_url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KEEPER_", "WECOM_"))}
    env.update({"KEEPER_DATABASE_URL": database_url, "KEEPER_BACKUP_KEY": KEY, **extra})
    return env


class _Laptop:
    """This module's (this xdist worker's) laptop database and one backup of it, each
    made once, to copy from."""

    def __init__(self, folder: Path) -> None:
        self.database = folder / "keeper.db"
        self.backup = folder / "keeper.kbak"
        self._seeded = False
        self._backed_up = False

    def url(self) -> str:
        return f"sqlite+aiosqlite:///{self.database}"

    async def copy_database_to(self, path: Path) -> None:
        if not self._seeded:
            engine = create_engine(self.url())
            await upgrade(engine)
            await seed(engine, users=6, days=30, start=START)
            await engine.dispose()
            self._seeded = True
        shutil.copyfile(self.database, path)

    async def copy_backup_to(self, path: Path) -> None:
        if not self._backed_up:
            assert self._seeded
            args = ["backup", "--out", str(self.backup)]
            code, _, err = await run_keeper(args, _env(self.url()), cwd=self.backup.parent)
            assert code == 0, err
            self._backed_up = True
        shutil.copy(self.backup, path)  # its mode too, as the operator has it


@pytest.fixture(scope="module")
def _laptop(tmp_path_factory: pytest.TempPathFactory) -> _Laptop:
    return _Laptop(tmp_path_factory.mktemp("laptop"))


@pytest.fixture
async def laptop(tmp_path: Path, _laptop: _Laptop) -> str:
    """A SQLite keeper database with 6 users' month of records (1602 rows)."""
    await _laptop.copy_database_to(tmp_path / "keeper.db")
    return f"sqlite+aiosqlite:///{tmp_path / 'keeper.db'}"


@pytest.fixture
async def backup(laptop: str, tmp_path: Path, _laptop: _Laptop) -> Path:
    """A `keeper backup` of `laptop`'s records (made by a real process), in tmp_path."""
    path = tmp_path / "keeper.kbak"
    await _laptop.copy_backup_to(path)
    return path


@pytest.fixture
async def fresh_mariadb() -> AsyncIterator[str]:
    url = await _fresh_mysql_database()
    yield url
    await _drop_mysql_database(url)


async def _every_record(url: str) -> dict[str, list[tuple[Any, ...]]]:
    engine: AsyncEngine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return {
                table.name: [
                    tuple(row)
                    for row in await connection.execute(select(table).order_by(table.c.id))
                ]
                for table in metadata.sorted_tables
            }
    finally:
        await engine.dispose()


@pytest.mark.mariadb
async def test_backup_verify_and_restore_into_mariadb_give_back_every_record(
    laptop: str, fresh_mariadb: str, tmp_path: Path
) -> None:
    backup = tmp_path / "keeper.kbak"
    code, out, err = await run_keeper(["backup", "--out", str(backup)], _env(laptop), cwd=tmp_path)
    assert (code, err) == (0, "")
    assert "backed up" in out
    assert "1602 rows" in out

    code, out, err = await run_keeper(
        ["backup", "--verify", str(backup)], _env(laptop), cwd=tmp_path
    )
    assert (code, err) == (0, "")
    assert out.startswith(f"✓ {backup}: revision ")

    code, out, err = await run_keeper(
        ["restore", str(backup), "--database-url", fresh_mariadb], _env(laptop), cwd=tmp_path
    )
    assert (code, err) == (0, "")
    assert "restored" in out
    assert "1602 rows" in out

    assert await _every_record(fresh_mariadb) == await _every_record(laptop)
    for printed in (out, err):
        assert KEY not in printed


@pytest.mark.mariadb
async def test_one_flipped_byte_makes_verify_and_restore_refuse(
    laptop: str, backup: Path, fresh_mariadb: str, tmp_path: Path
) -> None:
    _flip_one_byte(backup)

    code, out, _ = await run_keeper(["backup", "--verify", str(backup)], _env(laptop), cwd=tmp_path)
    assert code == 1
    assert out.startswith(f"✗ {backup}: the backup file was altered or damaged")

    code, out, err = await run_keeper(
        ["restore", str(backup), "--database-url", fresh_mariadb], _env(laptop), cwd=tmp_path
    )
    assert (code, out) == (1, "")
    assert err.startswith("keeper: the backup file was altered or damaged")
    assert err.strip().endswith("nothing was written")
    assert "Traceback" not in err
    assert await _table_names(fresh_mariadb) == []  # not even the schema was created


def _flip_one_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x04
    path.write_bytes(bytes(data))


async def test_a_wrong_key_is_one_line_without_the_key(
    laptop: str, backup: Path, tmp_path: Path
) -> None:
    wrong = _env(laptop, KEEPER_BACKUP_KEY="someone else's passphrase")
    target = f"sqlite+aiosqlite:///{tmp_path / 'new.db'}"

    code, out, err = await run_keeper(
        ["restore", str(backup), "--database-url", target], wrong, cwd=tmp_path
    )

    assert (code, out) == (1, "")
    assert err.count("\n") == 1
    assert err.startswith("keeper: wrong backup key")
    assert "someone else" not in err
    assert KEY not in err
    assert not (tmp_path / "new.db").exists()


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (
            None,
            "keeper: KEEPER_BACKUP_KEY is not set; expected a passphrase of at least 16 characters",
        ),
        (
            "short one",
            "keeper: KEEPER_BACKUP_KEY is too short; expected a passphrase of at least 16",
        ),
        (" padded passphrase 123 ", "keeper: KEEPER_BACKUP_KEY is malformed"),
    ],
)
async def test_a_missing_or_weak_key_exits_2_naming_it(
    laptop: str, tmp_path: Path, key: str | None, message: str
) -> None:
    env = _env(laptop)
    if key is None:
        del env["KEEPER_BACKUP_KEY"]
    else:
        env["KEEPER_BACKUP_KEY"] = key
    code, out, err = await run_keeper(
        ["backup", "--out", str(tmp_path / "b.kbak")], env, cwd=tmp_path
    )
    assert (code, out) == (2, "")
    assert err.startswith(message)
    if key:
        assert key.strip() not in err
    assert not (tmp_path / "b.kbak").exists()


async def test_restore_into_a_database_with_records_is_refused(
    laptop: str, backup: Path, tmp_path: Path
) -> None:
    before = await _every_record(laptop)

    code, _, err = await run_keeper(
        ["restore", str(backup), "--database-url", laptop], _env(laptop), cwd=tmp_path
    )

    assert code == 1
    assert err.startswith("keeper: the target database is not empty")
    assert await _every_record(laptop) == before


async def test_restore_defaults_to_keeper_database_url(
    laptop: str, backup: Path, tmp_path: Path
) -> None:
    """After losing the server, the operator restores into the database the settings
    name, with no URL (and so no password) on the command line."""
    target = f"sqlite+aiosqlite:///{tmp_path / 'new.db'}"

    code, out, err = await run_keeper(["restore", str(backup)], _env(target), cwd=tmp_path)

    assert (code, err) == (0, "")
    assert "1602 rows" in out
    assert await _every_record(target) == await _every_record(laptop)


async def test_restore_without_a_target_named_refuses_instead_of_making_keeper_db(
    laptop: str, backup: Path, tmp_path: Path
) -> None:
    unnamed = {k: v for k, v in _env(laptop).items() if k != "KEEPER_DATABASE_URL"}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    code, _, err = await run_keeper(["restore", str(backup)], unnamed, cwd=elsewhere)

    assert code == 2
    assert "set KEEPER_DATABASE_URL or pass --database-url" in err
    assert list(elsewhere.iterdir()) == []

    code, _, err = await run_keeper(
        ["restore", str(backup), "--password-file", str(backup)], _env(laptop), cwd=elsewhere
    )
    assert code == 2
    assert "--password-file is for MariaDB/MySQL" in err


@pytest.mark.mariadb
async def test_restore_reads_the_password_from_a_file_and_never_prints_it(
    laptop: str, backup: Path, fresh_mariadb: str, tmp_path: Path
) -> None:
    secret = tmp_path / "db_password"
    secret.write_text("not-roots-password-7f3\n")

    code, out, err = await run_keeper(
        ["restore", str(backup), "--database-url", fresh_mariadb, "--password-file", str(secret)],
        _env(laptop),
        cwd=tmp_path,
    )

    assert code == 2  # root has no password here: the file's one is refused
    assert "not-roots-password-7f3" not in out + err
    assert await _table_names(fresh_mariadb) == []  # nothing was written
    code, _, err = await run_keeper(
        ["restore", str(backup), "--password-file", str(tmp_path / "missing")],
        _env(fresh_mariadb),
        cwd=tmp_path,
    )
    assert code == 2
    assert "--password-file cannot be read" in err


async def _table_names(url: str) -> list[str]:
    engine: AsyncEngine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return [row[0] for row in await connection.execute(text("SHOW TABLES"))]
    finally:
        await engine.dispose()
