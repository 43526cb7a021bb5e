"""A whole keeper: app + scheduler + fake WeCom API, on one clock and one database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.sandbox.wecom_side import WeComSide
from bot.scheduling import scheduler_for
from scheduler.clock import FakeClock
from scheduler.tick import Scheduler, TickReport, tick
from storage.database import Database
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side
from tests.settings_env import changed


@dataclass
class Keeper:
    wecom: WeComSide
    api: FakeWeCom
    scheduler: Scheduler
    clock: FakeClock

    async def say(self, text: str, user: str = "alice") -> str:
        reply = await self.wecom.send_text(user, text)
        assert reply.status == 200
        return reply.text or ""

    async def tick(self) -> TickReport:
        return await tick(self.scheduler)

    def sent_to(self, user: str = "alice") -> list[str]:
        return [m.content for m in self.api.messages_to(user)]


SEND_TIMEOUT_S = 5.0
"""The scheduler's send timeout in `keeper`: 5 s, not 0.5 s: a loaded CI machine once
took longer than 0.5 s for the fake's gettoken, and a nag test saw its merged message
split by the retry."""
HUNG_SEND_TIMEOUT_S = 2.0
"""The send timeout of a test marked `hangs_a_send`: the fake holds one send until the
scheduler gives up on it, and that test would otherwise wait out 5 s for nothing."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "hangs_a_send: the test hangs a send (`api.hang_next`); `keeper` times sends out "
        f"after {HUNG_SEND_TIMEOUT_S} s, not {SEND_TIMEOUT_S} s",
    )


@pytest.fixture
def keeper_settings() -> dict[str, dict[str, object]]:
    """Settings a test module changes from TEST_SETTINGS, by group (override this
    fixture): e.g. `{"web": {"public_url": "https://keeper.example.com"}}`."""
    return {}


@pytest.fixture
async def keeper(
    engine: AsyncEngine,
    clock: FakeClock,
    keeper_settings: dict[str, dict[str, object]],
    request: pytest.FixtureRequest,
) -> AsyncIterator[Keeper]:
    hangs = request.node.get_closest_marker("hangs_a_send") is not None
    send_timeout = HUNG_SEND_TIMEOUT_S if hangs else SEND_TIMEOUT_S
    api = FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
        clock=clock.now,
    )
    async with run_fake_wecom(api) as api_base:
        base = changed(
            TEST_SETTINGS, wecom={"api_base": api_base}, operations={"admins": frozenset({"boss"})}
        )
        settings = changed(base, **keeper_settings)
        app = create_test_app(settings, clock=clock, engine=engine)
        async with TestClient(TestServer(app)) as client:
            wecom = wecom_side(client, settings, clock)
            async with scheduler_for(
                settings, Database(engine), clock, send_timeout=send_timeout
            ) as scheduler:
                yield Keeper(wecom=wecom, api=api, scheduler=scheduler, clock=clock)
