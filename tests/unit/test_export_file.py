"""`keeper export`'s file handling: never over a file, never a traceback, no leftovers."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from bot.export_command import ExportRefused, write_export


def test_writes_the_file_mode_0600_and_leaves_no_part(tmp_path: Path) -> None:
    out = tmp_path / "me.zip"
    line = write_export(out, b"zip")
    assert line == f"keeper: exported to {out} (3 bytes)"
    assert out.read_bytes() == b"zip"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert list(tmp_path.iterdir()) == [out]


def test_a_leftover_part_is_named_and_kept(tmp_path: Path) -> None:
    out = tmp_path / "me.zip"
    leftover = tmp_path / "me.zip.part"
    leftover.write_bytes(b"old")
    with pytest.raises(ExportRefused, match="interrupted export; delete it"):
        write_export(out, b"zip")
    assert leftover.read_bytes() == b"old"
    assert not out.exists()


def test_a_missing_folder_is_a_clear_refusal(tmp_path: Path) -> None:
    with pytest.raises(ExportRefused, match=r"cannot write .*No such file or directory"):
        write_export(tmp_path / "nowhere" / "me.zip", b"zip")


def test_an_existing_file_is_never_overwritten(tmp_path: Path) -> None:
    out = tmp_path / "me.zip"
    out.write_bytes(b"mine")
    with pytest.raises(ExportRefused, match="already exists"):
        write_export(out, b"zip")
    assert out.read_bytes() == b"mine"
    assert list(tmp_path.iterdir()) == [out]


def test_without_hard_links_the_file_is_renamed_into_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A vfat stick or an SMB mount refuses os.link: the export still lands."""

    def no_links(src: object, dst: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("bot.export_command.os.link", no_links)
    out = tmp_path / "me.zip"
    write_export(out, b"zip")
    assert out.read_bytes() == b"zip"
    assert list(tmp_path.iterdir()) == [out]
