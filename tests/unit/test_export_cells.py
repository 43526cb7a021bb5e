"""Export cells a spreadsheet would run are made inert in the CSV only (issue 20 item 10)."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

from storage.export import build_zip

RISKY = ["=1+1", "+86 138", "-5 块的折扣", "@SUM(A1:A9)", "\tTAB", "\rCR"]


def _files(tables: dict[str, list[dict[str, str]]]) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(build_zip(tables, "readme\n")))


def _csv(archive: zipfile.ZipFile, name: str) -> list[dict[str, str]]:
    text = archive.read(f"{name}.csv").decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("text", RISKY)
def test_a_text_cell_that_starts_a_formula_gets_a_quote_in_the_csv_only(text: str) -> None:
    journal = [{"id": "1", "text": text, "occurred_at": "2026-11-25T02:00:00+00:00"}]
    archive = _files({"journal": journal})
    assert _csv(archive, "journal")[0]["text"] == "'" + text
    assert json.loads(archive.read("journal.json"))[0]["text"] == text


def test_number_columns_keep_their_sign_and_other_text_is_untouched() -> None:
    water = [{"id": "7", "glasses": "-1", "occurred_at": "2026-11-25T02:00:00+00:00"}]
    ledger = [
        {"id": "8", "direction": "expense", "amount": "35.00", "category": "餐饮",
         "note": "午饭 = 35", "occurred_at": "2026-11-25T02:00:00+00:00"},
    ]  # fmt: skip
    archive = _files({"water": water, "ledger": ledger})
    assert _csv(archive, "water") == water
    assert _csv(archive, "ledger") == ledger
    assert json.loads(archive.read("water.json")) == water
