"""The phrasing corpus (issue 9): read the data files and judge a parse against them.

`phrasings.jsonl` holds one row per line (schema in `tests/corpus/README.md`);
`never_record.txt` holds texts that must never make a record. Everything is read on a
fixed reference clock: today is Tuesday 2026-12-01, now is 09:30 in Asia/Shanghai.

Used by `tests/unit/test_corpus.py` (the parametrized test) and `tests/corpus/report.py`
(coverage and precision per category).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib
import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

from handlers import channel_commands, commands
from handlers.commands import ParseError

CORPUS_DIR = Path(__file__).resolve().parent
PHRASINGS = CORPUS_DIR / "phrasings.jsonl"
NEVER_RECORD = CORPUS_DIR / "never_record.txt"

TODAY = dt.date(2026, 12, 1)  # a Tuesday
NOW_LOCAL = dt.datetime(2026, 12, 1, 9, 30)  # noqa: DTZ001 -- naive local wall clock
ZONE = ZoneInfo("Asia/Shanghai")
OCCURRENCES = 3  # how many next times an AddReminder row lists (fewer for a one-off)

CATEGORIES = (
    "weight",
    "water",
    "money",
    "task",
    "task_state",
    "event",
    "journal",
    "view",
    "undo",
    "reminder",
    "quiet",
    "digest",
    "water_settings",
    "settings",
    "help",
    "admin",
    "ambiguous",
    "review",
)
AREAS = ("records", "tasks_events", "reminders_settings", "newer", "views_other", "remarks")
"""The areas a fresh round is scored by (issue 19): records, tasks and events,
reminders and settings, the newer features, views and the rest, and remarks (lines
that must never make a record)."""
EXPENSE_CATEGORIES = frozenset(
    {"餐饮", "交通", "购物", "居住", "通讯", "医疗", "娱乐", "教育", "人情", "日用", "其他"}
)
INCOME_CATEGORIES = frozenset({"工资", "奖金", "红包", "报销", "兼职", "退款", "理财", "其他"})
RECORD_COMMANDS = frozenset(
    {
        "RecordWeight",
        "RecordLedger",
        "CheckInWater",
        "AddTask",
        "AddEvent",
        "AddReminder",
        "WriteJournal",
    }
)
"""Commands that write a fact; the never-record list must produce none of them."""
JOURNAL_WORDS = ("日记", "记日记", "写日记")
"""A never-record line starting with one of these may become a journal entry."""

Outcome = Literal["understood", "asked", "missed", "wrong"]


class CorpusError(ValueError):
    """A malformed row in a corpus file (the message names the line)."""


@dataclass(frozen=True, slots=True)
class Expected:
    """A command's expected class name and the fields to compare (already typed)."""

    cmd: str
    fields: dict[str, Any]
    next: tuple[dt.datetime, ...] | None = None  # AddReminder: the next occurrences


@dataclass(frozen=True, slots=True)
class Row:
    """One corpus row: `kind` is "command", "ask" (a Confirm with `expected` as its
    guess) or "miss" (ParseError)."""

    id: str
    category: str
    text: str
    kind: Literal["command", "ask", "miss", "never"]
    expected: Expected | None
    gap: str | None = None
    area: str | None = None
    note: str | None = None
    line: int = 0
    raw: dict[str, Any] = field(default_factory=dict, compare=False)


# --- reading ---------------------------------------------------------------------


def load_rows(path: Path = PHRASINGS) -> list[Row]:
    """Every row of `path`, validated (unique ids, known categories and commands,
    well-formed fields); CorpusError names the first bad line."""
    return read_rows(path, _row)


def read_rows(path: Path, make: Callable[[Any, int], Row]) -> list[Row]:
    """The rows of a JSON Lines file, each made by `make(data, line)`; CorpusError
    names the first bad line or a repeated id."""
    rows: list[Row] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            row = make(data, number)
        except (ValueError, TypeError, KeyError) as error:
            raise CorpusError(f"{path.name}:{number}: {error}") from None
        if row.id in seen:
            raise CorpusError(f"{path.name}:{number}: duplicate id {row.id}")
        seen.add(row.id)
        rows.append(row)
    return rows


