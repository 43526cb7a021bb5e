"""Engine-independent values: each column has a type code, each row one canonical line.

A row is a JSON array in column order, written with `ensure_ascii=False` and no
spaces, one per line. The values are what keeper's own column types return, so both
engines give the same line for the same record:

| code | column type | JSON |
|---|---|---|
| `int` | Integer, BigInteger | number |
| `str` | String, Text | string |
| `utc` | `UTCDateTime` | ISO 8601 with `+00:00`, microseconds always shown |
| `cents` | `Hundredths` | decimal string with two places, e.g. `"72.40"` |
| `date` / `time` | Date / Time | ISO 8601 (`time` with microseconds always shown) |
| `bytes` | LargeBinary | base64 |
| `bool` / `float` | Boolean / Float | JSON literal / number |

A table's checksum is SHA-256 over its canonical lines ordered by primary key, so it
is computed the same way from a file and from either engine. A column type without a
code is refused at backup time (teach this table first), never guessed.
"""

from __future__ import annotations

import datetime as dt
import json
from base64 import b64decode, b64encode
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Date,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    Time,
)
from sqlalchemy.types import TypeEngine

from storage.models import Hundredths, UTCDateTime


@dataclass(frozen=True, kw_only=True, slots=True)
class TableSpec:
    """A table as the backup sees it: its name and (column, type code) pairs."""

    name: str
    columns: tuple[tuple[str, str], ...]

    def table(self) -> Table:
        """A Core table with keeper's column types, for reading and inserting."""
        columns = [
            Column(name, _TYPES[code](), primary_key=name == "id") for name, code in self.columns
        ]
        return Table(self.name, MetaData(), *columns)


def spec_of(table: Table) -> TableSpec:
    """The spec of one of keeper's tables; refuses a column type it cannot carry."""
    if [c.name for c in table.primary_key.columns] != ["id"]:
        raise ValueError(f"{table.name}: backups page by an integer `id` primary key")
    return TableSpec(
        name=table.name, columns=tuple((c.name, code_of(c.type)) for c in table.columns)
    )


def code_of(kind: TypeEngine[Any]) -> str:
    """The type code of a column type (decorated types before their base types)."""
    for cls, code in _CODES:
        if isinstance(kind, cls):
            return code
    raise ValueError(f"no backup type code for column type {kind!r}")


_CODES: tuple[tuple[type[TypeEngine[Any]], str], ...] = (
    (UTCDateTime, "utc"),
    (Hundredths, "cents"),
    (Boolean, "bool"),
    (Integer, "int"),  # BigInteger is an Integer
    (String, "str"),  # Text is a String
    (Date, "date"),
    (Time, "time"),
    (LargeBinary, "bytes"),
    (Float, "float"),
)
_TYPES: dict[str, Callable[[], TypeEngine[Any]]] = {
    "utc": UTCDateTime,
    "cents": Hundredths,
    "bool": Boolean,
    "int": BigInteger,
    "str": Text,
    "date": Date,
    "time": Time,
    "bytes": LargeBinary,
    "float": Float,
}


def _encode_time(value: dt.time) -> str:
    return value.isoformat(timespec="microseconds")


_ENCODE: dict[str, Callable[[Any], Any]] = {
    "utc": lambda v: v.astimezone(dt.UTC).isoformat(timespec="microseconds"),
    "cents": lambda v: str(v.quantize(Decimal("0.01"))),
    "date": lambda v: v.isoformat(),
    "time": _encode_time,
    "bytes": lambda v: b64encode(v).decode(),
}
_DECODE: dict[str, Callable[[Any], Any]] = {
    "utc": dt.datetime.fromisoformat,
    "cents": Decimal,
    "date": dt.date.fromisoformat,
    "time": dt.time.fromisoformat,
    "bytes": b64decode,
}


def encode_row(codes: Sequence[str], row: Sequence[Any]) -> bytes:
    """One row as its canonical line (UTF-8, ending in a newline)."""
    values = [
        value if value is None or code not in _ENCODE else _ENCODE[code](value)
        for code, value in zip(codes, row, strict=True)
    ]
    return line(values)


def decode_row(spec: TableSpec, values: Sequence[Any]) -> dict[str, Any]:
    """A row read from a file as a parameter dict for `spec.table()`'s INSERT."""
    if len(values) != len(spec.columns):
        raise ValueError(
            f"{spec.name}: a row has {len(values)} values for {len(spec.columns)} columns"
        )
    return {
        name: value if value is None or code not in _DECODE else _DECODE[code](value)
        for (name, code), value in zip(spec.columns, values, strict=True)
    }


_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""One encoder for every line: `json.dumps` with options builds a new one per call."""


def line(value: Any) -> bytes:
    """The canonical JSON line of any record of the file."""
    return (_CANONICAL.encode(value) + "\n").encode()
