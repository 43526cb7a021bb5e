"""Imports point one way (DESIGN §1): a test that fails on one against the direction.

Every module of the five packages is parsed with `ast` (nothing is imported, so a
module's own import-time work cannot hide or fake anything) and sorted into a layer
by the folder it sits in, never by a list of names:

- `bot`: the process edge and composition root; may import every layer.
- `handlers`: the conversation; imports handlers, services, the pure scheduler core
  and storage.
- `services`: the writers that keep several records in step (a handler that changes
  more than one record calls one, as `handlers/channels.py` calls `services.channels`
  and `handlers/undo.py` calls `services.undo`); import services, the pure scheduler
  core and storage.
- `scheduler engine`: every module of `scheduler/` outside `scheduler/core/` (the
  tick, delivery, routing, the kinds, the channel adapters and their error tables);
  imports scheduler (core and engine), services and storage.
- `scheduler core`: every module under `scheduler/core/`; pure: imports only the core,
  `storage.records` and `storage.vocabulary` (plain values: the record types and every
  status and kind). `scheduler/core/__init__.py` says what each of its modules holds.
- `storage`: imports only storage.

Nothing but `bot` imports `bot` (settings are built there and handed down).

Of what is not ours, the core imports only the standard library, less the parts that
do I/O, read the clock or draw from the OS (`NOT_PURE`), and APScheduler's trigger,
used only as a calculator. Handlers, services and the core never import aiohttp,
SQLAlchemy or a database driver (`NO_IO`): their I/O goes through storage's
repositories and the engine's channels.

So a module becomes pure by moving into `scheduler/core/`, and the move is checked:
a core module that reads the clock (`time`, a call of `.now()`, `.today()` or
`.utcnow()`: `now` is passed in), imports the engine (`scheduler.tick`, a channel
adapter), a service or a repository fails here. The secret box
(`storage.secret_box`) sits in storage, not in the core, for the same reason: each
seal draws a fresh nonce from the OS.
"""

from __future__ import annotations

import ast
import pathlib
import sys
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "handlers", "services", "scheduler", "storage")
CORE_PACKAGE = "scheduler.core"
"""The folder that is the pure core; the rest of `scheduler/` is the engine."""

NOT_PURE = frozenset(
    {
        "asyncio",
        "http",
        "logging",
        "os",
        "pathlib",
        "secrets",
        "shutil",
        "socket",
        "sqlite3",
        "subprocess",
        "tempfile",
        "time",
        "urllib",
    }
)
"""Standard-library modules the core may not import (I/O, the clock, the OS's random)."""
CORE_THIRD_PARTY = frozenset({"apscheduler"})
NO_IO = frozenset({"aiohttp", "aiomysql", "aiosqlite", "asyncmy", "pymysql", "sqlalchemy"})
CLOCK_CALLS = frozenset({"now", "today", "utcnow"})

BOT, HANDLERS, SERVICES, ENGINE, CORE_LAYER, STORAGE, RECORDS = (
    "bot",
    "handlers",
    "services",
    "scheduler engine",
    "scheduler core",
    "storage",
    "storage.records",
)

ALLOWED: dict[str, frozenset[str]] = {
    BOT: frozenset({BOT, HANDLERS, SERVICES, ENGINE, CORE_LAYER, STORAGE, RECORDS}),
    HANDLERS: frozenset({HANDLERS, SERVICES, CORE_LAYER, STORAGE, RECORDS}),
    SERVICES: frozenset({SERVICES, CORE_LAYER, STORAGE, RECORDS}),
    ENGINE: frozenset({ENGINE, CORE_LAYER, SERVICES, STORAGE, RECORDS}),
    CORE_LAYER: frozenset({CORE_LAYER, RECORDS}),
    STORAGE: frozenset({STORAGE, RECORDS}),
    RECORDS: frozenset({RECORDS}),
}
"""Which layers a module of each layer may import from."""


@dataclass(frozen=True, slots=True)
class Import:
    file: str
    line: int
    module: str


