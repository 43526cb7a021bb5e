"""The `keeper` command as a user runs it: real processes, real sockets, real files."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.sandbox.wecom_side import WeComSide
from tests.acceptance.processes import KEEPER, STARTUP_TIMEOUT_S, run_keeper
from tests.conftest import MigratedSQLite
from tests.ports import free_port

SECRETS = {
    "WECOM_SECRET": "cli-secret-value-000001",
    "WECOM_TOKEN": "CliTokenValue77",
    "WECOM_AES_KEY": "6qkdMrq68nTKduznJYO1A37W2oEgpkMUvkttRToqhUt",
}


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KEEPER_", "WECOM_"))}
    env.update(
        KEEPER_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'keeper.db'}",
        WECOM_CORP_ID="wwclitest00001",
        WECOM_AGENT_ID="1000002",
        **SECRETS,
    )
    env.update(extra)
    return env


async def _run(
    args: list[str], env: dict[str, str], cwd: Path, stdin: bytes = b""
) -> tuple[int, str, str]:
    return await run_keeper(args, env, cwd=cwd, stdin=stdin)


async def test_serve_without_the_aes_key_exits_2_naming_it(tmp_path: Path) -> None:
    env = _env(tmp_path)
    del env["WECOM_AES_KEY"]
    code, out, err = await _run(["serve"], env, tmp_path)
    assert code == 2
    assert err.strip() == (
        "keeper: WECOM_AES_KEY is not set; expected the EncodingAESKey, 43 characters of base64"
    )
    for value in SECRETS.values():
        assert value not in out + err


async def test_serve_with_a_malformed_setting_exits_2_without_echoing_it(tmp_path: Path) -> None:
    code, _, err = await _run(["serve"], _env(tmp_path, WECOM_AGENT_ID="agent-x"), tmp_path)
    assert code == 2
    assert "WECOM_AGENT_ID" in err
    assert "agent-x" not in err


async def test_serve_refuses_an_unmigrated_database(tmp_path: Path) -> None:
    code, _, err = await _run(["serve"], _env(tmp_path), tmp_path)
    assert code == 2
    assert "keeper migrate" in err


async def test_migrate_brings_the_database_to_head_and_is_repeatable(tmp_path: Path) -> None:
    for _ in range(2):
        code, out, _ = await _run(["migrate"], _env(tmp_path), tmp_path)
        assert code == 0
        assert out.startswith(f"keeper: database sqlite+aiosqlite:///{tmp_path}/keeper.db: ")


async def test_the_issue_script_through_keeper_chat(tmp_path: Path) -> None:
    script = "体重 72.4\n喝水\n记账 35 午饭\n任务 明天 交材料\n日程 明天 14:00-15:00 复诊\n日记 今天不错\n今天\n你是谁\n"
    code, out, err = await _run(
        ["chat", "--db", str(tmp_path / "demo.db")], _env(tmp_path), tmp_path, script.encode()
    )
    assert code == 0, err
    # The demo ticks its own scheduler: no warning that none runs (issue 22).
    assert "no scheduler" not in out + err
    replies = out.split("你> ")[1:]
    assert len(replies) == 8
    assert "72.4" in replies[0]
    assert "第 1 杯" in replies[1]
    assert "35.00" in replies[2]
    assert "交材料" in replies[3]
    assert "14:00-15:00 复诊" in replies[4]
    assert "日记已保存" in replies[5]
    today = replies[6]
    assert "体重 72.4 kg" in today
    assert "喝水 1 杯" in today
    assert "支出 35.00 元" in today
    about = replies[7].split("keeper> ", 1)[1].strip()
    assert len(about.splitlines()) <= 3  # the limit of any short answer
    assert "帮助" in about


@pytest.fixture
async def served(
    tmp_path: Path, migrated_sqlite: MigratedSQLite
) -> AsyncIterator[tuple[str, asyncio.subprocess.Process]]:
    env = _env(tmp_path)
    await migrated_sqlite(tmp_path / "keeper.db")  # `keeper migrate`'s own test is above
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        KEEPER,
        "serve",
        "--port",
        str(port),
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stderr is not None
    async with asyncio.timeout(STARTUP_TIMEOUT_S):
        while b"Running on" not in await proc.stderr.readline():
            pass
    yield f"http://127.0.0.1:{port}", proc
    if proc.returncode is None:
        proc.terminate()
        await proc.wait()


async def test_a_served_run_logs_no_secret(served: tuple[str, asyncio.subprocess.Process]) -> None:
    base, proc = served
    async with (
        WeComSide(
            base, SECRETS["WECOM_TOKEN"], SECRETS["WECOM_AES_KEY"], "wwclitest00001", 1000002
        ) as wecom,
        aiohttp.ClientSession() as http,
    ):
        assert (await wecom.send_text("alice", "体重 72.4")).status == 200
        assert (await wecom.send_text("alice", "今天")).status == 200
        assert (await wecom.verify_url("echo-123")).text == "echo-123"
        bad = wecom.build("<xml/>").replace_query(msg_signature="0" * 40)
        async with http.post(f"{base}/wecom/callback", params=bad.query, data=bad.body) as response:
            assert response.status == 403
        async with http.get(f"{base}/healthz") as response:
            # The message made alice's digests, and this serve runs no scheduler: the
            # health check says so (503, scheduler stopped) rather than look healthy.
            assert response.status == 503
            assert (await response.json())["scheduler"] == "stopped"
    proc.terminate()
    assert proc.stderr is not None
    logs = (await proc.stderr.read()).decode()
    await proc.wait()
    assert logs  # the run did log
    for value in SECRETS.values():
        assert value not in logs


DAY_SCRIPT = Path(__file__).parents[2] / "examples" / "a-day.txt"


async def test_a_scripted_day_sends_exactly_the_reminders_a_person_expects(
    tmp_path: Path,
) -> None:
    """The day in docs/reminders.md: records, an event, a custom reminder, quiet time, a task done
    before its reminder. Every 📨 line is listed; nothing else may arrive."""
    args = ["chat", "--db", str(tmp_path / "demo.db"), "--start", "2026-12-01T07:30"]
    code, out, err = await _run(args, _env(tmp_path), tmp_path, DAY_SCRIPT.read_bytes())
    assert code == 0, err
    arrived = [line.split("提醒> ", 1) for line in out.splitlines() if line.startswith("📨")]
    assert [(when.removeprefix("📨 ").strip(), text) for when, text in arrived] == [
        ("08:00", "早上好，今天的安排："),  # the morning digest
        ("09:30", "该喝水了 💧"),  # two hours after 开启 喝水
        ("12:00", "该喝水了 💧"),  # 11:31 fell in quiet time: moved to its end
        ("13:30", "⏰ 30 分钟后：14:00 复诊"),  # the event, 30 minutes before
        ("14:05", "该喝水了 💧"),
        ("21:00", "⏰ 提醒：吃药"),  # the custom reminder; 交材料 was done before 14:30
        ("21:30", "今天还没完成的："),  # the evening: 买菜 is open, the weight is recorded
    ]
    assert "35" not in "".join(text for _, text in arrived)  # never an amount
    assert "没睡好" not in out.split("日记已保存")[1]  # never the journal


ISSUE_PHRASES = {  # phrase -> a word its reply must contain
    "设置 晨报 07:30": "每天 07:30",
    "设置 晚报 21:00": "每天 21:00",
    "关闭 晨报": "晨报已关闭",
    "关闭 晚报": "晚报已关闭",
    "日程 明天 14:00 复诊": "13:30 提醒你",
    "日程 后天 9:30 开会 提前15分钟": "09:15 提醒你",
    "改日程 1 明天 15:00": "14:30 提醒你",
    "取消日程 2": "已取消日程",
    "任务 明天 15:00 交材料": "14:30 提醒你",
    "明天再说 1": "改到",
    "提醒 每天 22:00 吃药": "每天 22:00 吃药",
    "提醒 明天 9:00 交材料": "交材料",
    "提醒 每周一 09:00 写周报": "每周一 09:00 写周报",
    "提醒 工作日 18:00 下班打卡": "工作日 18:00 下班打卡",
    "提醒 每月1号 交房租": "每月1号 09:00 交房租",
    "提醒 重要 每天 8:00 吃药": "重要",
    "提醒": "你的提醒",
    "暂停 提醒 4": "已暂停",  # 1-3 are 晨报, 晚报 and 周报
    "恢复 提醒 4": "已恢复",
    "删除 提醒 4": "已删除",
    "免打扰 2小时": "免打扰到",
    "免打扰 到 明天 8:00": "免打扰到 明天 08:00",
    "取消免打扰": "免打扰已取消",
    "关闭 提醒": "开启 提醒",
    "开启 提醒": "已打开",
    "设置 卡片 开": "按钮",
    "设置 卡片 关": "文字",
    "开启 喝水": "喝水提醒已开启",
    "稍后": "再提醒你喝水",
    "管理 暂停 全部": "管理员命令",  # the demo user is no admin: refused, politely
    "帮助": "帮助 记账",  # a short menu by topic since issue 9
    "帮助 设置": "免打扰 2小时",
}


async def test_every_phrase_of_the_reminders_issue_works_in_keeper_chat(tmp_path: Path) -> None:
    script = "\n".join(ISSUE_PHRASES) + "\n"
    args = ["chat", "--db", str(tmp_path / "demo.db"), "--start", "2026-12-01T10:00"]
    code, out, err = await _run(args, _env(tmp_path), tmp_path, script.encode())
    assert code == 0, err
    replies = out.split("你> ")[1:]
    assert len(replies) == len(ISSUE_PHRASES)
    for (phrase, expected), reply in zip(ISSUE_PHRASES.items(), replies, strict=True):
        assert reply.startswith(phrase), reply
        assert expected in reply, (phrase, reply)
        assert "没看懂" not in reply, (phrase, reply)


async def test_a_guess_confirmed_in_keeper_chat_is_recorded_once_and_another_is_dropped(
    tmp_path: Path,
) -> None:
    """Issue 9: the confirmation flow as a person types it in the demo."""
    script = "35\n是\n是\n称了一下 140\n今天\n"
    args = ["chat", "--db", str(tmp_path / "demo.db"), "--start", "2026-12-01T10:00"]
    code, out, err = await _run(args, _env(tmp_path), tmp_path, script.encode())
    assert code == 0, err
    asked, confirmed, again, other, today = out.split("你> ")[1:]
    assert "回「是」记下" in asked
    assert "35.00" in confirmed
    assert "35.00" not in again  # the guess was used up: nothing recorded twice
    assert "回「是」记下" in other  # a new guess...
    assert "支出 35.00 元" in today  # ...dropped by the next message; 35 is there once
    assert "体重：还没记录" in today  # the 140 guess was dropped, not recorded


async def test_serve_with_two_workers_answers_on_one_port_and_stops_as_one(
    tmp_path: Path, migrated_sqlite: MigratedSQLite
) -> None:
    env = _env(tmp_path)
    await migrated_sqlite(tmp_path / "keeper.db")
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        KEEPER, "serve", "--port", str(port), "--workers", "2", env=env, cwd=tmp_path,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    running = 0
    async with asyncio.timeout(STARTUP_TIMEOUT_S):
        while running < 2:  # each worker says so once its socket listens
            running += b"Running on" in await proc.stderr.readline()
    base = f"http://127.0.0.1:{port}"
    async with WeComSide(
        base, SECRETS["WECOM_TOKEN"], SECRETS["WECOM_AES_KEY"], "wwclitest00001", 1000002
    ) as wecom:
        replies = [await wecom.send_text("alice", f"体重 7{n}", msg_id=n) for n in range(6)]
    proc.terminate()
    logs = (await proc.stderr.read()).decode()

    assert await proc.wait() == 0
    assert [r.text.split("，")[0].rstrip("。") for r in replies] == [
        f"记下了：体重 7{n} kg" for n in range(6)
    ]
    assert logs.count("Running on") == 0  # both were read above, before the load
    assert "Traceback" not in logs
