"""Backups on real databases: round trips, refusals that write nothing, cross-engine.

Every test seeds a real database (SQLite and MariaDB), backs it up through
`storage.backup`, and looks at the target database's tables and rows afterwards.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.backup import (
    BackupError,
    RestoreRefused,
    Tampered,
    WrongKey,
    make_and_verify,
    make_backup,
    restore_backup,
    verify_backup,
)
from storage.backup.archive import ArchiveWriter, Manifest, Meta
from storage.backup.codec import TableSpec, spec_of
from storage.backup.snapshot import is_file
from storage.delivery_models import RULES
from storage.engine import create_engine
from storage.migrate import current_revision, is_current
from storage.models import USERS
from storage.schema import metadata
from tests.conftest import (
    ENGINES,
    _drop_mysql_database,
    _fresh_mysql_database,
    migrated_sqlite_file,
)
from tests.integration.backup_seed import seed, table_counts

KEY = "a test passphrase, not a real one"
NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)
START = dt.datetime(2026, 1, 1, 1, 0, tzinfo=dt.UTC)


@pytest.fixture
async def seeded(database_url: str, engine: AsyncEngine) -> str:
    """The `database_url` database holding 4 users x 12 days of records."""
    await seed(engine, users=4, days=12, start=START)
    return database_url


async def _new_database(kind: str, tmp_path: Path, name: str) -> str:
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / name}"
    return await _fresh_mysql_database()


@pytest.fixture(params=ENGINES)
async def target_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A brand-new database (no tables at all) on each engine."""
    url = await _new_database(request.param, tmp_path, "target.db")
    yield url
    if request.param != "sqlite":
        await _drop_mysql_database(url)


async def _backup(url: str, path: Path) -> Manifest:
    return await make_backup(url, path, KEY, now=NOW)


def _sums(manifest: Manifest) -> dict[str, tuple[int, str]]:
    return {t.name: (t.rows, t.sha256) for t in manifest.tables}


async def test_a_restored_backup_gives_back_every_table_with_identical_checksums(
    seeded: str, target_url: str, tmp_path: Path
) -> None:
    original = await _backup(seeded, tmp_path / "first.kbak")
    restored = await restore_backup(tmp_path / "first.kbak", target_url, KEY)
    again = await _backup(target_url, tmp_path / "again.kbak")

    assert _sums(again) == _sums(original)
    assert restored.manifest.rows == original.rows == sum((await table_counts(seeded)).values()) - 1
    assert {t.name for t in original.tables if t.rows} >= {
        "users",
        "measurements",
        "ledger_entries",
    }


async def test_a_backup_records_revision_time_and_engine(seeded: str, tmp_path: Path) -> None:
    engine = create_engine(seeded)
    revision = await current_revision(engine)
    await engine.dispose()
    manifest = await _backup(seeded, tmp_path / "b.kbak")
    assert manifest.meta.revision == revision
    assert manifest.meta.created_at == "2026-11-25T02:00:00+00:00"
    assert manifest.meta.engine in ("sqlite", "mysql")


async def test_verify_says_a_good_backup_matches_its_manifest(seeded: str, tmp_path: Path) -> None:
    await _backup(seeded, tmp_path / "b.kbak")
    verification = await verify_backup(tmp_path / "b.kbak", KEY)
    assert verification.ok, verification.differences
    assert verification.manifest.rows == 444  # 4 users x 12 days of the seed


async def test_new_rows_after_a_restore_get_ids_after_the_restored_ones(
    seeded: str, target_url: str, tmp_path: Path
) -> None:
    await _backup(seeded, tmp_path / "b.kbak")
    await restore_backup(tmp_path / "b.kbak", target_url, KEY)
    engine = create_engine(target_url)
    try:
        async with engine.begin() as connection:
            values = {"wecom_user_id": "newcomer", "timezone": "Asia/Shanghai", "created_at": NOW}
            result = await connection.execute(insert(USERS).returning(USERS.c.id), values)
            assert result.scalar_one() == 5  # the seed made users 1-4
    finally:
        await engine.dispose()