def load_never_record(path: Path = NEVER_RECORD) -> list[str]:
    """The must-never-record phrasings: one per line, `#` comments and blanks skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


_ROW_KEYS = frozenset({"id", "category", "text", "expect", "note", "gap", "area"})


def row_from(data: Any, line: int) -> Row:
    """One row from its JSON object (`line` for messages); CorpusError when malformed."""
    return _row(data, line)


def _row(data: Any, line: int) -> Row:
    if not isinstance(data, dict):
        raise CorpusError("a row is a JSON object")
    if unknown := set(data) - _ROW_KEYS:
        raise CorpusError(f"unknown keys {sorted(unknown)}")
    row_id, category, text = data["id"], data["category"], data["text"]
    if category not in CATEGORIES:
        raise CorpusError(f"unknown category {category!r}")
    if not isinstance(row_id, str) or not row_id.startswith(category + "-"):
        raise CorpusError(f"id {row_id!r} does not start with its category {category!r}")
    if not isinstance(text, str) or not text.strip():
        raise CorpusError("text is a non-empty string")
    for optional in ("note", "gap"):
        if optional in data and not (isinstance(data[optional], str) and data[optional]):
            raise CorpusError(f"{optional} is a non-empty string")
    expect = data["expect"]
    if not isinstance(expect, dict):
        raise CorpusError("expect is an object")
    area = data.get("area")
    if area is not None and area not in AREAS:
        raise CorpusError(f"unknown area {area!r}")
    kind: Literal["command", "ask", "miss", "never"]
    if expect == {"miss": True}:
        kind, expected = "miss", None
    elif expect == {"never": True}:
        kind, expected = "never", None
    elif set(expect) == {"ask"}:
        kind, expected = "ask", _expected(expect["ask"], fresh=area is not None)
    else:
        kind, expected = "command", _expected(expect, fresh=area is not None)
    return Row(
        id=row_id,
        category=category,
        text=text,
        kind=kind,
        expected=expected,
        gap=data.get("gap"),
        note=data.get("note"),
        area=area,
        line=line,
        raw=data,
    )


def _expected(spec: Any, *, fresh: bool = False) -> Expected:
    """`{"cmd": "RecordLedger", "amount": "48", ...}` -> Expected with typed values.

    `fresh`: a row of a fresh round, whose writer may leave out a field that has no
    default when its exact value is a judgment call (a title): it is not compared."""
    if not isinstance(spec, dict) or not isinstance(spec.get("cmd"), str):
        raise CorpusError("a command is an object with a string `cmd`")
    name = spec["cmd"]
    cls = getattr(commands, name, None) or getattr(channel_commands, name, None)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)) or name == "TaskRef":
        raise CorpusError(f"unknown command {name!r}")
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in dataclasses.fields(cls)}
    given = {key: value for key, value in spec.items() if key != "cmd"}
    occurrences: tuple[dt.datetime, ...] | None = None
    if name == "AddReminder":
        if "schedule" in given:
            raise CorpusError("AddReminder rows give `next`, not `schedule`")
        said = given.pop("next", None)
        if said is not None or not fresh:  # a fresh row may leave `next` out: not compared
            occurrences = _occurrences(said)
        for needed in ("title", "important"):
            if needed not in given and not fresh:
                raise CorpusError(f"AddReminder rows give `{needed}`")
    if unknown := set(given) - set(known):
        raise CorpusError(f"{name} has no field(s) {sorted(unknown)}")
    for required in _required_fields(cls, known):
        if required not in given and not fresh:
            raise CorpusError(f"{name} needs `{required}`")
    fields = {key: _typed(value, hints[key], f"{name}.{key}") for key, value in given.items()}
    return Expected(cmd=name, fields=fields, next=occurrences)


def _required_fields(cls: type, known: dict[str, dataclasses.Field[Any]]) -> list[str]:
    """Fields without a default (AddReminder's schedule is given as `next`)."""
    missing = dataclasses.MISSING
    required = [
        name
        for name, spec in known.items()
        if spec.default is missing and spec.default_factory is missing
    ]
    return [name for name in required if not (cls.__name__ == "AddReminder" and name == "schedule")]


def _occurrences(value: Any) -> tuple[dt.datetime, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= OCCURRENCES:
        raise CorpusError(f"AddReminder `next` is a list of 1-{OCCURRENCES} local datetimes")
    times = tuple(dt.datetime.fromisoformat(item) for item in value)
    if any(at.tzinfo is not None for at in times) or list(times) != sorted(set(times)):
        raise CorpusError("`next` holds naive local datetimes, strictly increasing")
    if times[0] <= NOW_LOCAL:
        raise CorpusError("`next` starts after the reference time 2026-12-01T09:30")
    return times


def _typed(value: Any, hint: Any, where: str) -> Any:
    """A JSON value as the dataclass field's type (Decimal, date, time, TaskRef ...)."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        options = typing.get_args(hint)
        if value is None:
            if type(None) not in options:
                raise CorpusError(f"{where} may not be null")
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _typed(value, option, where)
            except (CorpusError, ValueError, TypeError) as error:
                errors.append(str(error))
        raise CorpusError(f"{where}: {'; '.join(errors)}")
    if origin is Literal:
        if value not in typing.get_args(hint):
            raise CorpusError(f"{where} is one of {typing.get_args(hint)}, not {value!r}")
        return value
    if isinstance(hint, type) and issubclass(hint, StrEnum):  # a `storage.vocabulary` word
        try:
            return hint(value)
        except ValueError:
            raise CorpusError(
                f"{where} is one of {[m.value for m in hint]}, not {value!r}"
            ) from None
    if hint is bool:
        if not isinstance(value, bool):
            raise CorpusError(f"{where} is true or false")
        return value
    if hint is int:
        if isinstance(value, str) and value.isdigit():
            value = int(value)  # a writer's "8421" for a job number
        if isinstance(value, bool) or not isinstance(value, int):
            raise CorpusError(f"{where} is an integer")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise CorpusError(f"{where} is a string")
        return value
    if hint is Decimal:
        if not isinstance(value, str):
            raise CorpusError(f"{where} is a decimal written as a string")
        try:
            return Decimal(value)
        except InvalidOperation:
            raise CorpusError(f"{where}: {value!r} is not a decimal") from None
    if hint is dt.datetime:
        return _iso(value, dt.datetime.fromisoformat, where)
    if hint is dt.date:
        return _iso(value, dt.date.fromisoformat, where)
    if hint is dt.time:
        return _iso(value, dt.time.fromisoformat, where)
    if hint in (commands.TaskRef, commands.UntilDone):  # nested: {"number": 2}, {"every": 10}
        if not isinstance(value, dict) or not value:
            raise CorpusError(f"{where} is an object like {{'number': 2}}")
        ref_hints = typing.get_type_hints(hint)
        if unknown := set(value) - set(ref_hints):
            raise CorpusError(f"{where} has no field(s) {sorted(unknown)}")
        typed = {key: _typed(item, ref_hints[key], f"{where}.{key}") for key, item in value.items()}
        return hint(**typed)
    raise CorpusError(f"{where}: no JSON form for {hint!r}")


def _iso(value: Any, read: Callable[[str], Any], where: str) -> Any:
    if not isinstance(value, str):
        raise CorpusError(f"{where} is an ISO string")
    try:
        return read(value)
    except ValueError:
        raise CorpusError(f"{where}: {value!r} is not ISO") from None


# --- parsing and judging ---------------------------------------------------------


def parser() -> Callable[..., Any]:
    """The parse function: `handlers.parse.parse` once the package has it, else the
    old `handlers.parser.parse`."""
    for module_name in ("handlers.parse", "handlers.parser"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        parse = getattr(module, "parse", None)
        if callable(parse):
            return typing.cast(Callable[..., Any], parse)
    raise ImportError("neither handlers.parse.parse nor handlers.parser.parse exists")


def confirm_class() -> type | None:
    """`handlers.commands.Confirm` (a question with a guess) once it exists."""
    found = getattr(commands, "Confirm", None)
    return found if isinstance(found, type) else None


def parse_text(text: str, parse: Callable[..., Any] | None = None) -> Any:
    """The parser's answer on the reference clock: a command, a Confirm, or the
    ParseError it raised (returned, not raised). Any other exception propagates."""
    parse = parse or parser()
    try:
        return parse(text, today=TODAY, now_local=NOW_LOCAL)
    except ParseError as error:
        return error


def is_confirm(result: Any) -> bool:
    confirm = confirm_class()
    return confirm is not None and isinstance(result, confirm)


def is_record(result: Any) -> bool:
    """A command that writes a fact (not a question, not a miss)."""
    return type(result).__name__ in RECORD_COMMANDS and not is_confirm(result)


def matches(result: Any, expected: Expected) -> bool:
    """The command is the expected one: its class, every given field, and (for an
    AddReminder) its next occurrences from the reference time."""
    if type(result).__name__ != expected.cmd or is_confirm(result):
        return False
    for name, value in expected.fields.items():
        if getattr(result, name, _MISSING) != value:
            return False
    if expected.next is not None:
        # always three: a one-off that came out recurring (or the reverse) must fail
        return occurrences(result.schedule) == expected.next
    return True


_MISSING = object()


def occurrences(schedule: Any, count: int = OCCURRENCES) -> tuple[dt.datetime, ...]:
    """The next `count` local wall-clock times of `schedule` after the reference time
    (fewer for a one-off), via `scheduler.core.schedule.next_after`."""
    from scheduler.core.schedule import next_after

    after = NOW_LOCAL.replace(tzinfo=ZONE)
    found: list[dt.datetime] = []
    for _ in range(count):
        at = next_after(schedule, after, ZONE)
        if at is None:
            break
        found.append(at.astimezone(ZONE).replace(tzinfo=None))
        after = at
    return tuple(found)


def outcome(row: Row, result: Any) -> Outcome:
    """How the parser did on a row.

    understood: exactly what the row expects (a miss for a miss row, the right guess
    for an ask row); asked: a Confirm that is not exactly the expectation; missed: a
    ParseError where something else was expected; wrong: a command that is not the
    expectation (including acting without asking on an ask row).
    """
    if row.kind == "never":
        return "wrong" if is_record(result) else "understood"
    if isinstance(result, ParseError):
        return "understood" if row.kind == "miss" else "missed"
    if is_confirm(result):
        if row.kind == "ask" and row.expected and matches(result.guess, row.expected):
            return "understood"
        return "asked"
    if row.kind == "command" and row.expected and matches(result, row.expected):
        return "understood"
    return "wrong"


def passes(row: Row, result: Any) -> bool:
    """The test's rule: exact for a normal row; a gap row may also be a miss or a
    question (never a wrong command)."""
    if outcome(row, result) == "understood":
        return True
    return row.gap is not None and (isinstance(result, ParseError) or is_confirm(result))


def describe(result: Any) -> str:
    """A short readable form of a parse result for failure messages and reports."""
    if isinstance(result, ParseError):
        return f"ParseError({result.message[:60]!r})"
    if is_confirm(result):
        return f"Confirm({describe(result.guess)})"
    if type(result).__name__ == "AddReminder":
        times = [at.isoformat(timespec="minutes") for at in occurrences(result.schedule)]
        return f"AddReminder(title={result.title!r}, important={result.important}, next={times})"
    return repr(result)