def module_name(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str | None:
    """The layer of a first-party module (package, module or name in it); None when
    it is not ours (the standard library, a dependency)."""
    top = module.split(".")[0]
    if top not in PACKAGES:
        return None
    if top == "scheduler":
        return CORE_LAYER if _within(module, {CORE_PACKAGE}) else ENGINE
    if top == "storage":
        return RECORDS if _within(module, {"storage.records", "storage.vocabulary"}) else STORAGE
    return {"bot": BOT, "handlers": HANDLERS, "services": SERVICES}[top]


def _within(module: str, names: frozenset[str] | set[str]) -> bool:
    return any(module == n or module.startswith(n + ".") for n in names)


def imports_of(path: pathlib.Path, root: pathlib.Path) -> list[Import]:
    """Every import in the file, at any depth (function-level ones included), each
    `from package import name` counted as an import of `package.name`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = module_name(path, root)
    file = str(path.relative_to(root))
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(file, node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            found += [Import(file, node.lineno, f"{base}.{a.name}") for a in node.names]
    return found


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def our_files() -> list[pathlib.Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def violations(files: list[pathlib.Path], root: pathlib.Path = ROOT) -> list[str]:
    """One line per import against the direction, naming the file, line and import."""
    found = []
    for path in files:
        source = layer_of(module_name(path, root))
        assert source is not None
        for imp in imports_of(path, root):
            target = layer_of(imp.module)
            if target is None and not _outside_allowed(source, imp.module):
                why = "not pure" if source == CORE_LAYER else "I/O"
                found.append(f"{imp.file}:{imp.line}: {source} imports {imp.module} ({why})")
            elif target is not None and target not in ALLOWED[source]:
                found.append(f"{imp.file}:{imp.line}: {source} imports {imp.module} ({target})")
        if source == CORE_LAYER:
            found += clock_reads(path, root)
    return found


def clock_reads(path: pathlib.Path, root: pathlib.Path) -> list[str]:
    """One line per call of `<anything>.now()`, `.today()` or `.utcnow()` in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    file = str(path.relative_to(root))
    return [
        f"{file}:{node.lineno}: scheduler core reads the clock (.{node.func.attr}())"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in CLOCK_CALLS
    ]


def _outside_allowed(source: str, module: str) -> bool:
    """Whether a module of layer `source` may import `module`, which is not ours."""
    top = module.split(".")[0]
    if source == CORE_LAYER:
        return top in CORE_THIRD_PARTY or (top in sys.stdlib_module_names and top not in NOT_PURE)
    return source not in (HANDLERS, SERVICES) or top not in NO_IO


def test_imports_point_one_way() -> None:
    found = violations(our_files())
    assert not found, "imports against the direction:\n" + "\n".join(found)


def test_the_core_is_the_folder_and_the_rest_of_the_scheduler_the_engine() -> None:
    core = sorted((ROOT / "scheduler" / "core").rglob("*.py"))
    assert len(core) > 1, "scheduler/core/ is gone or empty: the core's checks check nothing"
    assert {layer_of(module_name(p)) for p in core} == {CORE_LAYER}
    engine = [p for p in (ROOT / "scheduler").rglob("*.py") if p not in core]
    assert {layer_of(module_name(p)) for p in engine} == {ENGINE}


@pytest.mark.parametrize(
    ("file", "source", "allowed"),
    [
        ("handlers/x.py", "from scheduler import tick\n", False),
        ("handlers/x.py", "from scheduler.water_kind import WaterKind\n", False),
        ("handlers/x.py", "import scheduler.delivery\n", False),
        ("handlers/x.py", "from bot.settings import Settings\n", False),
        ("handlers/x.py", "from scheduler.core import water_plan\n", True),
        ("handlers/x.py", "from scheduler import water_plan\n", False),  # the folder decides
        ("handlers/x.py", "from services import rules\n", True),
        ("handlers/x.py", "import aiohttp\n", False),
        ("services/x.py", "from handlers import texts\n", False),
        ("services/x.py", "from scheduler.channels.webhook import WebhookChannel\n", False),
        ("services/x.py", "from scheduler.core.channel import SendResult\n", True),
        ("services/x.py", "from storage.repos import jobs\n", True),
        ("services/x.py", "from sqlalchemy import select\n", False),
        ("scheduler/core/schedule.py", "from storage.repos import rules\n", False),
        ("scheduler/core/schedule.py", "from services import water\n", False),
        ("scheduler/core/schedule.py", "from storage.records import RuleRecord\n", True),
        ("scheduler/core/schedule.py", "from storage.vocabulary import JobStatus\n", True),
        ("scheduler/core/x.py", "from scheduler import tick\n", False),
        ("scheduler/core/x.py", "from scheduler.channels import wecom_errors\n", False),
        ("scheduler/core/x.py", "from .. import delivery\n", False),
        ("scheduler/core/x.py", "from . import times\n", True),
        ("scheduler/core/x.py", "import aiohttp\n", False),
        ("scheduler/core/x.py", "import time\n", False),
        ("scheduler/core/x.py", "import datetime as dt; NOW = dt.datetime.now(dt.UTC)\n", False),
        ("scheduler/core/x.py", "import datetime as dt; DAY = dt.date.today()\n", False),
        ("scheduler/x.py", "import datetime as dt; NOW = dt.datetime.now(dt.UTC)\n", True),
        ("scheduler/core/x.py", "from storage.secret_box import seal_secret\n", False),
        ("scheduler/core/x.py", "import datetime as dt\n", True),
        ("scheduler/core/x.py", "from apscheduler.triggers.cron import CronTrigger\n", True),
        ("scheduler/tick.py", "from services import water\n", True),
        ("scheduler/tick.py", "from scheduler.core import outcomes\n", True),
        ("scheduler/tick.py", "from handlers import texts\n", False),
        ("scheduler/channels/x.py", "import aiohttp\n", True),
        ("storage/repos/x.py", "from scheduler.core import job_state\n", False),
        ("storage/repos/x.py", "from .numbers import smallest_free\n", True),
        ("bot/x.py", "from scheduler.tick import tick\n", True),
    ],
)
def test_the_direction_check_catches_an_import_against_it(
    tmp_path: pathlib.Path,
    file: str,
    source: str,
    allowed: bool,
) -> None:
    path = tmp_path / file
    path.parent.mkdir(parents=True)
    path.write_text(source)
    found = violations([path], tmp_path)
    if allowed:
        assert found == []
    else:
        assert len(found) == 1
        assert found[0].startswith(f"{file}:1: ")
