"""Parse time over the phrasing corpus, and our Chinese numerals against `cn2an`.

Parses every corpus phrasing and every never-record line (tests/corpus) `--repeat`
times on the corpus' reference clock, takes each message's best time (the least
disturbed by the rest of the machine), and reports the median, p90, p99 and max.
The target is a median under 100 us, so the callback's 5-second budget is untouched.

The numeral part answers "take a dependency or not": it reads every Chinese numeral
in the corpus (and a table of the forms the issue names) with
`handlers.parse.numbers.cn_number` and with cn2an (`smart` mode, if installed: it is
not a dependency of keeper), counts the answers that are right, times both, and
parses the whole corpus with cn2an swapped in to see whether it would understand more.

    .venv/bin/python bench/parse.py              # 50 repeats
    .venv/bin/python bench/parse.py --repeat 5   # a smoke run

Prints a table, then one JSON line. Not a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from handlers.parse import numbers
from handlers.parse.numbers import CN_NUMBER, cn_number
from tests.corpus.load import (
    load_never_record,
    load_rows,
    outcome,
    parse_text,
    parser,
)

TARGET_MEDIAN_US = 100.0
NAMED_FORMS = {
    "一百四十五": "145", "七十二点四": "72.4", "十八": "18", "两千五": "2500",
    "三十五": "35", "两": "2", "十": "10", "一万二": "12000", "一百零五": "105",
    "三千零五十": "3050", "零点五": "0.5", "二十": "20", "十五": "15", "两万": "20000",
    "一千二百三十四": "1234", "九十九点九": "99.9", "四十": "40", "一百": "100",
}  # fmt: skip
"""The numeral forms issue 9 names (and neighbours), with their values."""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def time_parse(texts: list[str], repeat: int) -> list[float]:
    """Each text's best parse time over `repeat` runs, in microseconds."""
    parse = parser()
    best = []
    for text in texts:
        runs = []
        for _ in range(repeat):
            start = time.perf_counter_ns()
            parse_text(text, parse)
            runs.append(time.perf_counter_ns() - start)
        best.append(min(runs) / 1000)
    return best


def cn2an_reader() -> Callable[[str], Decimal | None] | None:
    """cn2an's `smart` conversion as our reader's shape, or None when not installed."""
    try:
        import cn2an  # type: ignore[import-not-found]
    except ImportError:
        return None

    def read(said: str) -> Decimal | None:
        try:
            return Decimal(str(cn2an.cn2an(said, "smart")))
        except (ValueError, KeyError, TypeError, InvalidOperation):
            return None

    return read


def numeral_tokens(texts: list[str]) -> list[str]:
    found = [m[0] for text in texts for m in re.finditer(CN_NUMBER, text)]
    return sorted(set(found))


def judge(reader: Callable[[str], Decimal | None], tokens: list[str]) -> dict[str, Any]:
    """Right answers on the named forms, answers on corpus tokens, and the time per call."""
    right = sum(reader(said) == Decimal(value) for said, value in NAMED_FORMS.items())
    answered = sum(reader(said) is not None for said in tokens)
    passes = []
    for _ in range(20):  # the best pass: the least disturbed by the rest of the machine
        start = time.perf_counter_ns()
        for said in tokens:
            reader(said)
        passes.append(time.perf_counter_ns() - start)
    per_call = min(passes) / 1000 / max(1, len(tokens))
    return {"named_right": right, "named": len(NAMED_FORMS), "answered": answered,
            "tokens": len(tokens), "us_per_call": round(per_call, 2)}  # fmt: skip


def corpus_understood() -> int:
    rows = load_rows()
    parse = parser()
    return sum(outcome(row, parse_text(row.text, parse)) == "understood" for row in rows)


def with_cn_reader(reader: Callable[[str], Decimal | None]) -> int:
    """Rows understood with `reader` in place of our own numerals."""
    original = numbers.cn_number
    numbers.cn_number = reader
    try:
        return corpus_understood()
    finally:
        numbers.cn_number = original


def main(argv: list[str] | None = None) -> None:
    parser_args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser_args.add_argument("--repeat", type=int, default=50)
    args = parser_args.parse_args(argv)

    rows = load_rows()
    texts = [row.text for row in rows] + load_never_record()
    times = time_parse(texts, args.repeat)
    parse_figures = {
        "messages": len(texts),
        "repeat": args.repeat,
        "median_us": round(statistics.median(times), 1),
        "p90_us": round(percentile(times, 0.90), 1),
        "p99_us": round(percentile(times, 0.99), 1),
        "max_us": round(max(times), 1),
    }
    tokens = numeral_tokens(texts)
    numerals = {"own": judge(cn_number, tokens) | {"corpus_understood": corpus_understood()}}
    other = cn2an_reader()
    if other is not None:
        numerals["cn2an"] = judge(other, tokens) | {"corpus_understood": with_cn_reader(other)}

    print(f"parse over {len(texts)} messages (best of {args.repeat} each)")
    for name in ("median_us", "p90_us", "p99_us", "max_us"):
        print(f"  {name:<10} {parse_figures[name]:>8}")
    verdict = "yes" if parse_figures["median_us"] < TARGET_MEDIAN_US else "NO"
    print(f"  median under {TARGET_MEDIAN_US:.0f} us: {verdict}")
    print(f"\nChinese numerals ({len(tokens)} distinct in the corpus, {len(NAMED_FORMS)} named)")
    print(f"  {'reader':<8}{'named ok':>10}{'answered':>10}{'us/call':>9}{'corpus ok':>11}")
    for name, figures in numerals.items():
        named = f"{figures['named_right']}/{figures['named']}"
        print(
            f"  {name:<8}{named:>10}{figures['answered']:>10}{figures['us_per_call']:>9}"
            f"{figures['corpus_understood']:>11}"
        )
    line = {"bench": "parse", "machine": {"python": platform.python_version(),
            "platform": platform.platform()}, "parse": parse_figures, "numerals": numerals,
            "target_median_us": TARGET_MEDIAN_US}  # fmt: skip
    print(json.dumps(line, ensure_ascii=False))


if __name__ == "__main__":
    main()
