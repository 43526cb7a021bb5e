"""Running `keeper` as a real process from a test."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from bot.sandbox.fake_wecom import FakeWeCom
from tests.conftest import TEST_SETTINGS

KEEPER = str(Path(sys.executable).parent / "keeper")


class ArrivalFake(FakeWeCom):
    """The fake, telling the test the moment a message arrives (no polling): a test
    waits on `arrived` (bounded) while `keeper` processes do the work."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.arrived = asyncio.Event()

    def send(self, token: str, raw_body: bytes) -> dict[str, object]:
        answer = super().send(token, raw_body)
        if self.messages:
            self.arrived.set()
        return answer


async def run_keeper(
    args: list[str], env: dict[str, str], *, cwd: Path | None = None, stdin: bytes = b""
) -> tuple[int, str, str]:
    """Run `keeper <args>` to completion (bounded); exit status, stdout, stderr."""
    proc = await asyncio.create_subprocess_exec(
        KEEPER,
        *args,
        env=env,
        cwd=cwd,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(stdin), timeout=120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


STARTUP_TIMEOUT_S = 60


def fake_wecom_api() -> FakeWeCom:
    """The fake WeCom API for TEST_SETTINGS' corp, secret and agent."""
    s = TEST_SETTINGS.wecom
    return FakeWeCom(corp_id=s.corp_id, secret=s.secret, agent_id=s.agent_id)


async def start_serve(env: dict[str, str], cwd: Path, port: int) -> asyncio.subprocess.Process:
    """`keeper serve` on loopback `port`, returned once it says it is listening (bounded)."""
    proc = await asyncio.create_subprocess_exec(
        KEEPER, "serve", "--port", str(port), env=env, cwd=cwd,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    async with asyncio.timeout(STARTUP_TIMEOUT_S):
        while b"Running on" not in await proc.stderr.readline():
            assert proc.returncode is None, "keeper serve exited while starting"
    return proc


def keeper_env(db_url: str, api_base: str, **extra: str) -> dict[str, str]:
    """The process environment for TEST_SETTINGS on `db_url`, talking to `api_base`."""
    s = TEST_SETTINGS
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KEEPER_", "WECOM_"))}
    env.update(
        KEEPER_DATABASE_URL=db_url,
        WECOM_CORP_ID=s.wecom.corp_id,
        WECOM_AGENT_ID=str(s.wecom.agent_id),
        WECOM_SECRET=s.wecom.secret,
        WECOM_TOKEN=s.wecom.token,
        WECOM_AES_KEY=s.wecom.aes_key,
        WECOM_API_BASE=api_base,
        KEEPER_WEB_SECRET=s.web.secret,
        KEEPER_DATA_KEY=s.data.key,
    )
    env.update(extra)
    return env
