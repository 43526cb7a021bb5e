"""The phrasing corpus of issue 9 as tests: every row parses to what it expects, and
no line of the must-never-record list makes a record (data in `tests/corpus/`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus.load import (
    CATEGORIES,
    JOURNAL_WORDS,
    Row,
    describe,
    is_record,
    load_never_record,
    load_rows,
    parse_text,
    parser,
    passes,
)
from tests.corpus.rounds import load_round, round_files

ROWS = load_rows()
NEVER = load_never_record()
JOINED = [row for path in round_files() for row in load_round(path)]
"""Fresh rounds already tuned on and joined (issue 19): they pass like any row."""
MIN_ROWS = 650
MIN_NEVER = 120


@pytest.fixture(scope="module")
def parse() -> Any:
    return parser()


def test_the_corpus_is_well_formed() -> None:
    """load_rows already refused bad rows; here: enough of them, in every category."""
    assert len(ROWS) >= MIN_ROWS
    assert {row.category for row in ROWS} == set(CATEGORIES)
    texts = [(row.category, row.text) for row in ROWS]
    assert len(texts) == len(set(texts)), "a phrasing is listed twice in one category"
    assert len(NEVER) >= MIN_NEVER
    assert len(NEVER) == len(set(NEVER)), "a never-record line is listed twice"


BY_CATEGORY = {
    category: [row for row in ROWS if row.category == category] for category in CATEGORIES
}
BY_ROUND = {path.stem: load_round(path) for path in round_files()}


def _failures(rows: list[Row], parse: Any) -> list[str]:
    """Every row of `rows` that does not parse to what it expects, one line each."""
    failed = []
    for row in rows:
        result = parse_text(row.text, parse)
        if not passes(row, result):
            failed.append(
                f"{row.id} {row.text!r}: got {describe(result)}, expected {row.raw['expect']}"
            )
    return failed


# One test per category and per round, not per row: the corpus holds about 8,900 rows,
# and pytest's own cost per item was most of CI's time for them (each parse is ~0.1 ms).
# A failure lists every failing row with its id, as the per-row tests did.
@pytest.mark.parametrize("category", sorted(BY_CATEGORY))
def test_phrasings_of_a_category(category: str, parse: Any) -> None:
    failed = _failures(BY_CATEGORY[category], parse)
    assert not failed, "\n".join(failed)


def test_a_round_has_been_joined() -> None:
    assert JOINED, "tests/corpus/rounds/round-*.jsonl: the joined fresh rounds"


@pytest.mark.parametrize("name", sorted(BY_ROUND))
def test_joined_round_phrasings(name: str, parse: Any) -> None:
    failed = _failures(BY_ROUND[name], parse)
    assert not failed, "\n".join(failed)


def test_no_never_record_line_makes_a_record(parse: Any) -> None:
    recorded = []
    for number, text in enumerate(NEVER, start=1):
        result = parse_text(text, parse)
        if type(result).__name__ == "WriteJournal" and text.startswith(JOURNAL_WORDS):
            continue
        if is_record(result):
            recorded.append(f"never-{number:03d} {text!r} made a record: {describe(result)}")
    assert not recorded, "\n".join(recorded)
