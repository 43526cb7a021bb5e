"""Keep the newest N scheduled backups in their directory; never touch other files.

Only names `make_and_verify` writes (`keeper-YYYYMMDDTHHMMSSZ.kbak`, sortable by
time) are candidates: a `.partial`, a copy renamed by hand or any other file stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

BACKUP_NAME = re.compile(r"keeper-\d{8}T\d{6}Z\.kbak")


def beyond(names: Iterable[str], keep: int, protect: str) -> list[str]:
    """The backup names to delete so that `keep` remain: the oldest ones, never
    `protect` (the newest verified backup) and never a name that is not a backup's."""
    ours = sorted((n for n in names if BACKUP_NAME.fullmatch(n)), reverse=True)
    kept = {protect, *ours[: max(keep, 1)]}
    return sorted(n for n in ours if n not in kept)


def prune(directory: Path, keep: int, protect: str) -> list[str]:
    """Delete the backups `beyond` names in `directory`; the names deleted."""
    gone = beyond((p.name for p in directory.iterdir() if p.is_file()), keep, protect)
    for name in gone:
        (directory / name).unlink(missing_ok=True)
    return gone
