"""One row per rule kind (scheduler/core/rule_kinds.py): every kind has exactly one,
every place that decides per kind agrees with it, and the module's table says what
the rows say. A row changed in one place only fails here."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping
from types import MappingProxyType

import pytest

from bot.scheduling import all_kinds
from handlers import reminders as reminder_handlers
from handlers import texts
from scheduler.core import fallback, quiet, rule_kinds
from scheduler.core.quiet import Move, during_quiet
from scheduler.core.rule_kinds import ROWS, KindRow, kinds_where, row
from scheduler.core.texts.rules import RULE_KIND_NAMES
from scheduler.reminder_kinds import OneOffKind, RecurringKind
from storage import vocabulary
from storage.records import RuleRecord
from storage.vocabulary import DeliveryPolicy, Priority, RuleKind

NOW = dt.datetime(2026, 12, 1, 14, 0, tzinfo=dt.UTC)
LATER = NOW + dt.timedelta(hours=2)


def test_every_kind_has_exactly_one_row_under_its_own_name() -> None:
    assert set(ROWS) == set(RuleKind)
    assert all(found.kind is key for key, found in ROWS.items())
    assert all(isinstance(found, KindRow) for found in ROWS.values())


def test_a_second_row_of_a_kind_or_a_row_without_one_stops_the_table() -> None:
    water = ROWS[RuleKind.WATER]
    with pytest.raises(ValueError, match="one row per rule kind"):
        rule_kinds._by_kind(water, dataclasses.replace(water, quiet="suppress"))
    with pytest.raises(ValueError, match="one row per rule kind"):
        rule_kinds._by_kind(rule_kinds.UNLISTED)


def test_a_row_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        ROWS[RuleKind.NAG].quiet = "move"  # type: ignore[misc]


def test_a_kind_not_in_the_table_is_a_plain_reminder() -> None:
    assert row("plain") is rule_kinds.UNLISTED
    assert row(RuleKind.CUSTOM) is ROWS[RuleKind.CUSTOM]
    # As before the table: told when missed or failed, routed, and only high passes quiet.
    assert during_quiet("plain", Priority.HIGH, LATER, NOW) == "send"
    assert during_quiet("plain", Priority.NORMAL, LATER, NOW) == Move(until=LATER)
    assert rule_kinds.UNLISTED.told_expired
    assert rule_kinds.UNLISTED.told_failed
    assert rule_kinds.UNLISTED.routed


@pytest.mark.parametrize(
    ("storage_set", "fact", "value"),
    [
        (vocabulary.UNTOLD_EXPIRED, "told_expired", False),
        (vocabulary.UNTOLD_FAILED, "told_failed", False),
        (vocabulary.NEVER_EARLY, "early_companion", False),
        (vocabulary.RUNS_OUT, "runs_out", True),
        (vocabulary.UNBUDGETED, "budgeted", False),
        (fallback.NOT_ROUTED, "routed", False),
    ],
    ids=["untold-expired", "untold-failed", "never-early", "runs-out", "unbudgeted", "not-routed"],
)
def test_the_kind_sets_queries_filter_by_are_what_the_rows_say(
    storage_set: tuple[RuleKind, ...] | frozenset[RuleKind], fact: str, value: bool
) -> None:
    assert len(set(storage_set)) == len(storage_set)
    assert set(storage_set) == kinds_where(fact, value)


def test_the_tick_runs_each_kind_as_its_row_says() -> None:
    ran = all_kinds()
    assert set(ran) == set(RuleKind)
    for kind, found in ROWS.items():
        shape = type(ran[kind])
        expected = {"recurring": RecurringKind, "one_off": OneOffKind}.get(found.runs_as)
        if expected is None:
            assert shape not in (RecurringKind, OneOffKind), kind
        else:
            assert shape is expected, kind


def test_every_kind_that_cannot_be_deleted_says_how_to_switch_it_off() -> None:
    assert set(texts.NOT_DELETABLE) == kinds_where("deletable", False)


def test_labels_come_from_the_texts() -> None:
    for kind, found in ROWS.items():
        assert found.label == RULE_KIND_NAMES.get(kind, kind)
    assert set(RULE_KIND_NAMES) == set(RuleKind) - {RuleKind.CARD_UPDATE}


def test_only_kinds_with_important_terms_can_be_marked_important() -> None:
    for kind, found in ROWS.items():
        if found.important is None:
            with pytest.raises(ValueError, match="only custom"):
                rule_kinds.terms(kind, important=True)
        else:
            assert rule_kinds.terms(kind, important=True) is found.important
        assert rule_kinds.terms(kind) is found.terms is rule_kinds.TERMS[kind]


def _expected_quiet(found: KindRow, priority: Priority) -> quiet.Decision:
    if found.high_sends_in_quiet and priority is Priority.HIGH:
        return "send"
    return Move(until=LATER) if found.quiet == "move" else "suppress"


@pytest.mark.parametrize("kind", list(RuleKind))
@pytest.mark.parametrize("priority", list(Priority))
def test_quiet_time_does_what_the_row_says(kind: RuleKind, priority: Priority) -> None:
    assert during_quiet(kind, priority, LATER, NOW) == _expected_quiet(ROWS[kind], priority)


def _planted(kind: RuleKind, **facts: object) -> Mapping[RuleKind, KindRow]:
    changed = dict(ROWS)
    changed[kind] = dataclasses.replace(ROWS[kind], **facts)  # type: ignore[arg-type]
    return MappingProxyType(changed)


def test_the_places_read_the_row_not_a_list_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    water = RuleRecord(
        id=1,
        user_id=1,
        kind=RuleKind.WATER,
        status=vocabulary.RuleStatus.ACTIVE,
        policy=DeliveryPolicy.AT_MOST_ONCE,
        priority=Priority.LOW,
        channel="wecom_app",
        next_fire_at=None,
        spec="",
    )
    assert during_quiet(RuleKind.WATER, Priority.LOW, LATER, NOW) == Move(until=LATER)
    assert not reminder_handlers._deletable(water)
    monkeypatch.setattr(
        rule_kinds, "ROWS", _planted(RuleKind.WATER, quiet="suppress", deletable=True)
    )
    assert during_quiet(RuleKind.WATER, Priority.LOW, LATER, NOW) == "suppress"
    assert reminder_handlers._deletable(water)


def _docstring_table() -> list[list[str]]:
    """The first table of the module docstring: its rows' cells, header and rule left out."""
    doc = rule_kinds.__doc__ or ""
    table = doc.split("\n\n")[1]
    lines = [line for line in table.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def _table_kinds(cell: str) -> tuple[list[RuleKind], bool]:
    """The kinds a table row speaks of, and whether it is their 重要 variant."""
    if "marked" in cell:
        return [RuleKind(cell.split(",")[0].split(" ")[0])], True
    return [RuleKind(part.split(" ")[0]) for part in cell.split(", ")], False


QUIET_WORDS: dict[str, quiet.Decision] = {
    "sent": "send",
    "dropped": "suppress",
    "moved": Move(until=LATER),
}


def test_the_module_table_says_what_the_rows_say() -> None:
    table = _docstring_table()
    spoken: set[RuleKind] = set()
    for kinds_cell, policy, priority, catch_up, in_quiet, _why in table:
        kinds, important = _table_kinds(kinds_cell)
        for kind in kinds:
            spoken.add(kind)
            found = rule_kinds.terms(kind, important=important)
            assert (found.policy, found.priority) == (policy, priority), kinds_cell
            minutes = re.fullmatch(r"(\d+) min", catch_up)
            assert minutes is not None, catch_up
            assert found.catch_up == dt.timedelta(minutes=int(minutes[1])), kinds_cell
            decided = during_quiet(kind, found.priority, LATER, NOW)
            assert decided == QUIET_WORDS[in_quiet], kinds_cell
    assert spoken == set(RuleKind)
