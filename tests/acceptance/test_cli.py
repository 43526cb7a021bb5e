"""The `keeper` command as a user runs it: real processes, real sockets, real files."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.sandbox.wecom_side import WeComSide
from tests.acceptance.processes import KEEPER, run_keeper

SECRETS = {
    "WECOM_SECRET": "cli-secret-value-000001",
    "WECOM_TOKEN": "CliTokenValue77",
    "WECOM_AES_KEY": "6qkdMrq68nTKduznJYO1A37W2oEgpkMUvkttRToqhUt",
}
STARTUP_TIMEOUT_S = 30


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
    assert err.strip() == "keeper: WECOM_AES_KEY is not set"
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
        assert out.startswith("keeper: database at revision 0")


async def test_the_issue_script_through_keeper_chat(tmp_path: Path) -> None:
    script = "体重 72.4\n喝水\n记账 35 午饭\n任务 明天 交材料\n日程 明天 14:00-15:00 复诊\n日记 今天不错\n今天\n"
    code, out, err = await _run(
        ["chat", "--db", str(tmp_path / "demo.db")], _env(tmp_path), tmp_path, script.encode()
    )
    assert code == 0, err
    replies = out.split("你> ")[1:]
    assert len(replies) == 7
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[str, asyncio.subprocess.Process]]:
    env = _env(tmp_path)
    assert (await _run(["migrate"], env, tmp_path))[0] == 0
    port = _free_port()
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
            assert response.status == 200
    proc.terminate()
    assert proc.stderr is not None
    logs = (await proc.stderr.read()).decode()
    await proc.wait()
    assert logs  # the run did log
    for value in SECRETS.values():
        assert value not in logs
