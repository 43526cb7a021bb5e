"""Imports point one way (DESIGN §1): a test that fails on one against the direction.

Every module of the five packages is parsed with `ast` (nothing is imported, so a
module's own import-time work cannot hide or fake anything) and sorted into a layer:

- `bot`: the process edge and composition root; may import every layer.
- `handlers`: the conversation; imports handlers, services, the pure scheduler core
  and storage.
- `services`: the writers that keep several records in step; import services, the
  pure scheduler core and storage.
- `scheduler shell`: the tick's steps and what they drive; import scheduler (core and
  shells), services and storage.
- `scheduler core`: pure; imports only the core, `storage.records` and
  `storage.vocabulary` (plain values: the record types and every status and kind).
- `storage`: imports only storage.

Nothing but `bot` imports `bot` (settings are built there and handed down).

Which scheduler modules are the pure core, and why (everything else in `scheduler/`
is a shell, and a module in neither list fails `test_every_scheduler_module_is_placed`
until someone decides):

- `times`, `cards`, `messages`, `digests`, `failure_words`, `review`, `review_text`:
  plain values to findings, text and card payloads, no I/O.
- `job_state`, `rule_state`, `water_plan`, `incidents`: state machines over plain
  values (`incidents` also composes the admins' alert text).
- `schedule`, `water_rule`, `reminder_rules`, `rule_kinds`, `quiet`: times and
  policies computed from values passed in (`now` included); APScheduler's trigger
  only as a calculator.
- `liveness`: whether a scheduler ticks, from a heartbeat's age passed in.
- `nag`: a nag's repeat slots, verdicts and words from values passed in (`now` too).
- `redact`: string masking; its one piece of state is the mask key set at start-up.
- `user_ids`: finding known UserIDs in a text; its state is the known set, which the
  shells (the tick, the admin page) fill with what they read.
- `fallback`: where a user's reminder goes and its one fallback, from plain values.
- `retention_policy`: which rows the daily retention run may delete, from plain
  values (the cutoff computed from a `now` passed in).

The shells, and why they are not core: `tick`, `delivery`, `kinds`, `water_kind`,
`reminder_kinds`, `alert_kind`, `nag_kind`, `incident_watch`, `watchdog`, `runtime`, `retention_job` run statements through storage's repositories and
drive the channels; `channels/*` talk HTTP or hold token caches (their tables and
result types live with them); `outcomes` draws random jitter and reads the
channels' result type; `clock` reads the wall clock; `stats` holds the process's
mutable counters; `enterprise` reserves the shared WeCom budget through storage;
`send_window` runs sends as asyncio tasks; `routing` reads the users' receivers
and reroutes jobs through storage.
"""

from __future__ import annotations

import ast
import pathlib
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "handlers", "services", "scheduler", "storage")

CORE = frozenset(
    f"scheduler.{name}"
    for name in (
        "backup_schedule",
        "cards",
        "digests",
        "failure_words",
        "incidents",
        "job_state",
        "liveness",
        "messages",
        "nag",
        "quiet",
        "redact",
        "user_ids",
        "reminder_rules",
        "review",
        "review_text",
        "rule_kinds",
        "rule_state",
        "schedule",
        "times",
        "water_plan",
        "water_rule",
        "fallback",
        "retention_policy",
    )
)
SHELLS = frozenset(
    f"scheduler.{name}"
    for name in (
        "backup_job",
        "clock",
        "alert_kind",
        "delivery",
        "enterprise",
        "incident_watch",
        "watchdog",
        "kinds",
        "outcomes",
        "reminder_kinds",
        "runtime",
        "send_window",
        "stats",
        "tick",
        "water_kind",
        "routing",
        "nag_kind",
        "retention_job",
    )
)

BOT, HANDLERS, SERVICES, SHELL, CORE_LAYER, STORAGE, RECORDS = (
    "bot",
    "handlers",
    "services",
    "scheduler shell",
    "scheduler core",
    "storage",
    "storage.records",
)

ALLOWED: dict[str, frozenset[str]] = {
    BOT: frozenset({BOT, HANDLERS, SERVICES, SHELL, CORE_LAYER, STORAGE, RECORDS}),
    HANDLERS: frozenset({HANDLERS, SERVICES, CORE_LAYER, STORAGE, RECORDS}),
    SERVICES: frozenset({SERVICES, CORE_LAYER, STORAGE, RECORDS}),
    SHELL: frozenset({SHELL, CORE_LAYER, SERVICES, STORAGE, RECORDS}),
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
        if module == "scheduler":
            return CORE_LAYER  # `from scheduler import x`: x is judged on its own
        if module.startswith("scheduler.channels") or _within(module, SHELLS):
            return SHELL
        if _within(module, CORE):
            return CORE_LAYER
        return SHELL
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
            if target is not None and target not in ALLOWED[source]:
                found.append(f"{imp.file}:{imp.line}: {source} imports {imp.module} ({target})")
    return found


def test_imports_point_one_way() -> None:
    found = violations(our_files())
    assert not found, "imports against the direction:\n" + "\n".join(found)


def test_every_scheduler_module_is_placed() -> None:
    modules = {module_name(p) for p in (ROOT / "scheduler").glob("*.py")} - {"scheduler"}
    assert modules - CORE - SHELLS == set()
    assert (CORE | SHELLS) - modules == set(), "a listed module no longer exists"


@pytest.mark.parametrize(
    ("file", "source", "allowed"),
    [
        ("handlers/x.py", "from scheduler import tick\n", False),
        ("handlers/x.py", "from scheduler.water_kind import WaterKind\n", False),
        ("handlers/x.py", "import scheduler.delivery\n", False),
        ("handlers/x.py", "from bot.settings import Settings\n", False),
        ("handlers/x.py", "from scheduler import water_plan\n", True),
        ("handlers/x.py", "from services import rules\n", True),
        ("services/x.py", "from handlers import texts\n", False),
        ("services/x.py", "from scheduler.channels.base import SendResult\n", False),
        ("services/x.py", "from storage.repos import jobs\n", True),
        ("scheduler/schedule.py", "from storage.repos import rules\n", False),
        ("scheduler/schedule.py", "from services import water\n", False),
        ("scheduler/schedule.py", "from storage.records import RuleRecord\n", True),
        ("scheduler/tick.py", "from services import water\n", True),
        ("scheduler/tick.py", "from handlers import texts\n", False),
        ("storage/repos/x.py", "from scheduler import job_state\n", False),
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
