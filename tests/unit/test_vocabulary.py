"""Every status and kind is a member of `storage.vocabulary`: a test that fails on one
written out as a string anywhere else.

Every module of the five packages is parsed with `ast` (nothing is imported), except
`storage/vocabulary.py` itself and `storage/migrations/` (a migration is history: it
keeps the words as they were when it was written). A string literal is a violation
when its value is a value of a vocabulary enum and it stands where that enum is meant:

1. Compared: an operand of `==`, `!=`, `in` or `not in` (itself, an element of a
   tuple, list or set literal there, or a branch of a conditional expression; the
   same holds for the places below) when another operand of the comparison names a
   *subject* of that enum (`job.status == "expired"`, `kind in ("water", "nag")`).
2. In SQL: an argument (or an element of one) of `.in_()` or `.not_in()` called on a
   subject (`JOBS.c.status.in_(("pending", "retry_wait"))`).
3. Passed or stored under a subject's name: a keyword argument (`status="expired"`,
   `.values(state="invalid")`), a dict entry with the subject as its key
   (`{"status": "pending"}`), a parameter's default, or the value assigned to a name
   or attribute (`status = "done"`).
4. Looked up in a mapping named for a subject: `by_outcome.get("accepted", 0)`,
   `per_status["expired"]`.
5. Grouped: a tuple, list or set literal, or the keys of a dict literal, of two or
   more strings that are all values of one and the same enum (`("pending",
   "retry_wait")`, `Literal["failed", "unknown"]`, `{"failed": ..., "unknown": ...}`):
   a set of statuses, whatever the variable holding it is called.

An expression *names* a subject when its last name (a variable, parameter or
attribute; a string subscript such as `row["status"]`; the key of `.get("status")`)
is one of the enum's subjects in `SUBJECTS`, or ends in `_` followed by one
(`payload_kind`, `final_status`). Each enum has its own subjects, so a common word in
another sense is left alone: `"done"` is a rule status only next to a `status`, and a
card's `action == "done"` or a water event's `EventKind.ACCEPTED = "accepted"` are not
statuses. What this cannot see (a literal returned, or passed by position) is left
to review, and to mypy where a signature takes the enum (`SendResult`, `Rule`,
`CardAction`, the water plan's `PauseCause`).

`test_the_check_catches_a_planted_status` shows each kind of violation caught, and
each kind of look-alike let through.
"""

from __future__ import annotations

import ast
import inspect
import pathlib
from collections.abc import Iterator
from enum import StrEnum

import pytest

from storage import vocabulary as v

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "handlers", "services", "scheduler", "storage")
EXEMPT = ("storage/vocabulary.py", "storage/migrations/")

SUBJECTS: dict[type[StrEnum], frozenset[str]] = {
    v.RuleKind: frozenset({"kind"}),
    v.RuleStatus: frozenset({"status"}),
    v.JobStatus: frozenset({"status"}),
    v.DeliveryPolicy: frozenset({"policy"}),
    v.Priority: frozenset({"priority"}),
    v.AttemptOutcome: frozenset({"outcome", "status"}),
    v.ErrorClass: frozenset({"error_class"}),
    v.Evidence: frozenset({"settled", "evidence"}),
    v.DeliveryEvidence: frozenset({"evidence", "seen"}),
    v.EffectKind: frozenset({"kind"}),
    v.MeasurementKind: frozenset({"kind"}),
    v.LedgerDirection: frozenset({"direction"}),
    v.TaskStatus: frozenset({"status"}),
    v.EventStatus: frozenset({"status"}),
    v.PlanState: frozenset({"state"}),
    v.GrantStatus: frozenset({"state", "status"}),
    v.GrantResult: frozenset({"result", "answer"}),
    v.CardKind: frozenset({"kind"}),
    v.IncidentKind: frozenset({"kind"}),
    v.ChannelRole: frozenset({"role"}),
    v.LinkPurpose: frozenset({"purpose"}),
    v.LinkRefusal: frozenset({"refusal"}),
    v.CountSubject: frozenset({"subject"}),
    v.SealKey: frozenset({"sealed_under"}),
}
"""The names under which each enum's values stand: its columns and fields."""

