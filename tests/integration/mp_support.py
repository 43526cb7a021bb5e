"""The mini-program API under test: the keeper app pointed at a fake WeChat, and a
client that logs in and calls the contract's endpoints the way `miniprogram/` does."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import create_app
from bot.mp.auth import link_code_key
from bot.sandbox.fake_wechat import FakeWeChat, run_fake_wechat
from bot.settings import Settings
from scheduler.clock import FakeClock
from tests.conftest import TEST_SETTINGS
from tests.settings_env import changed

Client = TestClient[object, object]
LINK_KEY = link_code_key(TEST_SETTINGS.web_key())
"""The link-code key of the suite's apps, for codes a test makes itself."""


def make_fake(clock: FakeClock) -> FakeWeChat:
    """A fake WeChat that knows the suite's AppID, secret and template."""
    return FakeWeChat(
        appid=TEST_SETTINGS.mp.appid,
        secret=TEST_SETTINGS.mp.secret,
        template_id=TEST_SETTINGS.mp.template_id,
        clock=clock.now,
    )


@asynccontextmanager
async def serve_api(
    fake: FakeWeChat, clock: FakeClock, engine: AsyncEngine, **changes: Mapping[str, object]
) -> AsyncIterator[tuple[Client, Settings]]:
    """The keeper app, its WeChat API base pointed at `fake` (served meanwhile);
    `changes` by group, as `tests.settings_env.changed` takes them."""
    async with run_fake_wechat(fake) as base:
        settings = changed(changed(TEST_SETTINGS, mp={"api_base": base}), **changes)
        app = create_app(settings, clock=clock, engine=engine)
        async with TestClient(TestServer(app)) as client:
            yield client, settings


def new_id() -> str:
    return str(uuid.uuid4())


class MiniProgram:
    """One phone: logs in through the fake and calls the API with its token."""

    def __init__(self, api: Client, fake: FakeWeChat, openid: str = "oMpUser0001") -> None:
        self.api, self.fake, self.openid = api, fake, openid
        self.token = ""

    async def login(self) -> dict[str, Any]:
        response = await self.api.post(
            "/api/mp/v1/login", json={"js_code": self.fake.new_code(self.openid)}
        )
        body: dict[str, Any] = await response.json()
        assert response.status == 200, body
        self.token = body["token"]
        return body

    async def call(
        self, method: str, path: str, body: object = None, *, status: int = 200
    ) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {self.token}"}
        response = await self.api.request(method, "/api/mp/v1" + path, json=body, headers=headers)
        answer: dict[str, Any] = await response.json()
        assert response.status == status, answer
        return answer

    async def water(self) -> dict[str, Any]:
        return await self.call("GET", "/water")

    async def plan(self, action: str, **values: Any) -> dict[str, Any]:
        return await self.call("POST", "/water/plan", {"action": action, **values})

    async def grant(self, request_id: str, result: str = "accept") -> dict[str, Any]:
        body = {
            "request_id": request_id,
            "template_id": TEST_SETTINGS.mp.template_id,
            "result": result,
        }
        return await self.call("POST", "/water/grants", body)

    def action_body(
        self,
        action_id: str,
        occurred_at: str,
        grant_request_id: str | None = None,
        status: str = "skipped",
    ) -> dict[str, Any]:
        return {
            "action_id": action_id,
            "grant_request_id": grant_request_id,
            "subscription_status": status if grant_request_id else "skipped",
            "occurred_at": occurred_at,
            "current_count": 1,
            "daily_goal": 8,
        }

    async def glass(
        self,
        action_id: str,
        occurred_at: str,
        grant_request_id: str | None = None,
        status: str = "accept",
    ) -> dict[str, Any]:
        body = self.action_body(action_id, occurred_at, grant_request_id, status)
        return await self.call("POST", "/water/actions", body)


async def rows(engine: AsyncEngine, sql: str) -> list[Any]:
    async with engine.connect() as conn:
        return list((await conn.execute(text(sql))).all())
