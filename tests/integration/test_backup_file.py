"""The sealed file on its own (real AES-GCM and scrypt): what opens, what is refused.

Three chunks of incompressible bytes make a file whose chunks can be cut, swapped
and extended; every change must be refused, and a wrong key told apart.
"""

from __future__ import annotations

import io
import os
import struct
import zlib

import pytest

from storage.backup.archive import ArchiveWriter, Meta, check_archive
from storage.backup.codec import TableSpec
from storage.backup.sealed import CHUNK_BYTES, MAGIC, SealedWriter, Tampered, WrongKey, open_sealed

KEY = "a test passphrase, not a real one"
PLAIN = os.urandom(2 * CHUNK_BYTES + 1234)


def _sealed(plain: bytes = PLAIN) -> bytes:
    out = io.BytesIO()
    writer = SealedWriter(out, KEY)
    writer.write(plain[:1000])
    writer.write(plain[1000:])
    writer.close()
    return out.getvalue()


def _open(data: bytes, key: str = KEY) -> bytes:
    return b"".join(open_sealed(io.BytesIO(data), key))


def _frames(data: bytes) -> tuple[bytes, list[bytes]]:
    """The file's prefix (magic, header) and its frames (length + sealed chunk)."""
    (length,) = struct.unpack(">H", data[len(MAGIC) : len(MAGIC) + 2])
    at = len(MAGIC) + 2 + length
    prefix, frames = data[:at], []
    while at < len(data):
        (size,) = struct.unpack(">I", data[at : at + 4])
        frames.append(data[at : at + 4 + size])
        at += 4 + size
    return prefix, frames


def test_a_sealed_file_opens_with_its_key_to_the_same_bytes() -> None:
    data = _sealed()
    assert _open(data) == PLAIN
    assert PLAIN[:64] not in data
    assert len(_frames(data)[1]) == 3


def test_two_files_of_the_same_bytes_differ_entirely() -> None:
    first, second = _sealed(), _sealed()
    assert _frames(first)[1][0][4:40] != _frames(second)[1][0][4:40]


def test_a_wrong_key_is_told_apart_from_damage() -> None:
    with pytest.raises(WrongKey, match="wrong backup key"):
        _open(_sealed(), "another passphrase entirely")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("drop the last chunk", "cut short"),
        ("cut the last chunk in half", "cut short"),
        ("swap the first two chunks", "altered"),
        ("repeat a chunk", "altered"),
        ("append bytes", "after its last chunk"),
        ("flip a tag bit", "altered"),
        ("change a length", "altered|cut short"),
        ("change the header's chunk size", "altered"),
    ],
)
def test_every_change_to_the_file_is_refused(change: str, expected: str) -> None:
    prefix, frames = _frames(_sealed())
    one, two, last = frames
    changed = {
        "drop the last chunk": prefix + one + two,
        "cut the last chunk in half": prefix + one + two + last[: len(last) // 2],
        "swap the first two chunks": prefix + two + one + last,
        "repeat a chunk": prefix + one + one + two + last,
        "append bytes": prefix + one + two + last + b"\x00",
        "flip a tag bit": prefix + one + two + last[:-1] + bytes([last[-1] ^ 0x80]),
        "change a length": prefix + struct.pack(">I", len(one) - 5) + one[4:] + two + last,
        "change the header's chunk size": prefix.replace(b'"chunk": 1048576', b'"chunk": 1048577')
        + one
        + two
        + last,
    }[change]
    with pytest.raises(Tampered, match=expected):
        _open(changed)


def test_a_file_that_is_not_a_backup_is_refused_by_name() -> None:
    with pytest.raises(Tampered, match="not a keeper backup"):
        _open(b"SQLite format 3\x00" + bytes(100))


@pytest.mark.parametrize(
    "n",
    [
        1073741824,  # over the bound on n alone
        1048576,  # within it, but with the file's r = 8 scrypt would take 1 GiB
    ],
)
def test_a_header_asking_for_huge_scrypt_work_is_refused_before_any_work(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix, frames = _frames(_sealed())

    def no_work(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("scrypt ran for a header that should have been refused")

    monkeypatch.setattr("storage.backup.sealed.scrypt", no_work)
    greedy = prefix.replace(b'"n": 32768', b'"n": %d' % n)
    body = greedy[len(MAGIC) + 2 :]
    data = MAGIC + struct.pack(">H", len(body)) + body + b"".join(frames)
    with pytest.raises(Tampered, match="header is damaged"):
        _open(data)


def _archive(rows: list[list[object]]) -> bytes:
    out = io.BytesIO()
    meta = Meta(
        revision="0006", keeper="test", created_at="2026-11-25T02:00:00+00:00", engine="sqlite"
    )
    writer = ArchiveWriter(out, KEY, meta)
    writer.begin_table(TableSpec(name="things", columns=(("id", "int"), ("name", "str"))))
    writer.add_rows(rows)
    writer.finish()
    return out.getvalue()


def test_an_archive_proves_its_manifest_on_reading() -> None:
    manifest = check_archive(io.BytesIO(_archive([[1, "水"], [2, None]])), KEY)
    assert [(t.name, t.rows) for t in manifest.tables] == [("things", 2)]
    assert manifest.meta.revision == "0006"


def test_an_archive_sealed_without_its_manifest_is_refused() -> None:
    out = io.BytesIO()
    writer = SealedWriter(out, KEY)
    meta = (
        b'{"meta":{"format":1,"revision":"0006","keeper":"x","created_at":"","engine":"sqlite"}}\n'
    )
    writer.write(zlib.compress(meta))
    writer.close()
    with pytest.raises(Tampered, match="without its manifest"):
        check_archive(io.BytesIO(out.getvalue()), KEY)
