"""What one message costs the database, pinned per kind, so it cannot grow back unseen.

The bench's mix (体重, 喝水, 记账, 今天) and a WeCom retry, each sent by a member who has
written before (the first contact's set-up is not the usual path). On SQLite every
statement is counted, BEGIN and COMMIT included (`tests.round_trips.StatementLog`); on
MariaDB every round trip the server sees, through a counting proxy
(`tests.round_trips.WireCounter`): pings, resets and COMMIT included, whatever the
driver. A figure that goes down is good news: lower it here. One that goes up needs a
reason (bench/README.md, "Callbacks", has the history).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy.engine import make_url

import storage.engine
from bot.app import create_app
from bot.sandbox.wecom_side import WeComSide
from scheduler.clock import FakeClock
from storage.engine import create_engine
from tests.conftest import TEST_SETTINGS, wecom_side
from tests.round_trips import StatementLog, WireCounter

COST = {  # message -> (SQLite statements, MariaDB round trips)
    "体重 72.4": (6, 5),  # lock the user (and read the key), last weight, insert, record, COMMIT
    "喝水": (7, 6),  # lock, insert, today's total, the last water reminder, record, COMMIT
    "记账 35 午饭": (5, 4),  # lock the user, insert, record, COMMIT
    "今天": (5, 4),  # lock the user, the page's one read, record, COMMIT
}
RETRY_COST = (4, 3)  # lock the user (the key is there), its stored reply, COMMIT


@dataclass
class Counted:
    wecom: WeComSide
    engine_name: str
    log: StatementLog
    wire: WireCounter | None

    async def cost(self, text: str, msg_id: int | None = None) -> tuple[int, list[str]]:
        """What sending `text` cost: the figure pinned for this engine, and the statements."""
        self.log.clear()
        if self.wire is not None:
            self.wire.clear()
        reply = await self.wecom.send_text("alice", text, msg_id=msg_id)
        assert reply.status == 200
        assert reply.text
        figure = len(self.log.sent) if self.wire is None else self.wire.round_trips
        return figure, list(self.log.sent)


@pytest.fixture
async def counted(
    database_url: str, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Counted]:
    # A slow run must not make a pooled connection look idle (and pinged): the figures
    # are the busy path's.
    monkeypatch.setattr(storage.engine, "IDLE_PING_S", 3600.0)
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        async for counted in _serving(database_url, clock, None):
            yield counted
        return
    async with WireCounter(url.host or "127.0.0.1", url.port or 3306).serving() as wire:
        proxied = url.set(host="127.0.0.1", port=wire.port).render_as_string(hide_password=False)
        async for counted in _serving(proxied, clock, wire):
            yield counted


async def _serving(url: str, clock: FakeClock, wire: WireCounter | None) -> AsyncIterator[Counted]:
    engine = create_engine(url)
    log = StatementLog(engine)
    app = create_app(TEST_SETTINGS, clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        wecom = wecom_side(client, TEST_SETTINGS, clock)
        for text in COST:  # the first contact and each kind's first time, not counted
            await wecom.send_text("alice", text)
        yield Counted(wecom=wecom, engine_name=engine.dialect.name, log=log, wire=wire)
    await engine.dispose()


def _pinned(figures: tuple[int, int], engine_name: str) -> int:
    return figures[0] if engine_name == "sqlite" else figures[1]


@pytest.mark.parametrize("text", list(COST))
async def test_each_kind_of_message_costs_what_is_pinned(counted: Counted, text: str) -> None:
    figure, sent = await counted.cost(text)
    assert figure == _pinned(COST[text], counted.engine_name), sent


async def test_a_retried_message_costs_what_is_pinned(counted: Counted) -> None:
    await counted.wecom.send_text("alice", "体重 72.4", msg_id=99)
    figure, sent = await counted.cost("体重 72.4", msg_id=99)
    assert figure == _pinned(RETRY_COST, counted.engine_name), sent
