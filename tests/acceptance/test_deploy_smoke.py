"""The deploy kit, run: compose.yaml's and the systemd units' own commands as
processes on a fresh MariaDB.

What `docker compose up` does, without a container engine: on the test machine the
docker CLI has no daemon and no compose plugin, and the images (mariadb:11,
python:3.11-slim) would have to come from the network, which tests never touch. So the
compose file itself is checked by tests/unit/test_deploy_files.py, and its services'
commands and environment are run here:
`migrate` once, then `web` (`keeper serve`) and `worker` (`keeper worker`), each with
the environment compose gives it. The database password reaches them only through
KEEPER_DATABASE_PASSWORD_FILE, as compose's secret does. Only the addresses differ:
the test's MariaDB instead of `db`, and loopback with a free port instead of 0.0.0.0.

The systemd path runs the units' ExecStartPre/ExecStart lines with the environment
docs/operations.md has the operator write into /etc/keeper/keeper.env: env.example as shipped,
with the WeCom values, KEEPER_ADMINS and the database password filled in.

A member then sets a reminder in chat (an encrypted callback to the web process), and
the worker, on its own, sends it to the fake WeCom. The processes read the real clock,
so the member books an event a quarter of an hour ahead, whose reminder (30 minutes
before) is due at once, and the worker started after it sends it at its first tick;
the test waits for its arrival (an event set by the fake, bounded), never a fixed time.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import os
import re
import shlex
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import aiohttp
import pytest
import yaml
from sqlalchemy.engine import make_url

from bot.sandbox.fake_wecom import run_fake_wecom
from bot.sandbox.wecom_side import WeComSide
from tests.acceptance.processes import (
    KEEPER,
    STARTUP_TIMEOUT_S,
    ArrivalFake,
    keeper_env,
    run_keeper,
)
from tests.conftest import TEST_SETTINGS
from tests.mariadb_user import database_of_its_own_user
from tests.ports import free_port

pytestmark = [pytest.mark.mariadb, pytest.mark.timeout(300)]

COMPOSE = Path(__file__).parents[2] / "deploy" / "compose.yaml"
UNITS = COMPOSE.parent / "systemd"
ENV_EXAMPLE = COMPOSE.parent / "env.example"
ARRIVAL_TIMEOUT_S = 60  # the worker's first tick sends it; bounded, never slept on
DB_PASSWORD = "smoke-db-pass-7731"


def _service(name: str) -> dict[str, Any]:
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    return dict(services[name])


@pytest.fixture
async def compose_database(tmp_path: Path) -> AsyncIterator[tuple[str, Path]]:
    """A fresh MariaDB database with a user of its own, as compose's `db` creates:
    the URL without its password, and the secret file holding it."""
    async with database_of_its_own_user(DB_PASSWORD) as url:
        secret = tmp_path / "db_password.txt"
        secret.write_text(DB_PASSWORD + "\n")
        yield url, secret


def _env_of(name: str, db_url: str, secret: Path, api_base: str, port: int) -> dict[str, str]:
    """The environment compose gives service `name`, re-addressed for this machine."""
    env = {k: str(v) for k, v in _service(name)["environment"].items()}
    assert env.pop("KEEPER_DATABASE_URL").startswith("mysql://keeper@db:3306/")
    assert env.pop("KEEPER_DATABASE_PASSWORD_FILE") == "/run/secrets/db_password"
    env.update(KEEPER_DATABASE_URL=db_url, KEEPER_DATABASE_PASSWORD_FILE=str(secret))
    if "KEEPER_HOST" in env:
        env.update(KEEPER_HOST="127.0.0.1", KEEPER_PORT=str(port))
    return keeper_env(db_url, api_base, KEEPER_ADMINS="alice", **env)


@contextlib.asynccontextmanager
async def _running(command: list[str], env: dict[str, str], cwd: Path) -> AsyncIterator[None]:
    assert command[0] == "keeper"
    proc = await asyncio.create_subprocess_exec(
        KEEPER,
        *command[1:],
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        yield
    finally:
        proc.terminate()
        _, err = await asyncio.wait_for(proc.communicate(), STARTUP_TIMEOUT_S)
        assert proc.returncode == 0, err.decode()
        assert DB_PASSWORD not in err.decode()
        for secret in TEST_SETTINGS.secrets():
            assert secret not in err.decode()


async def _until_listening(base: str) -> None:
    """Poll /healthz until the web process answers (bounded: it is starting up)."""
    async with aiohttp.ClientSession() as http:
        for _ in range(STARTUP_TIMEOUT_S * 10):
            with contextlib.suppress(aiohttp.ClientError):
                async with http.get(base + "/healthz") as response:
                    if response.status in (200, 503):
                        return
            await asyncio.sleep(0.1)
    raise AssertionError("keeper serve did not start listening")


@dataclass(frozen=True)
class Deployment:
    """The three commands a deployment runs and the environment of each."""

    commands: dict[str, list[str]]  # migrate, web, worker -> a `keeper ...` command line
    envs: dict[str, dict[str, str]]


def _compose(db_url: str, secret: Path, api_base: str, port: int) -> Deployment:
    names = ("migrate", "web", "worker")
    return Deployment(
        commands={n: _service(n)["command"] for n in names},
        envs={n: _env_of(n, db_url, secret, api_base, port) for n in names},
    )


def _unit_command(unit: str, key: str) -> list[str]:
    lines = (UNITS / unit).read_text().splitlines()
    [line] = [x for x in lines if x.startswith(key + "=")]
    argv = shlex.split(line.split("=", 1)[1])
    assert argv[0] == "/opt/keeper/venv/bin/keeper"
    return ["keeper", *argv[1:]]


def _systemd(db_url: str, api_base: str, port: int) -> Deployment:
    """docs/operations.md's systemd path: the units' commands, /etc/keeper/keeper.env made from
    env.example as those steps say to fill it in (the password in the URL)."""
    example = dict(
        line.split("=", 1)
        for line in ENV_EXAMPLE.read_text().splitlines()
        if re.match(r"^[A-Z_]+=", line)
    )
    wanted = make_url(db_url)
    url = make_url(example["KEEPER_DATABASE_URL"]).set(
        username=wanted.username,
        password=DB_PASSWORD,
        host=wanted.host,
        port=wanted.port,
        database=wanted.database,
    )
    s = TEST_SETTINGS
    filled = {
        **example,
        "KEEPER_DATABASE_URL": url.render_as_string(hide_password=False),
        "KEEPER_ADMINS": "alice",
        "KEEPER_PORT": str(port),
        "WECOM_CORP_ID": s.wecom.corp_id,
        "WECOM_AGENT_ID": str(s.wecom.agent_id),
        "WECOM_SECRET": s.wecom.secret,
        "WECOM_TOKEN": s.wecom.token,
        "WECOM_AES_KEY": s.wecom.aes_key,
        "WECOM_API_BASE": api_base,
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KEEPER_", "WECOM_"))}
    env.update(filled)
    return Deployment(
        commands={
            "migrate": _unit_command("keeper-web.service", "ExecStartPre"),
            "web": _unit_command("keeper-web.service", "ExecStart"),
            "worker": _unit_command("keeper-worker.service", "ExecStart"),
        },
        envs={"migrate": env, "web": env, "worker": env},
    )


@pytest.mark.parametrize("kind", ["compose", "systemd"])
async def test_the_deploy_kits_commands_on_mariadb_deliver_a_reminder_set_in_chat(
    compose_database: tuple[str, Path], tmp_path: Path, kind: str
) -> None:
    db_url, secret = compose_database
    s, port = TEST_SETTINGS, free_port()
    api = ArrivalFake(corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id)
    async with run_fake_wecom(api) as api_base:
        plan = (
            _compose(db_url, secret, api_base, port)
            if kind == "compose"
            else _systemd(db_url, api_base, port)
        )
        assert plan.commands["migrate"][0] == "keeper"
        code, out, err = await run_keeper(
            plan.commands["migrate"][1:], plan.envs["migrate"], cwd=tmp_path
        )
        assert code == 0, err
        assert "applied 0001" in out
        assert DB_PASSWORD not in out
        async with _running(plan.commands["web"], plan.envs["web"], tmp_path):
            base = f"http://127.0.0.1:{port}"
            await _until_listening(base)
            async with WeComSide(
                base, s.wecom.token, s.wecom.aes_key, s.wecom.corp_id, s.wecom.agent_id
            ) as wecom:
                reply = await wecom.send_text("alice", _an_event_due_for_its_reminder())
            assert "复诊" in (reply.text or "")
            # The worker's first tick, at its start, finds the reminder due.
            async with _running(plan.commands["worker"], plan.envs["worker"], tmp_path):
                await asyncio.wait_for(api.arrived.wait(), ARRIVAL_TIMEOUT_S)
    sent = [m.content for m in api.messages_to("alice")]
    assert len(sent) == 1, sent
    assert "复诊" in sent[0]


def _an_event_due_for_its_reminder() -> str:
    """An event 15 minutes from now (the processes read the real clock): its reminder,
    30 minutes before, is already due, so the worker sends it at its first tick."""
    soon = dt.datetime.now(ZoneInfo("Asia/Shanghai")) + dt.timedelta(minutes=15)
    today = dt.datetime.now(ZoneInfo("Asia/Shanghai")).date()
    day = "今天" if soon.date() == today else "明天"
    return f"日程 {day} {soon:%H:%M} 复诊"
