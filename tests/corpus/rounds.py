"""Score a fresh round of phrasings by area (issue 19), before any tuning.

A round is a JSON Lines file written by someone who has not read the parser or the
corpus (`tests/corpus/rounds/README.md` says how rounds are made). Each line is a
corpus row with an `area` (see `load.AREAS`); `id` may be left out, and is then made
from the category, the round's name and the line number.

    python tests/corpus/rounds.py tests/corpus/rounds/round-04.jsonl [--rows]

prints the table per area, then one JSON line. Per area: rows; understood (exactly
what the row expects); asked right (a question whose guess is the expected command:
not counted as understood, but not a failure of precision either); asked (another
question); missed (a ParseError where something else was expected); wrong (a command
that is not the expectation); wrong records (of those, the ones that would have
written a fact: the figure that must stay 0).

Every round already joined is also part of the corpus test (`tests/unit/test_corpus.py`
loads `rounds/*.jsonl`), so after its tuning a round must pass like any corpus row.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make `tests` and `handlers` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.corpus.load import (
    AREAS,
    CorpusError,
    Row,
    describe,
    is_confirm,
    is_record,
    matches,
    outcome,
    parse_text,
    parser,
    read_rows,
    row_from,
)

ROUNDS_DIR = Path(__file__).resolve().parent / "rounds"


def load_round(path: Path) -> list[Row]:
    """The rows of one round file; an `id` is made for a row without one."""

    def make(data: Any, number: int) -> Row:
        if not isinstance(data, dict):
            raise CorpusError("a row is a JSON object")
        data.setdefault("id", f"{data.get('category')}-{path.stem}-{number:03d}")
        if data.get("area") is None:
            raise CorpusError("a round row names its area")
        return _lenient_row(data, number)

    return read_rows(path, make)


_BAD_FIELD = re.compile(r"^(?P<cmd>[A-Za-z]+)\.(?P<field>[a-z_]+)\b")


def _lenient_row(data: dict[str, Any], number: int) -> Row:
    """A fresh row as written; a field whose value cannot be the command's type (a
    writer's made-up `job123` for a job number) is dropped from the comparison, and
    the row says so in its note, rather than the whole round being refused."""
    try:
        return row_from(data, number)
    except CorpusError as error:
        bad = _BAD_FIELD.match(str(error))
        expect = data.get("expect")
        target = expect.get("ask", expect) if isinstance(expect, dict) else None
        if bad is None or not isinstance(target, dict) or bad["field"] not in target:
            raise
        target.pop(bad["field"])
        data["note"] = f"{data.get('note', '')} [{bad['field']} dropped: {error}]".strip()
        return row_from(data, number)


def round_files() -> list[Path]:
    """The rounds already joined to the corpus, oldest first."""
    return sorted(ROUNDS_DIR.glob("round-*.jsonl"))


def measure(rows: list[Row]) -> tuple[dict[str, Any], list[str]]:
    """The numbers per area and overall, and one line per row not understood."""
    parse = parser()
    counts: dict[str, Counter[str]] = {area: Counter() for area in AREAS}
    details: list[str] = []
    for row in rows:
        result = parse_text(row.text, parse)
        verdict = outcome(row, result)
        tally = counts[row.area or "views_other"]
        tally["rows"] += 1
        if verdict == "asked" and row.expected and matches(result.guess, row.expected):
            verdict = "asked_right"
        tally[verdict] += 1
        wrong_record = verdict == "wrong" and is_record(result) and not is_confirm(result)
        tally["wrong_records"] += wrong_record
        if verdict != "understood":
            mark = "  WRONG RECORD" if wrong_record else ""
            expected = json.dumps(row.raw["expect"], ensure_ascii=False)
            details.append(
                f"{row.id}\t{verdict}\t{row.text}\t{describe(result)}\t<- {expected}{mark}"
            )
    total: Counter[str] = Counter()
    table: dict[str, Any] = {}
    for area, tally in counts.items():
        total.update(tally)
        table[area] = _summary(tally)
    return {"areas": table, "total": _summary(total)}, details


def _summary(tally: Counter[str]) -> dict[str, Any]:
    rows = tally["rows"]
    keys = ("understood", "asked_right", "asked", "missed", "wrong", "wrong_records")
    summary: dict[str, Any] = {"rows": rows, **{key: tally[key] for key in keys}}
    summary["score"] = round(tally["understood"] / rows, 3) if rows else None
    return summary


def render(report: dict[str, Any]) -> str:
    """The human table."""
    head = f"{'area':<20}{'rows':>6}{'ok':>6}{'asked✓':>8}{'asked':>7}{'missed':>8}"
    head += f"{'wrong':>7}{'wrong rec':>11}{'score':>8}"
    lines = [head, "-" * len(head)]
    for name, numbers in [*report["areas"].items(), ("total", report["total"])]:
        if not numbers["rows"]:
            continue
        score = "-" if numbers["score"] is None else f"{numbers['score'] * 100:.0f}%"
        lines.append(
            f"{name:<20}{numbers['rows']:>6}{numbers['understood']:>6}"
            f"{numbers['asked_right']:>8}{numbers['asked']:>7}{numbers['missed']:>8}"
            f"{numbers['wrong']:>7}{numbers['wrong_records']:>11}{score:>8}"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    paths = [Path(arg) for arg in argv if not arg.startswith("--")] or round_files()
    rows = [row for path in paths for row in load_round(path)]
    report, details = measure(rows)
    if "--rows" in argv:
        sys.stdout.write("\n".join(details) + "\n\n")
    sys.stdout.write(render(report) + "\n")
    names = [path.stem for path in paths]
    line = {"rounds": names, **report}
    sys.stdout.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
