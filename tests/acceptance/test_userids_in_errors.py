"""A provider's error text that names a member is stored and logged masked (issue 20 item 4).

WeCom's errmsg may name the recipient (`invaliduser: carol`); a proxy's 502 page may
name anyone keeper sends to. Neither name reaches `delivery_attempts.error`, a
WARNING line or the admin page's 最近的失败: every known UserID is tagged first.
"""

from __future__ import annotations

import datetime as dt
import logging
import re

import pytest
from aiohttp import CookieJar
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import create_app
from bot.web import auth
from scheduler.clock import FakeClock
from scheduler.core.redact import mask_user
from scheduler.core.user_ids import KNOWN
from storage.database import Database
from storage.delivery_models import ATTEMPTS
from storage.repos import links
from tests.acceptance.conftest import Keeper
from tests.conftest import TEST_SETTINGS
from tests.settings_env import changed

HOUR = dt.timedelta(hours=1)
NAMED = re.compile(r"(?i)(?<![a-z0-9])(carol|dave)(?![a-z0-9])")
PROXY_PAGE = (
    "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
    "<p>upstream refused the message for dave</p><hr><center>nginx</center></body></html>"
)


def named(text: str) -> list[str]:
    return NAMED.findall(text)


async def admin_page(engine: AsyncEngine, clock: FakeClock) -> str:
    """The admin page as the admin `boss` sees it, signed in with a fresh session."""
    settings = changed(TEST_SETTINGS, operations={"admins": frozenset({"boss"})})
    async with Database(engine).transaction() as session:
        boss = await links.user_id_of(session, "boss")
    assert boss is not None
    app = create_app(settings, clock=clock, engine=engine)
    async with TestClient(TestServer(app), cookie_jar=CookieJar(unsafe=True)) as client:
        cookie = auth.issue(settings.web_key(), boss, "admin", clock.now())
        client.session.cookie_jar.update_cookies({auth.COOKIE_NAME: cookie})
        response = await client.get("/web/admin")
        assert response.status == 200
        return await response.text()


async def test_an_errmsg_naming_the_recipient_and_a_proxy_page_naming_another_member_are_masked(
    keeper: Keeper, engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    await keeper.say("我是谁", user="dave")
    await keeper.say("我是谁", user="boss")
    await keeper.say("提醒 今天 11:00 交材料", user="carol")
    await keeper.say("提醒 今天 12:00 吃药", user="carol")
    keeper.clock.advance(HOUR)
    keeper.api.fail_next(81013, errmsg="user & party & tag all invalid, invaliduser: carol")
    await keeper.tick()
    keeper.clock.advance(HOUR)
    keeper.api.status_next(502, page=PROXY_PAGE)
    await keeper.tick()

    async with keeper.scheduler.database.transaction() as session:
        errors = list((await session.execute(select(ATTEMPTS.c.error))).scalars())
    assert len(errors) == 2
    assert [named(e) for e in errors] == [[], []]
    assert mask_user("carol") in errors[0]  # the errmsg is kept, the name tagged
    assert mask_user("dave") in errors[1]
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) >= 2
    logged = [r.getMessage() for r in warnings]
    logged += [str(v) for r in warnings for v in vars(r).values() if isinstance(v, str)]
    assert [text for text in logged if named(text)] == []
    assert mask_user("dave") in "\n".join(logged)

    html = await admin_page(engine, keeper.clock)
    failures = html[html.index('id="failures"') :]
    assert failures.count('class="failure"') == 2
    assert mask_user("carol") in failures
    assert named(failures) == []


async def test_an_error_stored_before_masking_existed_shows_masked_on_the_admin_page(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    """The page reads the known IDs itself: the web process may run no tick."""
    await keeper.say("我是谁", user="boss")
    await keeper.say("我是谁", user="dave")
    await keeper.say("提醒 今天 11:00 交材料", user="carol")
    keeper.clock.advance(HOUR)
    keeper.api.fail_next(81013)
    await keeper.tick()
    async with keeper.scheduler.database.transaction() as session:
        await session.execute(
            ATTEMPTS.update().values(error="HTTP 502: upstream for dave; invaliduser: Carol")
        )
    KNOWN.clear()  # as in a web process that never ticked
    html = await admin_page(engine, keeper.clock)
    failures = html[html.index('id="failures"') :]
    assert failures.count('class="failure"') == 1
    assert named(failures) == []
    assert mask_user("dave") in failures