SQL_MEMBERSHIP = frozenset({"in_", "not_in", "notin_"})
COLLECTIONS = frozenset({"frozenset", "set", "tuple"})


def vocabulary() -> list[type[StrEnum]]:
    return [
        obj
        for _, obj in inspect.getmembers(v, inspect.isclass)
        if issubclass(obj, StrEnum) and obj.__module__ == v.__name__
    ]


def _words(subject: str | None) -> frozenset[str]:
    """The vocabulary's values that may stand for `subject` (none: not a subject)."""
    if subject is None:
        return frozenset()
    return frozenset(
        member.value
        for enum, names in SUBJECTS.items()
        if any(subject == n or subject.endswith("_" + n) for n in names)
        for member in enum
    )


def subject_of(node: ast.expr) -> str | None:
    """The last name of an expression: `x`, `a.b.x`, `row["x"]`, `d.get("x")`."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript):
        key = node.slice
        return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        first = node.args[0] if node.args else None
        if node.func.attr == "get" and isinstance(first, ast.Constant):
            return first.value if isinstance(first.value, str) else None
    return None


def literals(node: ast.expr | None) -> Iterator[ast.Constant]:
    """The string literal `node` is, those among the elements of a collection literal,
    or those either branch of a conditional expression gives."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, ast.IfExp):
        yield from literals(node.body)
        yield from literals(node.orelse)
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for element in node.elts:
            yield from literals(element)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
        yield from literals(node.args[0]) if node.func.id in COLLECTIONS else ()


def _placed(node: ast.AST) -> Iterator[tuple[ast.Constant, str | None]]:
    """(literal, the subject it stands for) for rules 1 to 4."""
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for i, operand in enumerate(operands):
            for other in operands[:i] + operands[i + 1 :]:
                for literal in literals(operand):
                    yield literal, subject_of(other)
    elif isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in SQL_MEMBERSHIP:
            for arg in node.args:
                for literal in literals(arg):
                    yield literal, subject_of(func.value)
        if isinstance(func, ast.Attribute) and func.attr == "get" and node.args:
            for literal in literals(node.args[0]):
                yield literal, subject_of(func.value)
        for keyword in node.keywords:
            for literal in literals(keyword.value):
                yield literal, keyword.arg
    elif isinstance(node, ast.Subscript):
        for literal in literals(node.slice):
            yield literal, subject_of(node.value)
    elif isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                for literal in literals(value):
                    yield literal, key.value
    elif isinstance(node, ast.arguments):
        named = [*node.posonlyargs, *node.args]
        pairs = [*zip(named[len(named) - len(node.defaults) :], node.defaults, strict=True)]
        pairs += [(a, d) for a, d in zip(node.kwonlyargs, node.kw_defaults, strict=True) if d]
        for arg, default in pairs:
            for literal in literals(default):
                yield literal, arg.arg
    elif isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for literal in literals(node.value):
                yield literal, subject_of(target)


