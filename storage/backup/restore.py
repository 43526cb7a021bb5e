"""`restore_backup`: a backup file into an empty database, on either engine.

Order, so that a refusal writes nothing at all:
1. the target is checked, read-only: every table must be empty (a brand-new
   database, or one that was only migrated, is fine; a missing SQLite file is not
   even created yet);
2. the whole file is read once: every chunk authenticated, every table's count and
   checksum recomputed against the manifest; a wrong key or a flipped byte stops
   here;
3. only then: the schema is brought to the backup's revision (Alembic, up or, on the
   still-empty database, down), the rows are inserted in dependency order in one
   transaction (multi-row INSERTs of `BATCH_ROWS`), and the file is checked again
   while inserting: should it change in between, the transaction rolls back;
4. the database is migrated up to this code's newest revision.

Ids are inserted as they were; the engines then number new rows after them (SQLite
takes max(rowid) + 1, InnoDB moves AUTO_INCREMENT past explicit ids), which the
tests check by inserting after a restore.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO

from sqlalchemy import insert, inspect, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.backup.archive import Manifest, Rows, check_archive, read_archive
from storage.backup.codec import TableSpec, decode_row
from storage.backup.errors import BackupError
from storage.backup.snapshot import is_file
from storage.engine import opened_engine
from storage.migrate import VERSION_TABLE, alembic_config, current_revision, upgrade


class RestoreRefused(BackupError):
    """The target database is not one a backup may be restored into."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Restored:
    manifest: Manifest
    specs: tuple[TableSpec, ...]


async def restore_backup(
    path: Path, url: str, passphrase: str, *, migrate_up: bool = True
) -> Restored:
    """Restore the backup at `path` into the empty database at `url`.

    With `migrate_up=False` the database is left at the backup's revision (verify
    reads it back that way).

    Raises:
        RestoreRefused: the target holds rows, or a revision this code cannot reach.
        WrongKey, Tampered: the file does not open or does not add up; nothing written.
    """
    with _open(path) as source:
        try:  # everything before the first write
            current = await _check_target(url)
            manifest = check_archive(source, passphrase)
            history = _known(manifest.meta.revision, current)
        except BackupError as exc:
            exc.written = False
            raise
        try:
            async with opened_engine(url) as engine:
                await _schema_at(engine, current, manifest.meta.revision, history)
                source.seek(0)
                specs = await _insert_all(engine, source, passphrase)
                if migrate_up:
                    await upgrade(engine)
        except BackupError as exc:  # the file changed since the first pass
            failed = type(exc)(
                f"{exc}; the rows were rolled back and the database holds keeper's empty "
                "schema (a restore may be run into it again)"
            )
            failed.written = True
            raise failed from None
    return Restored(manifest=manifest, specs=specs)


def _known(revision: str, current: str | None) -> list[str]:
    history = _history()
    if revision not in history:
        raise RestoreRefused(
            f"the backup is at revision {revision}, unknown to this keeper "
            "(made by a newer one?); restore it with that version"
        )
    if current is not None and current not in history:
        raise RestoreRefused(
            f"the target database is at revision {current}, unknown to this keeper"
        )
    return history


def _open(path: Path) -> IO[bytes]:
    try:
        return path.open("rb")
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror}") from None


async def _check_target(url: str) -> str | None:
    """The target's revision (None: unversioned), after making sure it holds no rows."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and not is_file(parsed.database):
        return None  # a brand-new file: restore creates it, after the checks
    async with opened_engine(url) as engine:
        async with engine.connect() as connection:
            filled = await connection.run_sync(_tables_with_rows)
        current = await current_revision(engine)
    if filled:
        raise RestoreRefused(
            f"the target database is not empty ({', '.join(filled[:5])} hold rows); "
            "restore only into a new or freshly migrated database"
        )
    return current


def _tables_with_rows(connection: Connection) -> list[str]:
    names = [n for n in inspect(connection).get_table_names() if n != VERSION_TABLE]
    quote = connection.dialect.identifier_preparer.quote
    return [
        name
        for name in sorted(names)
        if connection.execute(text(f"SELECT 1 FROM {quote(name)} LIMIT 1")).first() is not None
    ]


def _history() -> list[str]:
    """Every revision this code knows, oldest first (keeper's history is linear)."""
    from alembic.script import ScriptDirectory  # only a restore needs Alembic loaded

    script = ScriptDirectory.from_config(alembic_config())
    return [revision.revision for revision in reversed(list(script.walk_revisions()))]


async def _schema_at(
    engine: AsyncEngine, current: str | None, revision: str, history: list[str]
) -> None:
    if current == revision:
        return
    if current is None or history.index(current) < history.index(revision):
        await upgrade(engine, revision)
        return

    from alembic import command

    def _down(connection: Connection) -> None:  # the target is empty: nothing to lose
        command.downgrade(alembic_config(connection), revision)

    async with engine.begin() as connection:
        await connection.run_sync(_down)


async def _insert_all(
    engine: AsyncEngine, source: IO[bytes], passphrase: str
) -> tuple[TableSpec, ...]:
    specs: list[TableSpec] = []
    async with engine.begin() as connection:
        statements = {}
        for item in read_archive(source, passphrase):
            if isinstance(item, TableSpec):
                specs.append(item)
                statements[item.name] = insert(item.table())
            elif isinstance(item, Rows):
                rows = [decode_row(item.spec, values) for values in item.values]
                await connection.execute(statements[item.spec.name], rows)
    return tuple(specs)
