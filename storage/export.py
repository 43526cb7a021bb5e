"""One user's own data as a ZIP of CSV and JSON files, with a README naming each column.

Used by the download link (`导出`) and `keeper export --user USERID --out FILE`.
Every query filters on the user's id; internal keys (message keys, other users'
ids) are left out. Instants are ISO 8601 in UTC with the offset (`+00:00`); amounts
and weights are exact decimals as text.

A spreadsheet runs a CSV cell that starts with `=`, `+`, `-`, `@`, a tab or a
carriage return as a formula (OWASP's CSV injection): in the CSV files only, such a
cell of a text column (a note, a title, a journal line: a String column) gets a
leading `'`. Number columns (water's -1, amounts, ids) are never touched, whatever
their sign, and the JSON files carry every value exactly as stored.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import zipfile
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from sqlalchemy import String, Table, select

from storage.database import Session
from storage.delivery_models import RULES
from storage.models import EVENTS, JOURNAL, LEDGER, MEASUREMENTS, TASKS, WATER_CHECKINS
from storage.review_models import BUDGETS

FILES: tuple[tuple[str, Table, tuple[tuple[str, str], ...]], ...] = (
    ("weights", MEASUREMENTS, (
        ("id", "record number"), ("kind", "what was measured (weight)"),
        ("value", "the value, kg for weight"), ("occurred_at", "when (UTC)"),
    )),
    ("ledger", LEDGER, (
        ("id", "record number"), ("direction", "expense or income"),
        ("amount", "amount in yuan, always positive"), ("category", "category"),
        ("note", "what it was for, as typed"), ("occurred_at", "when (UTC)"),
    )),
    ("water", WATER_CHECKINS, (
        ("id", "record number"), ("glasses", "glasses (negative: a correction)"),
        ("occurred_at", "when (UTC)"),
    )),
    ("tasks", TASKS, (
        ("id", "task id"), ("number", "short number while open"), ("title", "title"),
        ("due_date", "due day (local)"), ("due_time", "due time (local)"),
        ("status", "open, done or cancelled"), ("created_at", "created (UTC)"),
        ("closed_at", "done or cancelled at (UTC)"),
    )),
    ("events", EVENTS, (
        ("id", "event id"), ("number", "short number while upcoming"), ("title", "title"),
        ("day", "day (local)"), ("starts_at", "start (UTC; empty: all day)"),
        ("ends_at", "end (UTC)"), ("remind_minutes_before", "reminder, minutes before"),
        ("status", "scheduled or cancelled"), ("created_at", "created (UTC)"),
    )),
    ("journal", JOURNAL, (
        ("id", "entry id"), ("text", "the entry, verbatim"), ("occurred_at", "written (UTC)"),
    )),
    ("reminders", RULES, (
        ("id", "rule id"), ("number", "short number in the reminder list"), ("kind", "kind of reminder"),
        ("status", "active, paused, disabled or error"), ("label", "what it says"),
        ("spec", "its schedule, as keeper stores it"), ("next_fire_at", "next time (UTC)"),
        ("created_at", "created (UTC)"),
    )),
    ("budgets", BUDGETS, (
        ("id", "budget id"), ("category", "expense category"),
        ("amount", "monthly amount in yuan"),
    )),
)  # fmt: skip


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP: CSV injection)."""


def _text_columns(table: Table, names: Sequence[str]) -> frozenset[str]:
    """The columns holding text a person typed (or a word): String columns."""
    return frozenset(name for name in names if isinstance(table.c[name].type, String))


def _inert(value: str) -> str:
    """A text cell as a spreadsheet will show it and never run it."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f"{value:f}"
    return str(value)


async def user_rows(session: Session, user_id: int) -> dict[str, list[dict[str, str]]]:
    """Every file's rows for `user_id` only, oldest first, values as text."""
    found: dict[str, list[dict[str, str]]] = {}
    for name, table, columns in FILES:
        names = [c for c, _ in columns]
        stmt = (
            select(*(table.c[c] for c in names))
            .where(table.c.user_id == user_id)
            .order_by(table.c.id)
        )
        found[name] = [
            {c: _text(v) for c, v in zip(names, row, strict=True)}
            for row in await session.execute(stmt)
        ]
    return found


def readme(wecom_user_id: str, now: dt.datetime) -> str:
    lines = [
        "keeper export",
        f"member: {wecom_user_id}",
        f"made: {now.astimezone(dt.UTC).isoformat()}",
        "",
        "Each table is here twice: NAME.csv (UTF-8 with BOM, opens in Excel) and",
        "NAME.json (a list of objects). Times marked UTC are ISO 8601 with +00:00;",
        "days and times marked local are in your own time zone. In the CSV only, a",
        "text starting with = + - @, a tab or a carriage return has a ' in front, so",
        "that a spreadsheet shows it instead of running it; the JSON has it as typed.",
    ]
    for name, _, columns in FILES:
        lines += ["", f"{name}.csv / {name}.json"]
        lines += [f"  {column}: {meaning}" for column, meaning in columns]
    return "\n".join(lines) + "\n"


def build_zip(tables: dict[str, list[dict[str, str]]], readme_text: str) -> bytes:
    """The ZIP's bytes: README.txt, then NAME.csv and NAME.json per table."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("README.txt", readme_text)
        for name, table, columns in FILES:
            rows, header = tables.get(name, []), [c for c, _ in columns]
            archive.writestr(f"{name}.csv", _csv(header, rows, _text_columns(table, header)))
            archive.writestr(f"{name}.json", json.dumps(rows, ensure_ascii=False, indent=1))
    return buffer.getvalue()


def _csv(header: Sequence[str], rows: list[dict[str, str]], texts: frozenset[str]) -> str:
    """The CSV of `rows`, the cells of the `texts` columns made inert (`_inert`)."""
    out = io.StringIO()
    out.write("\ufeff")  # the BOM tells Excel the file is UTF-8 (Chinese titles and notes)
    writer = csv.DictWriter(out, fieldnames=list(header), lineterminator="\r\n")
    writer.writeheader()
    writer.writerows({k: _inert(v) if k in texts else v for k, v in row.items()} for row in rows)
    return out.getvalue()


async def export_user(
    session: Session, user_id: int, wecom_user_id: str, now: dt.datetime
) -> bytes:
    """The whole export of one user, as ZIP bytes."""
    return build_zip(await user_rows(session, user_id), readme(wecom_user_id, now))
