"""Each word table of the parser's lexicon is defined once (issue 19).

The lexicon grows one table at a time; a second `NAME = (...)` further down silently
replaces the first and every reader of it changes meaning (a filler list once
replaced the nag's interjections this way). Extending a table is `NAME += (...)`.
"""

from __future__ import annotations

import ast
import pathlib

PARSE = pathlib.Path(__file__).resolve().parents[2] / "handlers" / "parse"
LEXICON = PARSE / "lexicon.py"
PATTERNS = PARSE / "patterns.py"
"""The readers' own words and pattern sources (issue 21): the same rule holds there."""


def assigned_twice(source: str) -> list[str]:
    """The module-level names that plain (not augmented) assignments bind twice."""
    seen: set[str] = set()
    twice: list[str] = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                if target.id in seen:
                    twice.append(target.id)
                seen.add(target.id)
    return twice


def test_every_lexicon_table_is_defined_once() -> None:
    assert assigned_twice(LEXICON.read_text(encoding="utf-8")) == []


def test_every_pattern_table_is_defined_once_and_not_in_the_lexicon() -> None:
    """A reader importing both modules must not get two meanings of one name."""
    both = LEXICON.read_text(encoding="utf-8") + "\n" + PATTERNS.read_text(encoding="utf-8")
    assert assigned_twice(both) == []


def test_the_check_catches_a_table_defined_again() -> None:
    planted = 'WORDS = ("a",)\nWORDS += ("b",)\nOTHER: tuple[str, ...] = ()\nWORDS = ("c",)\n'
    assert assigned_twice(planted) == ["WORDS"]
