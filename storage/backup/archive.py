"""The backup's contents: JSON lines, zlib-compressed, inside a sealed stream.

The lines, in order::

    {"meta": {"format": 1, "revision": "0006", "keeper": "0.1.0",
              "created_at": "...+00:00", "engine": "sqlite"}}
    {"table": "users", "columns": [["id", "int"], ["created_at", "utc"], ...]}
    [1, "...", ...]                      one canonical line per row, by primary key
    ... (every table, parents before children)
    {"manifest": {"tables": [{"name": "users", "rows": 3, "sha256": "..."}, ...]}}

The manifest comes last because it is computed while the rows stream out; the reader
recomputes every count and checksum as it goes and refuses a file whose manifest
disagrees, whose records are out of place, or that lacks the manifest.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from storage.backup.codec import TableSpec, encode_row, line
from storage.backup.sealed import SealedWriter, Tampered, open_sealed

FORMAT = 1
BATCH_ROWS = 1000  # rows per `Rows` event, and so per multi-row INSERT on restore
ZLIB_LEVEL = 1  # JSON lines shrink about 5x even at level 1; higher levels cost CPU


@dataclass(frozen=True, kw_only=True, slots=True)
class TableSum:
    name: str
    rows: int
    sha256: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Meta:
    revision: str
    keeper: str
    created_at: str
    engine: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Manifest:
    """What the file says it holds: the schema revision and a sum per table."""

    meta: Meta
    tables: tuple[TableSum, ...]

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)


@dataclass(frozen=True, slots=True)
class Rows:
    """A batch of one table's rows, as decoded JSON arrays."""

    spec: TableSpec
    values: list[list[Any]]


