"""`verify_backup` proves a file restores; `make_and_verify` is the scheduled job's unit.

Verify restores the file into a scratch SQLite database (at the backup's revision,
not migrated further), reads every table back the way a backup reads its source,
and compares counts and checksums with the manifest. So a ✓ means: the key opens
it, no byte changed, and the rows go into a real database and come out the same.
"""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncConnection

from storage.backup.archive import Manifest, TableHasher, TableSum, describe_differences
from storage.backup.codec import TableSpec, encode_row
from storage.backup.errors import BackupError
from storage.backup.make import make_backup
from storage.backup.restore import restore_backup
from storage.backup.snapshot import read_pages
from storage.engine import opened_engine


@dataclass(frozen=True, kw_only=True, slots=True)
class Verification:
    """The manifest and what differs from it (empty: the backup is proven)."""

    manifest: Manifest
    differences: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.differences


async def verify_backup(path: Path, passphrase: str) -> Verification:
    """Restore `path` into a scratch SQLite file and compare it with the manifest.

    Raises:
        BackupError: the file does not open or does not add up (see `restore_backup`).
    """
    with tempfile.TemporaryDirectory(prefix="keeper-verify-") as scratch:
        url = f"sqlite+aiosqlite:///{Path(scratch) / 'verify.db'}"
        restored = await restore_backup(path, url, passphrase, migrate_up=False)
        async with opened_engine(url) as engine, engine.connect() as connection:
            found = [await _sum(connection, spec) for spec in restored.specs]
    differences = describe_differences(restored.manifest.tables, found)
    return Verification(manifest=restored.manifest, differences=tuple(differences))


async def _sum(connection: AsyncConnection, spec: TableSpec) -> TableSum:
    hasher = TableHasher(spec)
    async for page in read_pages(connection, spec):
        for row in page:
            hasher.add(encode_row(hasher.codes, row))
    return hasher.sum()


@dataclass(frozen=True, kw_only=True, slots=True)
class BackupOutcome:
    """What one scheduled backup did: the record to store and show (管理 状态, doctor)."""

    path: Path | None
    started_at: dt.datetime
    finished_at: dt.datetime
    verified: bool
    revision: str
    tables: int
    rows: int
    size_bytes: int
    problem: str  # "" when verified; else one line, safe to show


def backup_name(now: dt.datetime) -> str:
    """The file name of a backup made at `now`: sortable, UTC."""
    return f"keeper-{now.astimezone(dt.UTC):%Y%m%dT%H%M%SZ}.kbak"


async def make_and_verify(
    url: str, directory: Path, passphrase: str, *, now: Callable[[], dt.datetime]
) -> BackupOutcome:
    """Back up `url` into `directory`, verify the file, and say how it went.

    Never raises for a backup problem (it is in `problem`); a file that failed to
    verify is kept for inspection, and reported as not verified.
    """
    started = now()
    path = directory / backup_name(started)
    manifest: Manifest | None = None
    try:
        manifest = await make_backup(url, path, passphrase, now=started)
        verification = await verify_backup(path, passphrase)
        problem = "; ".join(verification.differences)
    except BackupError as exc:
        problem = str(exc)
    return BackupOutcome(
        path=path if path.exists() else None,
        started_at=started,
        finished_at=now(),
        verified=manifest is not None and not problem,
        revision=manifest.meta.revision if manifest else "",
        tables=len(manifest.tables) if manifest else 0,
        rows=manifest.rows if manifest else 0,
        size_bytes=path.stat().st_size if path.exists() else 0,
        problem=problem,
    )
