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


@pytest.mark.parametrize("row", ROWS, ids=[row.id for row in ROWS])
def test_phrasing(row: Row, parse: Any) -> None:
    result = parse_text(row.text, parse)
    ok = passes(row, result)
    assert ok, f"{row.text!r}: got {describe(result)}, expected {row.raw['expect']}"


def test_a_round_has_been_joined() -> None:
    assert JOINED, "tests/corpus/rounds/round-*.jsonl: the joined fresh rounds"


@pytest.mark.parametrize("row", JOINED, ids=[row.id for row in JOINED])
def test_joined_round_phrasing(row: Row, parse: Any) -> None:
    result = parse_text(row.text, parse)
    ok = passes(row, result)
    assert ok, f"{row.text!r}: got {describe(result)}, expected {row.raw['expect']}"


@pytest.mark.parametrize("text", NEVER, ids=[f"never-{n:03d}" for n in range(1, len(NEVER) + 1)])
def test_never_records(text: str, parse: Any) -> None:
    result = parse_text(text, parse)
    if type(result).__name__ == "WriteJournal" and text.startswith(JOURNAL_WORDS):
        return
    recorded = is_record(result)
    assert not recorded, f"{text!r} made a record: {describe(result)}"
