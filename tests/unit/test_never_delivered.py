"""Nothing keeper says or shows calls an accepted send "delivered" (issue 22 item 1).

A provider's accepted proves only that its API took the message (`已发出`); `送达`
may appear only where keeper says it could NOT tell (`是否送达`). Scans every text
module and page template.
"""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLACES = ("handlers/texts", "scheduler/core/texts", "bot/web/templates")
CLAIM = re.compile(r"送达|delivered", re.IGNORECASE)
DOUBT = re.compile(r"是否送达|没能确认.{0,4}送达")


def claims(text: str) -> list[str]:
    """The places in `text` that say 送达 (or delivered) other than as a doubt."""
    doubted = {m.start() + m.group().index("送达") for m in DOUBT.finditer(text)}
    return [
        text[max(0, m.start() - 12) : m.end() + 4]
        for m in CLAIM.finditer(text)
        if m.start() not in doubted
    ]


def test_the_scan_tells_a_claim_from_a_doubt() -> None:
    assert claims("提醒已送达") == ["提醒已送达"]
    assert claims("没能确认是否送达") == []
    assert claims("最近一次已发出") == []


def test_no_text_or_page_calls_a_send_delivered() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {said!r}"
        for place in PLACES
        for path in sorted((ROOT / place).rglob("*"))
        if path.suffix in {".py", ".html"}
        for said in claims(path.read_text(encoding="utf-8"))
    ]
    assert not found, "an accepted send is 已发出, never 送达:\n" + "\n".join(found)
