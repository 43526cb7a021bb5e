"""The weekly review as a person lives it in `keeper chat` (issue 14): a scripted
month, the Sunday push without amounts, 「周报」 with them, `好` making the budget, a
later week showing its progress, and quiet time moving the push."""

from __future__ import annotations

import re
from pathlib import Path

from tests.acceptance.test_cli import _env, _run

MONTH = """\
体重 72.0
记账 40 午饭
日记 复诊以后感觉轻松了一些
/time 2026-11-05T09:00
体重 71.9
/time 2026-11-09T09:00
体重 71.7
记账 40 午饭
/time 2026-11-12T09:00
体重 71.6
/time 2026-11-16T09:00
体重 71.5
记账 40 午饭
/time 2026-11-19T09:00
体重 71.3
/time 2026-11-23T09:00
体重 71.2
记账 40 午饭
目标体重 68
/time 2026-11-26T09:00
体重 71.0
/time 2026-11-30T09:00
体重 70.9
记账 220 午饭
/time 2026-12-03T09:00
体重 70.7
/time 2026-12-06T21:00
周报
好
好
预算
/time 2026-12-08T09:00
记账 120 午饭
/time 2026-12-13T19:00
免打扰 2小时
/time 2026-12-13T22:00
周报
"""
AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]+)?\s*元|(?<![0-9:])(?:40|120|200|220)(?![0-9:])")


async def test_a_month_in_keeper_chat_ends_in_a_short_push_a_full_review_and_a_budget(
    tmp_path: Path,
) -> None:
    args = ["chat", "--db", str(tmp_path / "demo.db"), "--start", "2026-11-02T09:00"]
    code, out, err = await _run(args, _env(tmp_path), tmp_path, MONTH.encode())
    assert code == 0, err
    pushes = [line for line in out.splitlines() if line.startswith("📨")]
    reviews = [p.split("提醒> ", 1)[1] for p in pushes if "本周回看" in p]
    # Weeks 1-5 each had records: five Sunday pushes, then the quiet-time one.
    assert [p.split(" 提醒>")[0] for p in pushes if "本周回看" in p] == [
        "📨 20:00", "📨 20:00", "📨 20:00", "📨 20:00", "📨 20:00", "📨 21:00",
    ]  # fmt: skip
    assert reviews[4] == "本周回看好了：体重略降，有一类支出比平时多。回「周报」看详情"
    for push in pushes:  # nothing pushed carries an amount or the journal
        assert not AMOUNT.search(push.split("提醒> ", 1)[1]), push
        assert "轻松" not in push

    replies = out.split("你> ")
    review = next(r for r in replies if r.startswith("周报") and "11/30" in r)
    assert "餐饮 220 元，平时每周约 40 元，多了 180 元（+450%）" in review
    assert "离目标还差 2.8 kg" in review
    assert review.rstrip().endswith("餐饮每月定个 200 元的预算？回「好」")
    first_yes, second_yes = (r for r in replies if r.startswith("好\n"))
    assert "预算已设好：餐饮 每月 200 元" in first_yes
    assert "预算" not in second_yes  # the suggestion was used up: one budget
    listed = next(r for r in replies if r.startswith("预算\n"))
    assert listed.count("餐饮") == 1

    later = replies[-1]
    assert later.startswith("周报")
    assert "12/7–12/13" in later
    assert "预算：餐饮 本月已用 120 / 200 元（60%）" in later
