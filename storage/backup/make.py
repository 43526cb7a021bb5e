"""`make_backup`: one consistent snapshot of the whole database into a sealed file.

The file is written next to its destination as `NAME.partial` (mode 0600, created
exclusively) and given its name only once it is complete, so a crash or an error
never leaves a file that looks like a backup. The rows of a cache table (`CACHE`:
the access tokens) are left out: the table is there, empty, and keeper fetches a
new token on the first send after a restore. An existing destination is refused
rather than overwritten: checked before the work, and again by the naming itself
(`storage.files.place_new`), so a file that appeared meanwhile survives too.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO

from sqlalchemy.engine import make_url

from storage.backup.archive import ArchiveWriter, Manifest, Meta
from storage.backup.codec import spec_of
from storage.backup.errors import BackupError
from storage.backup.snapshot import (
    AfterTable,
    SourceError,
    consistent_snapshot,
    is_file,
    read_pages,
    schema_revision,
)
from storage.files import place_new
from storage.migrate import head_revision
from storage.models import CACHE
from storage.schema import metadata


async def make_backup(
    url: str,
    out: Path,
    passphrase: str,
    *,
    now: dt.datetime,
    after_table: AfterTable | None = None,
) -> Manifest:
    """Back up every table of `url`'s database into `out`, encrypted with `passphrase`
    (a `CACHE` table's rows left out: no live access token is ever in a backup).

    The database must be at the revision this code knows (its tables are read with
    this code's column types). `now` (aware) is recorded as the backup's time.

    Raises:
        BackupError: the destination exists, the source is missing or not current.
    """
    if now.tzinfo is None:
        raise ValueError("naive datetime given as the backup's time")
    async with consistent_snapshot(url) as connection:
        revision = await schema_revision(connection)
        head = head_revision()
        if revision is None or revision != head:
            raise SourceError(
                f"the database is at revision {revision or '(none)'}, this keeper's is {head}; "
                "run `keeper migrate` first (or back up with the keeper that matches it)"
            )
        meta = Meta(
            revision=revision,
            keeper=keeper_version(),
            created_at=now.astimezone(dt.UTC).isoformat(),
            engine=make_url(url).get_backend_name(),
        )
        async with _partial_file(out) as file:
            writer = ArchiveWriter(file, passphrase, meta)
            for table in metadata.sorted_tables:  # parents before children
                spec = spec_of(table)
                writer.begin_table(spec)
                if not table.info.get(CACHE):  # a live token is refetched, never kept
                    async for page in read_pages(connection, spec):
                        writer.add_rows(page)
                if after_table is not None:
                    await after_table(spec.name)
            return writer.finish()


@asynccontextmanager
async def _partial_file(out: Path) -> AsyncIterator[IO[bytes]]:
    if is_file(str(out)):
        raise BackupError(f"{out} already exists; choose a new file name")
    partial = out.with_name(out.name + ".partial")
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise BackupError(f"cannot create {partial}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        _name(partial, out)
    finally:
        partial.unlink(missing_ok=True)


def _name(partial: Path, out: Path) -> None:
    """`place_new`, its failures told as a `BackupError` (the caller removes `partial`)."""
    try:
        place_new(partial, out)
    except FileExistsError:
        raise BackupError(
            f"{out} appeared while the backup was being made; it was left as it was "
            "and this backup was not kept: run it again with a new file name"
        ) from None
    except OSError as exc:
        raise BackupError(f"cannot write {out}: {exc.strerror or type(exc).__name__}") from None


def keeper_version() -> str:
    """The installed keeper's version, recorded in each backup."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("keeper")
    except PackageNotFoundError:
        return "unknown"
