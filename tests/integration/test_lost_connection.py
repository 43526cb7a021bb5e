"""A pooled MariaDB connection the server dropped (a restart, `KILL`, a middlebox):
the message is recorded once, on a new connection, and answered as recorded.

No ping goes before each use of a pooled connection (`storage.engine`): a unit of work
whose connection was lost under a statement, before its COMMIT, is run again
(`storage.retry`); one that sat idle past `IDLE_PING_S` is pinged and replaced first.
A connection lost at the COMMIT is never run again: `test_database_stall.py`.
"""

from __future__ import annotations

from typing import Any

import pymysql
import pytest
from sqlalchemy import func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

import storage.engine
from bot.sandbox.wecom_side import WeComSide
from storage.models import INBOUND, MEASUREMENTS
from tests.conftest import MYSQL_URL

pytestmark = pytest.mark.parametrize(
    "database_url", [pytest.param("mariadb", marks=pytest.mark.mariadb)], indirect=True
)


def _kill(connection_id: int) -> None:
    """End a connection from the server's side, as a restart or `KILL` would."""
    url = make_url(MYSQL_URL)
    admin: Any = pymysql.connect(
        host=url.host or "127.0.0.1",
        port=url.port or 3306,
        user=url.username or "root",
        password=url.password or "",
        autocommit=True,
    )
    try:
        with admin.cursor() as cursor:
            cursor.execute(f"KILL {int(connection_id)}")
    finally:
        admin.close()


async def _pooled_connection_id(engine: AsyncEngine) -> int:
    """The server's id of the one connection in the engine's pool."""
    async with engine.connect() as conn:
        return int((await conn.execute(text("SELECT CONNECTION_ID()"))).scalar_one())


async def _counts(engine: AsyncEngine) -> tuple[int, int]:
    async with engine.connect() as conn:
        weights = (await conn.execute(select(func.count()).select_from(MEASUREMENTS))).scalar_one()
        messages = (await conn.execute(select(func.count()).select_from(INBOUND))).scalar_one()
    return int(weights), int(messages)


async def test_a_message_on_a_connection_the_server_dropped_is_recorded_once(
    wecom: WeComSide, engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    await wecom.send_text("alice", "体重 70")  # a pooled connection exists
    _kill(await _pooled_connection_id(engine))

    reply = await wecom.send_text("alice", "体重 71", msg_id=77)

    assert reply.text is not None
    assert reply.text.startswith("记下了：体重 71 kg")
    assert await _counts(engine) == (2, 2)
    assert "database connection lost before COMMIT; running the unit again" in caplog.text
    again = await wecom.send_text("alice", "体重 71", msg_id=77)  # WeCom's retry
    assert again.text == reply.text
    assert await _counts(engine) == (2, 2)


async def test_a_connection_idle_past_the_ping_threshold_is_pinged_and_replaced(
    wecom: WeComSide,
    engine: AsyncEngine,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await wecom.send_text("alice", "体重 70")
    dropped = await _pooled_connection_id(engine)
    _kill(dropped)
    monkeypatch.setattr(storage.engine, "IDLE_PING_S", 0.0)  # every reuse counts as idle

    reply = await wecom.send_text("alice", "体重 71")

    assert reply.text is not None
    assert reply.text.startswith("记下了：体重 71 kg")
    assert "running the unit again" not in caplog.text  # the ping caught it first
    assert await _pooled_connection_id(engine) != dropped
    assert await _counts(engine) == (2, 2)
