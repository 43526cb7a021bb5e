"""`keeper export --user USERID --out FILE`: one member's data as the same ZIP the
`导出` link downloads.

Only the database URL is needed (not the WeCom settings). The file is written
next to its final name and then given that name, mode 0600 (it is personal data);
an existing file is never overwritten.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from storage.database import Database
from storage.engine import opened_engine
from storage.export import export_user
from storage.files import place_new
from storage.repos import links


class ExportRefused(Exception):
    """The export was not made; the message is the line to print."""


def check_target(out: Path) -> None:
    if out.exists():
        raise ExportRefused(f"keeper: {out} already exists; choose another file name")


async def read_export(database_url: str, wecom_user_id: str, now: dt.datetime) -> bytes:
    """The member's ZIP, read in one transaction. Raises `ExportRefused` for an
    unknown member."""
    async with opened_engine(database_url) as engine, Database(engine).transaction() as session:
        user_id = await links.user_id_of(session, wecom_user_id)
        if user_id is None:
            raise ExportRefused("keeper: no member with that UserID in this database")
        return await export_user(session, user_id, wecom_user_id, now)


def write_export(out: Path, body: bytes) -> str:
    """Write `body` to `out` (mode 0600, never over an existing file); the line to print.

    Raises `ExportRefused`, never an OSError traceback: a leftover `.part` from an
    interrupted export is named (it may hold personal data, so it is not silently
    reused or removed), and a failed write (no such folder, disk full) removes its own
    partial file and says why.
    """
    check_target(out)
    partial = out.with_name(out.name + ".part")
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise ExportRefused(
            f"keeper: {partial} is left from an interrupted export; delete it and try again"
        ) from None
    except OSError as exc:
        raise ExportRefused(f"keeper: cannot write {partial}: {_reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(body)
        place_new(partial, out)
    except OSError as exc:
        reason = "it already exists" if isinstance(exc, FileExistsError) else _reason(exc)
        raise ExportRefused(f"keeper: cannot write {out}: {reason}") from None
    finally:
        partial.unlink(missing_ok=True)
    return f"keeper: exported to {out} ({len(body)} bytes)"


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__
