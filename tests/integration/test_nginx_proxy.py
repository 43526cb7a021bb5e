"""The shipped deploy/nginx.conf, run by the distribution's nginx in front of keeper.

First `nginx -t` on the file as shipped (only the certificate paths point at a
throwaway certificate): the nginx Debian 12 ships (1.22) must accept it as it is,
which is what `.ci/run` checks before the suite. Then nginx on loopback, the file
readdressed to free ports (tests/nginx.py says what changes), in front of a real
keeper app: WeCom's signed callback and URL check, the mini-program's login and the
pages reach keeper over TLS (verified against the throwaway certificate), while
/metrics gets nginx's own 404 and port 80 only redirects and answers ACME.
Without nginx these skip with the reason shown; CI sets KEEPER_REQUIRE_NGINX=1.
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wechat import FakeWeChat
from bot.sandbox.wecom_side import WeComSide
from scheduler.clock import FakeClock
from tests.conftest import TEST_SETTINGS
from tests.integration.mp_support import make_fake, serve_api
from tests.nginx import (
    SHIPPED,
    certified,
    check,
    configure,
    nginx,
    readdressed,
    running,
    self_signed,
)
from tests.ports import free_port

ON_SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
"""The proxy is under test, not the database: one engine is enough."""


def test_the_distributions_nginx_accepts_the_shipped_file(tmp_path: Path) -> None:
    binary = nginx()
    main = configure(tmp_path, certified(SHIPPED.read_text(), *self_signed(tmp_path)))
    result = check(binary, main)
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


@dataclass(frozen=True, kw_only=True, slots=True)
class Proxy:
    https: str
    http: str
    session: aiohttp.ClientSession  # trusts the throwaway certificate, nothing else
    fake: FakeWeChat
    acme: Path


@pytest.fixture
async def proxy(tmp_path: Path, clock: FakeClock, engine: AsyncEngine) -> AsyncIterator[Proxy]:
    """nginx on the shipped file, in front of keeper (whose WeChat is a fake)."""
    binary = nginx()
    fake = make_fake(clock)
    cert, key = self_signed(tmp_path)
    http, https, acme = free_port(), free_port(), tmp_path / "acme"
    async with serve_api(fake, clock, engine) as (keeper, _):
        assert keeper.server.port is not None
        text = readdressed(
            certified(SHIPPED.read_text(), cert, key),
            http=http,
            https=https,
            upstream=keeper.server.port,
            acme=acme,
        )
        trusted = ssl.create_default_context(cafile=cert)
        async with (
            running(binary, configure(tmp_path, text)),
            aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=trusted)) as session,
        ):
            yield Proxy(
                https=f"https://127.0.0.1:{https}",
                http=f"http://127.0.0.1:{http}",
                session=session,
                fake=fake,
                acme=acme,
            )


def _wecom(proxy: Proxy, clock: FakeClock) -> WeComSide:
    s = TEST_SETTINGS
    return WeComSide(
        proxy.https,
        s.wecom.token,
        s.wecom.aes_key,
        s.wecom.corp_id,
        s.wecom.agent_id,
        clock.now,
        session=proxy.session,
    )


@ON_SQLITE
async def test_a_signed_wecom_callback_gets_its_reply_through_the_proxy(
    proxy: Proxy, clock: FakeClock
) -> None:
    wecom = _wecom(proxy, clock)
    url_check = await wecom.verify_url("echo-through-nginx")
    assert (url_check.status, url_check.text) == (200, "echo-through-nginx")
    reply = await wecom.send_text("alice", "体重 72.4")
    assert reply.status == 200
    assert "72.4" in (reply.text or "")  # opened and its signature verified


@ON_SQLITE
async def test_the_mini_program_logs_in_and_reads_its_plan_through_the_proxy(
    proxy: Proxy,
) -> None:
    code = proxy.fake.new_code("oMpThroughNginx01")
    async with proxy.session.post(
        proxy.https + "/api/mp/v1/login", json={"js_code": code}
    ) as response:
        assert response.status == 200, await response.text()
        login = await response.json()
    bearer = {"Authorization": f"Bearer {login['token']}"}
    async with proxy.session.get(proxy.https + "/api/mp/v1/water", headers=bearer) as response:
        assert response.status == 200
        assert "daily_goal" in await response.json()
    async with proxy.session.get(proxy.https + "/api/mp/v1/nothing-here") as response:
        assert response.status == 404
        assert (await response.json())["error"] == "not_found"  # keeper's answer, not nginx's


@ON_SQLITE
async def test_the_pages_reach_keeper_and_the_internal_routes_do_not_leave_the_server(
    proxy: Proxy,
) -> None:
    async with proxy.session.get(proxy.https + "/web/me") as response:
        assert "Content-Security-Policy" in response.headers  # keeper's page
    async with proxy.session.get(proxy.https + "/metrics") as response:
        assert response.status == 404
        assert "nginx" in await response.text()  # nginx's own page: keeper never saw it
    async with proxy.session.get(proxy.https + "/healthz") as response:  # from loopback
        assert (await response.json())["database"] == "ok"


@ON_SQLITE
async def test_port_80_answers_acme_and_redirects_everything_else(proxy: Proxy) -> None:
    challenge = proxy.acme / ".well-known" / "acme-challenge" / "token-1"
    challenge.parent.mkdir(parents=True)
    challenge.write_text("token-1.key")
    async with proxy.session.get(proxy.http + "/.well-known/acme-challenge/token-1") as response:
        assert (response.status, await response.text()) == (200, "token-1.key")
    async with proxy.session.get(
        proxy.http + "/api/mp/v1/login", allow_redirects=False
    ) as response:
        assert response.status == 301
        assert response.headers["Location"] == "https://127.0.0.1/api/mp/v1/login"
