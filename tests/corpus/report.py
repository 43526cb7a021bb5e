"""Coverage and precision of the parser on the phrasing corpus, per category.

Run as `python tests/corpus/report.py` (from the repository root, in the venv). Prints a
table, then one JSON line with the same numbers. `--rows` also lists every row that is
not understood (id, text, what the parser said).

Per category: rows; understood (exactly what the row expects: the command, the right
guess for an `ask` row, a miss for a `miss` row); asked (a question that is not exactly
the expectation); missed (a ParseError where something else was expected); wrong (a
command that is not the expectation, including acting without asking on an `ask`
row). coverage = understood / rows. precision = correct commands / commands the parser
acted on without asking (for the record categories: correct records / records made).
The never-record list: how many lines made a record (must be 0).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `tests` and `handlers` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from handlers.commands import ParseError
from tests.corpus.load import (
    CATEGORIES,
    JOURNAL_WORDS,
    Row,
    describe,
    is_confirm,
    is_record,
    load_never_record,
    load_rows,
    outcome,
    parse_text,
    parser,
)


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"


def measure(rows: list[Row], never: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The numbers per category and overall, and one line per row not understood."""
    parse = parser()
    counts: dict[str, Counter[str]] = {category: Counter() for category in CATEGORIES}
    details: list[str] = []
    for row in rows:
        result = parse_text(row.text, parse)
        verdict = outcome(row, result)
        tally = counts[row.category]
        tally["rows"] += 1
        tally[verdict] += 1
        if not isinstance(result, ParseError) and not is_confirm(result):
            tally["acted"] += 1
            tally["acted_correct"] += verdict == "understood"
        if verdict != "understood":
            gap = f" [gap: {row.gap}]" if row.gap else ""
            details.append(f"{row.id}\t{verdict}\t{row.text}\t{describe(result)}{gap}")
    never_records = []
    for text in never:
        result = parse_text(text, parse)
        journal = type(result).__name__ == "WriteJournal" and text.startswith(JOURNAL_WORDS)
        if is_record(result) and not journal:
            never_records.append(f"{text} -> {describe(result)}")
    table: dict[str, Any] = {}
    total: Counter[str] = Counter()
    for category, tally in counts.items():
        total.update(tally)
        table[category] = _summary(tally)
    report = {
        "categories": table,
        "total": _summary(total),
        "never_record": {"lines": len(never), "recorded": len(never_records)},
    }
    details.extend(f"never-record made a record: {line}" for line in never_records)
    return report, details


def _summary(tally: Counter[str]) -> dict[str, Any]:
    return {
        "rows": tally["rows"],
        "understood": tally["understood"],
        "asked": tally["asked"],
        "missed": tally["missed"],
        "wrong": tally["wrong"],
        "coverage": _ratio(tally["understood"], tally["rows"]),
        "precision": _ratio(tally["acted_correct"], tally["acted"]),
    }


def render(report: dict[str, Any]) -> str:
    """The human table."""
    head = f"{'category':<15}{'rows':>6}{'ok':>6}{'asked':>7}{'missed':>8}{'wrong':>7}"
    head += f"{'coverage':>10}{'precision':>11}"
    lines = [head, "-" * len(head)]
    items = [*report["categories"].items(), ("total", report["total"])]
    for name, numbers in items:
        if name == "total":
            lines.append("-" * len(head))
        lines.append(
            f"{name:<15}{numbers['rows']:>6}{numbers['understood']:>6}{numbers['asked']:>7}"
            f"{numbers['missed']:>8}{numbers['wrong']:>7}"
            f"{_percent(numbers['coverage']):>10}{_percent(numbers['precision']):>11}"
        )
    never = report["never_record"]
    lines.append(f"never-record: {never['lines']} lines, {never['recorded']} made a record")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    report, details = measure(load_rows(), load_never_record())
    out = sys.stdout
    if "--rows" in argv:
        out.write("\n".join(details) + "\n\n")
    out.write(render(report) + "\n")
    out.write(json.dumps(report, ensure_ascii=False, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
