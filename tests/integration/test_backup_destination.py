"""`keeper backup --out FILE` never replaces a file, even one that appears mid-backup
(issue 20 item 6), on SQLite and MariaDB."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.cli import main
from storage import files
from storage.backup import BackupError, make_backup, verify_backup
from storage.backup.snapshot import AfterTable
from tests.integration.backup_seed import seed

KEY = "a test passphrase, not a real one"
NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)
START = dt.datetime(2026, 1, 1, 1, 0, tzinfo=dt.UTC)


@pytest.fixture
async def seeded(database_url: str, engine: AsyncEngine) -> str:
    await seed(engine, users=2, days=3, start=START)
    return database_url


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Where the backups go (the SQLite database lives in `tmp_path` itself)."""
    (tmp_path / "backups").mkdir()
    return tmp_path / "backups"


def appears_after_first_table(out: Path) -> AfterTable:
    """An `after_table` hook: someone writes `out` while the backup is under way."""

    async def hook(table: str) -> None:
        someone_writes(out)

    return hook


def someone_writes(out: Path) -> None:
    if not out.exists():
        out.write_bytes(b"precious")


def files_in(folder: Path) -> list[Path]:
    return sorted(folder.iterdir())


async def test_a_file_that_appears_during_the_backup_is_kept_and_the_backup_refused(
    seeded: str, folder: Path
) -> None:
    out = folder / "b.kbak"
    with pytest.raises(BackupError, match="appeared while the backup was being made"):
        await make_backup(seeded, out, KEY, now=NOW, after_table=appears_after_first_table(out))
    assert out.read_bytes() == b"precious"
    assert files_in(folder) == [out]  # no .partial left behind


async def test_without_hard_links_a_file_that_appeared_is_still_kept(
    seeded: str, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vfat stick or an SMB mount refuses os.link: the rename is checked first."""

    def no_links(src: object, dst: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(files.os, "link", no_links)
    out = folder / "b.kbak"
    with pytest.raises(BackupError, match="appeared while"):
        await make_backup(seeded, out, KEY, now=NOW, after_table=appears_after_first_table(out))
    assert out.read_bytes() == b"precious"
    assert files_in(folder) == [out]
    other = folder / "c.kbak"
    await make_backup(seeded, other, KEY, now=NOW)
    assert (await verify_backup(other, KEY)).ok


async def test_the_backup_command_fails_clearly_when_the_file_appeared(
    seeded: str, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = folder / "b.kbak"
    real = files.place_new

    def someone_writes_first(partial: Path, target: Path) -> None:
        someone_writes(target)
        real(partial, target)

    monkeypatch.setattr("storage.backup.make.place_new", someone_writes_first)
    monkeypatch.chdir(folder.parent)  # no .env of the developer's
    monkeypatch.setenv("KEEPER_DATABASE_URL", seeded)
    monkeypatch.setenv("KEEPER_BACKUP_KEY", KEY)
    code = await asyncio.to_thread(main, ["backup", "--out", str(out)])
    assert code == 1
    error = capsys.readouterr().err
    assert error.startswith(f"keeper: {out} appeared while the backup was being made")
    assert "Traceback" not in error
    assert out.read_bytes() == b"precious"
    assert files_in(folder) == [out]
