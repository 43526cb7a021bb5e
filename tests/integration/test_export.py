"""Export: a member's ZIP holds exactly their own rows, and none of anyone else's."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile

import pytest
from aiohttp.test_utils import TestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.wecom_side import WeComSide
from bot.settings import Settings
from storage.export import FILES
from tests.conftest import TEST_SETTINGS
from tests.integration.conftest import row_counts
from tests.settings_env import changed

LINK = re.compile(r"(/web/link/[A-Za-z0-9_-]+)")
ALICE = ("体重 72.4", "喝水 +2", "记账 35 午饭", "收入 8000 工资", "任务 明天 交材料",
         "日程 明天 9:00 复诊", "日记 爱丽丝的日记", "提醒 每天 22:00 吃药",
         "预算 餐饮 1500")  # fmt: skip
BOB = ("体重 99.9", "记账 77 鲍勃的饭", "任务 明天 鲍勃的事", "日记 鲍勃的日记", "喝水 +5",
       "预算 交通 666")  # fmt: skip


@pytest.fixture
def settings() -> Settings:
    return changed(TEST_SETTINGS, web={"public_url": "http://keeper.test"})


async def _zip_of(
    wecom: WeComSide, client: TestClient[object, object], user: str
) -> zipfile.ZipFile:
    reply = await wecom.send_text(user, "导出")
    assert reply.text is not None
    found = LINK.search(reply.text)
    assert found, reply.text
    response = await client.get(found[1])
    assert response.status == 200
    assert response.headers["Content-Type"] == "application/zip"
    assert "attachment" in response.headers["Content-Disposition"]
    return zipfile.ZipFile(io.BytesIO(await response.read()))


def _csv(archive: zipfile.ZipFile, name: str) -> list[dict[str, str]]:
    text = archive.read(f"{name}.csv").decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


async def test_a_members_zip_holds_exactly_their_rows_and_none_of_another_members(
    client: TestClient[object, object], wecom: WeComSide
) -> None:
    for text in BOB:
        await wecom.send_text("bob", text)
    for text in ALICE:
        await wecom.send_text("alice", text)
    archive = await _zip_of(wecom, client, "alice")
    names = set(archive.namelist())
    assert names == {"README.txt"} | {f"{n}.{ext}" for n, _, _ in FILES for ext in ("csv", "json")}
    everything = b"".join(archive.read(n) for n in names).decode("utf-8", "replace")
    assert "鲍勃" not in everything
    assert "99.9" not in everything
    assert "666" not in everything
    assert [r["value"] for r in _csv(archive, "weights")] == ["72.40"]
    assert [r["glasses"] for r in _csv(archive, "water")] == ["2"]
    assert sorted(r["amount"] for r in _csv(archive, "ledger")) == ["35.00", "8000.00"]
    assert [r["title"] for r in _csv(archive, "tasks")] == ["交材料"]
    assert [r["title"] for r in _csv(archive, "events")] == ["复诊"]
    assert [r["text"] for r in _csv(archive, "journal")] == ["爱丽丝的日记"]
    assert "吃药" in [r["label"] for r in _csv(archive, "reminders")]
    assert [(r["category"], r["amount"]) for r in _csv(archive, "budgets")] == [("餐饮", "1500.00")]
    assert json.loads(archive.read("weights.json")) == _csv(archive, "weights")
    readme = archive.read("README.txt").decode()
    for name, _, columns in FILES:
        assert f"{name}.csv" in readme
        for column, _ in columns:
            assert f"  {column}: " in readme


async def test_an_export_link_downloads_once(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine
) -> None:
    reply = await wecom.send_text("alice", "导出")
    assert reply.text is not None
    path = LINK.search(reply.text)
    assert path
    assert (await client.get(path[1])).status == 200
    before = await row_counts(engine)
    again = await client.get(path[1])
    assert again.status == 410
    assert "已经用过了" in await again.text()
    assert await row_counts(engine) == before


async def test_a_note_title_or_journal_line_that_looks_like_a_formula_is_inert_in_the_csv(
    client: TestClient[object, object], wecom: WeComSide
) -> None:
    """Issue 20 item 10: `'` in front in the CSV; the JSON as typed; water's -1 a number."""
    for text in ("喝水 +2", "喝水 -1", "记账 35 =HYPERLINK(\"http://x\")",
                 "任务 明天 @所有人 交材料", "日记 -减肥第一天", "日记 +1 个好习惯"):  # fmt: skip
        await wecom.send_text("alice", text)
    archive = await _zip_of(wecom, client, "alice")
    assert [r["glasses"] for r in _csv(archive, "water")] == ["2", "-1"]
    assert [r["note"] for r in _csv(archive, "ledger")] == ['\'=HYPERLINK("http://x")']
    assert [r["title"] for r in _csv(archive, "tasks")] == ["'@所有人 交材料"]
    assert [r["text"] for r in _csv(archive, "journal")] == ["'-减肥第一天", "'+1 个好习惯"]
    as_typed = json.loads(archive.read("journal.json"))
    assert [r["text"] for r in as_typed] == ["-减肥第一天", "+1 个好习惯"]
    assert json.loads(archive.read("ledger.json"))[0]["note"] == '=HYPERLINK("http://x")'
    assert [r["glasses"] for r in json.loads(archive.read("water.json"))] == ["2", "-1"]