@pytest.mark.parametrize("where", ["header", "middle", "last byte"])
async def test_a_flipped_byte_is_refused_and_nothing_is_written(
    seeded: str, target_url: str, tmp_path: Path, where: str
) -> None:
    await _backup(seeded, tmp_path / "b.kbak")
    data = bytearray((tmp_path / "b.kbak").read_bytes())
    at = {"header": 20, "middle": len(data) // 2, "last byte": len(data) - 1}[where]
    data[at] ^= 0x01
    (tmp_path / "bad.kbak").write_bytes(bytes(data))
    migrated_empty = await migrated_sqlite_file(tmp_path / "migrated.db")
    before = {url: await _state(url) for url in (target_url, migrated_empty)}

    for target in (target_url, migrated_empty):
        with pytest.raises((Tampered, WrongKey)):
            await restore_backup(tmp_path / "bad.kbak", target, KEY)
    with pytest.raises((Tampered, WrongKey)):
        await verify_backup(tmp_path / "bad.kbak", KEY)

    assert {url: await _state(url) for url in before} == before


async def _state(url: str) -> dict[str, int] | None:
    """The tables and row counts of `url`; None for a SQLite file that does not exist."""
    if url.startswith("sqlite") and not is_file(url.split("///", 1)[1]):
        return None
    return await table_counts(url)


async def test_a_wrong_key_is_refused_and_nothing_is_written(
    seeded: str, target_url: str, tmp_path: Path
) -> None:
    await _backup(seeded, tmp_path / "b.kbak")
    before = await _state(target_url)

    with pytest.raises(WrongKey) as refused:
        await restore_backup(tmp_path / "b.kbak", target_url, "not the passphrase at all")

    assert "not the passphrase" not in str(refused.value)
    assert KEY not in str(refused.value)
    assert refused.value.written is False
    assert await _state(target_url) == before
    assert before in (None, {})  # a brand-new database stays brand new


async def test_a_target_with_rows_is_refused_and_left_as_it_was(
    seeded: str, tmp_path: Path
) -> None:
    await _backup(seeded, tmp_path / "b.kbak")
    before = await table_counts(seeded)

    with pytest.raises(RestoreRefused, match="not empty") as refused:
        await restore_backup(tmp_path / "b.kbak", seeded, KEY)
    assert refused.value.written is False

    assert await table_counts(seeded) == before


async def test_a_migrated_empty_target_takes_the_backup(seeded: str, tmp_path: Path) -> None:
    await _backup(seeded, tmp_path / "b.kbak")
    target = await migrated_sqlite_file(tmp_path / "migrated.db")
    restored = await restore_backup(tmp_path / "b.kbak", target, KEY)
    counts = await table_counts(target)
    assert {t.name: counts[t.name] for t in restored.manifest.tables} == {
        t.name: t.rows for t in restored.manifest.tables
    }
    assert counts["users"] == 4


async def test_an_existing_file_is_never_overwritten(seeded: str, tmp_path: Path) -> None:
    (tmp_path / "b.kbak").write_bytes(b"precious")
    with pytest.raises(BackupError, match="already exists"):
        await _backup(seeded, tmp_path / "b.kbak")
    assert (tmp_path / "b.kbak").read_bytes() == b"precious"
    assert not (tmp_path / "b.kbak.partial").exists()


@pytest.mark.mariadb
async def test_a_sqlite_backup_moves_to_mariadb_and_back_unchanged(tmp_path: Path) -> None:
    sqlite_url = await migrated_sqlite_file(tmp_path / "migrated.db")
    engine = create_engine(sqlite_url)
    await seed(engine, users=5, days=20, start=START)
    await engine.dispose()
    mariadb_url = await _fresh_mysql_database()
    try:
        from_sqlite = await _backup(sqlite_url, tmp_path / "from-sqlite.kbak")
        await restore_backup(tmp_path / "from-sqlite.kbak", mariadb_url, KEY)
        from_mariadb = await _backup(mariadb_url, tmp_path / "from-mariadb.kbak")
        back = f"sqlite+aiosqlite:///{tmp_path / 'back.db'}"
        await restore_backup(tmp_path / "from-mariadb.kbak", back, KEY)
        round_trip = await _backup(back, tmp_path / "round-trip.kbak")
    finally:
        await _drop_mysql_database(mariadb_url)

    assert (from_sqlite.meta.engine, from_mariadb.meta.engine) == ("sqlite", "mysql")
    assert _sums(from_sqlite) == _sums(from_mariadb) == _sums(round_trip)
    assert from_sqlite.rows == 895  # 5 users x 20 days of the seed


async def test_make_and_verify_reports_a_verified_backup(seeded: str, tmp_path: Path) -> None:
    times = iter([NOW, NOW + dt.timedelta(seconds=3)])
    outcome = await make_and_verify(seeded, tmp_path, KEY, now=lambda: next(times))
    assert outcome.verified, outcome.problem
    assert outcome.path == tmp_path / "keeper-20261125T020000Z.kbak"
    assert (outcome.rows, outcome.problem) == (sum((await table_counts(seeded)).values()) - 1, "")
    assert outcome.finished_at - outcome.started_at == dt.timedelta(seconds=3)
    assert outcome.size_bytes == outcome.path.stat().st_size


async def test_make_and_verify_reports_a_failure_in_words(tmp_path: Path) -> None:
    missing = f"sqlite+aiosqlite:///{tmp_path / 'nowhere.db'}"
    outcome = await make_and_verify(missing, tmp_path, KEY, now=lambda: NOW)
    assert not outcome.verified
    assert outcome.path is None
    assert "no SQLite database file" in outcome.problem


def _older_backup(path: Path) -> None:
    """A backup as keeper at revision 0005 wrote it: reminder_rules had no error_note
    (0006), users no goal_weight (0011)."""
    meta = Meta(revision="0005", keeper="0.0.9", created_at=NOW.isoformat(), engine="sqlite")
    with path.open("wb") as out:
        writer = ArchiveWriter(out, KEY, meta)
        for table in metadata.sorted_tables:
            spec = spec_of(table)
            if later := _LATER_COLUMNS.get(table.name):
                spec = TableSpec(
                    name=spec.name, columns=tuple(c for c in spec.columns if c[0] != later)
                )
            writer.begin_table(spec)
            columns = [name for name, _ in spec.columns]
            writer.add_rows(
                [_older_row(table.name, columns)]
                if table.name in ("users", "reminder_rules")
                else []
            )
        writer.finish()


_LATER_COLUMNS = {"reminder_rules": "error_note", "users": "goal_weight"}


def _older_row(table: str, columns: list[str]) -> list[object]:
    values: dict[str, object] = {
        "id": 1, "user_id": 1, "wecom_user_id": "member1", "timezone": "Asia/Shanghai",
        "created_at": NOW, "updated_at": NOW, "wake_at": dt.time(8), "sleep_at": dt.time(22),
        "water_interval_minutes": 120, "water_goal": 8, "cards": 0, "defaults_version": 1,
        "kind": "custom", "status": "active", "policy": "at_most_once", "priority": "normal",
        "channel": "wecom_app", "spec": "daily 22:00", "label": "吃药",
    }  # fmt: skip
    return [values.get(name) for name in columns]


async def test_an_older_backup_is_restored_at_its_revision_then_migrated_up(
    database_url: str, tmp_path: Path
) -> None:
    _older_backup(tmp_path / "old.kbak")
    fresh = f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}"
    for target in (database_url, fresh):  # migrated to head (goes down first), brand new
        await restore_backup(tmp_path / "old.kbak", target, KEY)
        engine = create_engine(target)
        try:
            assert await is_current(engine)
            async with engine.connect() as connection:
                rule = (await connection.execute(select(RULES))).one()
        finally:
            await engine.dispose()
        assert (rule.label, rule.error_note) == ("吃药", "")
