"""keeper's own limits on `/login` and `/link`: 429 with Retry-After before WeChat is
asked or a code is tried, counted in the metrics (issue 20 item 3)."""

from __future__ import annotations

import datetime as dt

from prometheus_client import CollectorRegistry
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import metrics
from bot.sandbox.fake_wechat import FakeWeChat
from scheduler.clock import FakeClock
from services import mp_link
from tests.integration.conftest import new_user
from tests.integration.mp_support import LINK_KEY, Client, MiniProgram, serve_api

REGISTRY = CollectorRegistry()
REGISTRY.register(metrics.MP_RATE_LIMITED)


def refusals(limit: str) -> float:
    return REGISTRY.get_sample_value("keeper_mp_rate_limited_total", {"limit": limit}) or 0.0


async def _junk_logins(api: Client, n: int, address: str | None = None) -> list[int]:
    statuses = []
    for i in range(n):
        headers = {"X-Forwarded-For": address or f"198.51.100.{i % 250}"}
        response = await api.post("/api/mp/v1/login", json={"js_code": f"junk{i}"}, headers=headers)
        statuses.append(response.status)
    return statuses


async def test_junk_codes_from_one_address_reach_wechat_ten_times_a_minute(
    api: Client, fake: FakeWeChat, clock: FakeClock
) -> None:
    before = refusals("login_address")
    statuses = await _junk_logins(api, 200, "198.51.100.7")
    assert statuses == [401] * 10 + [429] * 190  # invalid_code from WeChat, then ours
    assert fake.login_calls == 10  # the AppSecret left ten times, not 192
    assert refusals("login_address") - before == 190
    response = await api.post(
        "/api/mp/v1/login", json={"js_code": "x"}, headers={"X-Forwarded-For": "198.51.100.7"}
    )
    assert (response.status, response.headers["Retry-After"]) == (429, "6")
    assert (await response.json())["error"] == "rate_limited"
    clock.advance(dt.timedelta(seconds=6))
    assert await _junk_logins(api, 2, "198.51.100.7") == [401, 429]
    assert await _junk_logins(api, 1, "198.51.100.8") == [401]  # another address: its own


async def test_junk_codes_from_many_addresses_reach_wechat_sixty_times_a_minute(
    api: Client, fake: FakeWeChat
) -> None:
    before = refusals("login_global")
    statuses = await _junk_logins(api, 100)  # 100 addresses, one try each
    assert statuses == [401] * 60 + [429] * 40
    assert fake.login_calls == 60
    assert refusals("login_global") - before == 40


async def test_an_address_a_client_forged_is_not_believed_from_an_untrusted_peer(
    fake: FakeWeChat, clock: FakeClock, engine: AsyncEngine
) -> None:
    """The test client connects from 127.0.0.1: with no trusted proxy, that is the
    client, whatever its X-Forwarded-For says."""
    async with serve_api(fake, clock, engine, web={"trusted_proxies": ()}) as (api, _):
        statuses = await _junk_logins(api, 12)  # twelve "addresses", one peer
    assert statuses == [401] * 10 + [429] * 2


async def test_a_good_login_is_limited_like_any_other(api: Client, fake: FakeWeChat) -> None:
    await _junk_logins(api, 10, "198.51.100.7")
    response = await api.post(
        "/api/mp/v1/login",
        json={"js_code": fake.new_code("oMpUser0001")},
        headers={"X-Forwarded-For": "198.51.100.7"},
    )
    assert response.status == 429


async def test_a_bad_request_spends_no_login(api: Client, fake: FakeWeChat) -> None:
    headers = {"X-Forwarded-For": "198.51.100.7"}
    for _ in range(20):
        response = await api.post("/api/mp/v1/login", json={"js_code": ""}, headers=headers)
        assert response.status == 400
    assert await _junk_logins(api, 1, "198.51.100.7") == [401]
    assert fake.login_calls == 1


async def test_wrong_link_codes_from_many_openids_stop_at_thirty_an_hour(
    api: Client, fake: FakeWeChat, clock: FakeClock, engine: AsyncEngine
) -> None:
    """Five wrong codes each is all an openid gets; thirty in all is all they get
    together, and then even the right code waits (Retry-After says how long)."""
    member = await new_user(engine, clock, "zhangsan")
    async with engine.begin() as session:
        code = await mp_link.new_link_code(session, member, clock.now(), key=LINK_KEY)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    phones = [MiniProgram(api, fake, f"oMpGuess{i:04d}") for i in range(7)]
    for phone in phones:
        await phone.login()
    before = refusals("link_global")
    for phone in phones[:6]:
        for _ in range(mp_link.LINK_MAX_FAILURES):
            await phone.call("POST", "/link", {"code": wrong}, status=400)
    last = phones[6]
    headers = {"Authorization": f"Bearer {last.token}"}
    response = await api.post("/api/mp/v1/link", json={"code": code}, headers=headers)
    assert (response.status, (await response.json())["error"]) == (429, "rate_limited")
    assert response.headers["Retry-After"] == "120"  # 30 an hour: one back every 2 minutes
    assert refusals("link_global") - before == 1
    clock.advance(dt.timedelta(minutes=2))
    linked = await last.call("POST", "/link", {"code": code})  # a right code spends nothing
    assert linked["state"] == "disabled"


async def test_an_openid_locked_out_is_counted_and_spends_no_global_guess(
    api: Client, fake: FakeWeChat, clock: FakeClock
) -> None:
    phone = MiniProgram(api, fake)
    await phone.login()
    before = refusals("link_openid")
    for _ in range(mp_link.LINK_MAX_FAILURES):
        await phone.call("POST", "/link", {"code": "000000"}, status=400)
    for _ in range(40):  # locked out: these are no guesses, and do not spend the others'
        await phone.call("POST", "/link", {"code": "000000"}, status=429)
    assert refusals("link_openid") - before == 40
    from bot.mp.routes import LIMITS  # here: the other tests run on code without it

    assert api.app is not None
    assert api.app[LIMITS].wrong_links.take("", clock.now()) is None  # 25 were left