def _grouped(node: ast.AST) -> list[str]:
    """Rule 5: two or more string literals, all values of one enum (else empty)."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        elements: list[ast.expr | None] = list(node.elts)
    elif isinstance(node, ast.Dict):
        elements = list(node.keys)
    else:
        return []
    values = [e.value for e in elements if isinstance(e, ast.Constant)]
    if len(elements) < 2 or len(values) != len(elements):
        return []
    if not all(isinstance(x, str) for x in values):
        return []
    if any(set(values) <= {m.value for m in enum} for enum in vocabulary()):
        return values
    return []


def violations(files: list[pathlib.Path], root: pathlib.Path = ROOT) -> list[str]:
    """One line per source line writing out a status or kind: file, line and words."""
    found: dict[tuple[str, int], set[str]] = {}
    for path in files:
        rel = path.relative_to(root).as_posix()
        if rel.startswith(EXEMPT):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        for node in ast.walk(tree):
            for literal, subject in _placed(node):
                if literal.value in _words(subject):
                    found.setdefault((rel, literal.lineno), set()).add(
                        f"{literal.value!r} as {subject}"
                    )
            if words := _grouped(node):
                found.setdefault((rel, node.lineno), set()).add(f"{tuple(words)} grouped")
    return [
        f"{file}:{line}: {'; '.join(sorted(what))}" for (file, line), what in sorted(found.items())
    ]


def our_files() -> list[pathlib.Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_no_status_or_kind_is_written_out_as_a_string() -> None:
    found = violations(our_files())
    assert not found, "use the storage.vocabulary enum instead:\n" + "\n".join(found)


def test_every_vocabulary_enum_has_its_subjects() -> None:
    assert set(vocabulary()) == set(SUBJECTS)


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        # 1. compared
        ('if job.status == "expired":\n    pass\n', True),
        ('ok = "accepted" != result.outcome\n', True),
        ('ok = kind in ("water", "nag")\n', True),
        ('ok = row["status"] == "pending"\n', True),
        ('ok = body.get("state") == "paused"\n', True),
        ('ok = job.payload_kind == "nag"\n', True),
        # 2. in SQL
        ('q = JOBS.c.status.in_(("pending",))\n', True),
        ('q = RULES.c.status.not_in(["deleted"])\n', True),
        # 3. passed or stored under the subject's name
        ('stmt = update(JOBS).values(status="expired")\n', True),
        ('row = {"state": "available", "job_id": None}\n', True),
        ('def f(status: str = "pending") -> None:\n    pass\n', True),
        ('final_status = "failed"\n', True),
        ('status = "cancelled" if off else "suppressed"\n', True),
        ('effect = Effect(kind="ledger", record_id=1)\n', True),
        # 4. looked up in a mapping named for a subject
        ('n = by_outcome.get("accepted", 0)\n', True),
        ('n = per_status["expired"]\n', True),
        # 5. grouped
        ('WAITING = ("pending", "retry_wait")\n', True),
        ('Cause = Literal["failed", "unknown"]\n', True),
        ('WORDS = {"failed": "没发出", "unknown": "可能没收到"}\n', True),
        # the enum instead: fine
        ("if job.status == JobStatus.EXPIRED:\n    pass\n", False),
        ("q = JOBS.c.status.in_(CLAIMABLE)\n", False),
        # a common word in another sense: not a status
        ('ok = action.action == "done"\n', False),
        ('ok = msg.kind == "text"\n', False),
        ('ok = settings.scheduler == "off"\n', False),
        ('BUTTONS = {("water", "done"): "喝了"}\n', False),
        ('ok = health == "stopped"\n', False),
        ('fault = Fault(kind="status", code=500)\n', False),
        ("ACCEPTED = 'accepted'  # an event of a machine, not a status\n", False),
        ('ok = job.status == "weight"\n', False),
        ('ACTIONS = ("done", "later")\n', False),
        ('n = counts.get("accepted", 0)\n', False),
        ('x = parts["water"]\n', False),
        ('WORDS = {"failed": "没发出", "later": "稍后"}\n', False),
    ],
)
def test_the_check_catches_a_planted_status(
    tmp_path: pathlib.Path, source: str, caught: bool
) -> None:
    path = tmp_path / "handlers" / "x.py"
    path.parent.mkdir(parents=True)
    path.write_text(source)
    found = violations([path], tmp_path)
    if caught:
        assert len(found) == 1, found
        assert found[0].startswith("handlers/x.py:1: ")
    else:
        assert found == []


def test_the_vocabulary_module_and_migrations_are_exempt(tmp_path: pathlib.Path) -> None:
    for name in ("storage/vocabulary.py", "storage/migrations/versions/0001_x.py"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('ok = job.status == "expired"\n')
        assert violations([path], tmp_path) == []