class TableHasher:
    """Counts and hashes one table's canonical lines."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec
        self.codes = [code for _, code in spec.columns]
        self.rows = 0
        self._hash = hashlib.sha256()

    def add(self, encoded: bytes) -> None:
        self.rows += 1
        self._hash.update(encoded)

    def sum(self) -> TableSum:
        return TableSum(name=self.spec.name, rows=self.rows, sha256=self._hash.hexdigest())


class ArchiveWriter:
    """Writes meta, tables and rows; `finish()` appends the manifest and seals."""

    def __init__(self, out: IO[bytes], passphrase: str, meta: Meta) -> None:
        self._sealed = SealedWriter(out, passphrase)
        self._zip = zlib.compressobj(ZLIB_LEVEL)
        self._meta = meta
        self._sums: list[TableSum] = []
        self._current: TableHasher | None = None
        self._emit(line({"meta": {"format": FORMAT, **_meta_dict(meta)}}))

    def begin_table(self, spec: TableSpec) -> None:
        self._close_table()
        self._current = TableHasher(spec)
        self._emit(line({"table": spec.name, "columns": [list(c) for c in spec.columns]}))

    def add_rows(self, rows: Iterable[Sequence[Any]]) -> None:
        current = self._current
        assert current is not None, "begin_table first"
        encoded = [encode_row(current.codes, row) for row in rows]
        for one in encoded:
            current.add(one)
        self._emit(b"".join(encoded))

    def finish(self) -> Manifest:
        self._close_table()
        manifest = Manifest(meta=self._meta, tables=tuple(self._sums))
        tables = [{"name": t.name, "rows": t.rows, "sha256": t.sha256} for t in self._sums]
        self._emit(line({"manifest": {"tables": tables}}))
        self._sealed.write(self._zip.flush())
        self._sealed.close()
        return manifest

    def _close_table(self) -> None:
        if self._current is not None:
            self._sums.append(self._current.sum())
            self._current = None

    def _emit(self, data: bytes) -> None:
        self._sealed.write(self._zip.compress(data))


def _meta_dict(meta: Meta) -> dict[str, str]:
    return {
        "revision": meta.revision,
        "keeper": meta.keeper,
        "created_at": meta.created_at,
        "engine": meta.engine,
    }


@dataclass
class _Reading:
    meta: Meta | None = None
    table: TableHasher | None = None
    sums: list[TableSum] = field(default_factory=list)
    batch: list[list[Any]] = field(default_factory=list)


def read_archive(
    source: IO[bytes], passphrase: str, *, rows: bool = True
) -> Iterator[Meta | TableSpec | Rows | Manifest]:
    """Yield the file's meta, then each table's spec and row batches, then the
    manifest, checking as it goes.

    The manifest is yielded only after every count and checksum matched; until then
    a caller must treat what it got as unproven. With `rows=False` rows are counted
    and hashed but not parsed, and no `Rows` are yielded (a check needs no more).

    Raises:
        WrongKey, Tampered: see `storage.backup.sealed`; Tampered also when the
        contents are malformed or disagree with the manifest.
    """
    state, manifest = _Reading(), None
    # Read to the very end before yielding the manifest: only then has the sealed
    # stream seen its final chunk and nothing after it.
    for raw in _lines(source, passphrase):
        if manifest is not None:
            raise Tampered("the backup has records after its manifest")
        if raw.startswith(b"["):
            yield from _row(state, raw, parse=rows)
            continue
        record = _json(raw)
        yield from _flush(state)
        if "meta" in record and state.meta is None:
            state.meta = _meta(record["meta"])
            yield state.meta
        elif "table" in record and state.meta is not None:
            _close(state)
            state.table = TableHasher(_spec(record))
            yield state.table.spec
        elif "manifest" in record and state.meta is not None:
            manifest = _manifest(state, record["manifest"])
        else:
            raise Tampered("the backup's contents are out of order")
    if manifest is None:
        raise Tampered("the backup ends without its manifest")
    yield manifest


def check_archive(source: IO[bytes], passphrase: str) -> Manifest:
    """Read the whole file and return its manifest, proven (see `read_archive`)."""
    for item in read_archive(source, passphrase, rows=False):
        if isinstance(item, Manifest):
            return item
    raise Tampered("the backup ends without its manifest")  # pragma: no cover


def _row(state: _Reading, raw: bytes, *, parse: bool) -> Iterator[Rows]:
    if state.table is None:
        raise Tampered("the backup has a row outside any table")
    state.table.add(raw + b"\n")  # the canonical line, as written
    if not parse:  # counted and hashed is all a check needs
        return
    state.batch.append(_json(raw))
    if len(state.batch) >= BATCH_ROWS:
        yield from _flush(state)


def _flush(state: _Reading) -> Iterator[Rows]:
    if state.batch:
        assert state.table is not None
        yield Rows(state.table.spec, state.batch)
        state.batch = []


def _manifest(state: _Reading, body: Any) -> Manifest:
    _close(state)
    try:
        claimed = [
            TableSum(name=t["name"], rows=t["rows"], sha256=t["sha256"]) for t in body["tables"]
        ]
    except (KeyError, TypeError):
        raise Tampered("the backup's manifest is malformed") from None
    differences = describe_differences(claimed, state.sums)
    if differences:
        raise Tampered("the backup disagrees with its manifest: " + "; ".join(differences))
    assert state.meta is not None
    return Manifest(meta=state.meta, tables=tuple(claimed))


def _close(state: _Reading) -> None:
    if state.table is not None:
        state.sums.append(state.table.sum())
        state.table = None


def describe_differences(expected: Sequence[TableSum], found: Sequence[TableSum]) -> list[str]:
    """What differs between two lists of table sums, in words (empty when equal)."""
    out: list[str] = []
    found_by_name = {t.name: t for t in found}
    for want in expected:
        got = found_by_name.pop(want.name, None)
        if got is None:
            out.append(f"{want.name}: missing")
        elif got.rows != want.rows:
            out.append(f"{want.name}: {got.rows} rows, manifest says {want.rows}")
        elif got.sha256 != want.sha256:
            out.append(f"{want.name}: checksum differs")
    out.extend(f"{name}: not in the manifest" for name in found_by_name)
    return out


def _lines(source: IO[bytes], passphrase: str) -> Iterator[bytes]:
    unzip = zlib.decompressobj()
    partial = b""
    try:
        for chunk in open_sealed(source, passphrase):
            pieces = (partial + unzip.decompress(chunk)).split(b"\n")
            partial = pieces.pop()
            yield from pieces
        pieces = (partial + unzip.flush()).split(b"\n")
    except zlib.error:
        raise Tampered("the backup's contents do not decompress") from None
    partial = pieces.pop()
    yield from pieces
    if partial or not unzip.eof:
        raise Tampered("the backup's contents end mid-record")


_DECODER = json.JSONDecoder()


def _json(raw: bytes) -> Any:
    try:
        return _DECODER.decode(raw.decode())  # json.loads(bytes) sniffs the encoding each time
    except ValueError:
        raise Tampered("the backup holds a malformed record") from None


def _meta(body: Any) -> Meta:
    try:
        if body["format"] != FORMAT:
            raise Tampered(f"backup format {body['format']} is not one this keeper reads")
        return Meta(
            revision=str(body["revision"]),
            keeper=str(body["keeper"]),
            created_at=str(body["created_at"]),
            engine=str(body["engine"]),
        )
    except (KeyError, TypeError):
        raise Tampered("the backup's meta record is malformed") from None


def _spec(record: Any) -> TableSpec:
    try:
        columns = tuple((str(name), str(code)) for name, code in record["columns"])
        return TableSpec(name=str(record["table"]), columns=columns)
    except (KeyError, TypeError, ValueError):
        raise Tampered("the backup's table record is malformed") from None
