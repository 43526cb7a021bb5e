"""The pages over HTTP: every route and every way in, on SQLite and MariaDB.

Links are made the way a member makes them (`网页` through a real encrypted
callback) and opened with the test client, whose cookie jar plays the browser.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from aiohttp import CookieJar
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import create_app
from bot.sandbox.wecom_side import WeComSide
from bot.settings import Settings
from bot.web import auth
from handlers import texts
from scheduler.clock import FakeClock
from storage.delivery_models import ATTEMPTS, JOBS
from storage.models import INBOUND
from storage.repos import backups
from tests.conftest import TEST_SETTINGS, wecom_side
from tests.integration.conftest import PAGES_SETTINGS, new_rule, new_user, row_counts
from tests.settings_env import changed

LINK = re.compile(r"https?://[^/\s]+(/web/link/[A-Za-z0-9_-]+)")


@pytest.fixture
def settings() -> Settings:
    return PAGES_SETTINGS


async def link_for(wecom: WeComSide, user: str, text: str = "网页") -> str:
    reply = await wecom.send_text(user, text)
    assert reply.text is not None
    found = LINK.search(reply.text)
    assert found, reply.text
    return found[1]


async def sign_in(client: TestClient[object, object], wecom: WeComSide, user: str) -> None:
    response = await client.get(await link_for(wecom, user), allow_redirects=False)
    assert response.status == 303


async def test_a_link_signs_in_with_a_strict_http_only_cookie_and_shows_the_page(
    client: TestClient[object, object], wecom: WeComSide
) -> None:
    await wecom.send_text("alice", "体重 72.4")
    response = await client.get(await link_for(wecom, "alice"), allow_redirects=False)
    assert response.status == 303
    assert response.headers["Location"] == "/web/me"
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    assert "Max-Age=43200" in cookie
    assert "Secure" not in cookie  # KEEPER_PUBLIC_URL is http here
    page = await client.get("/web/me")
    html = await page.text()
    assert page.status == 200
    assert html.count('class="pt"') == 1
    assert len(re.findall(r'class="d ', html)) == 365
    assert "Content-Security-Policy" in page.headers
    assert not re.search(r'(?:src|href)="(?:https?:)?//', html)  # nothing from elsewhere


async def test_an_https_public_url_makes_the_cookie_secure(
    settings: Settings, clock: FakeClock, engine: AsyncEngine
) -> None:
    app = create_app(
        changed(settings, web={"public_url": "https://keeper.test"}), clock=clock, engine=engine
    )
    async with TestClient(TestServer(app)) as client:
        wecom = wecom_side(client, settings, clock)
        response = await client.get(await link_for(wecom, "alice"), allow_redirects=False)
    assert "Secure" in response.headers["Set-Cookie"]


async def test_a_public_url_with_a_path_prefixes_redirects_cookie_and_links(
    settings: Settings, clock: FakeClock, engine: AsyncEngine
) -> None:
    """Behind a proxy serving keeper at https://h/keeper (stripping the prefix), the
    browser must be sent to /keeper/web/..., or sign-in lands on another site's page."""
    app = create_app(
        changed(settings, web={"public_url": "http://keeper.test/keeper"}),
        clock=clock,
        engine=engine,
    )
    async with TestClient(TestServer(app), cookie_jar=CookieJar(unsafe=True)) as client:
        wecom = wecom_side(client, settings, clock)
        reply = await wecom.send_text("alice", "网页")
        assert reply.text is not None
        found = re.search(r"http://keeper\.test/keeper(/web/link/[A-Za-z0-9_-]+)", reply.text)
        assert found, reply.text
        response = await client.get(found[1], allow_redirects=False)  # the proxy strips it
        assert response.headers["Location"] == "/keeper/web/me"
        assert "Path=/keeper/web" in response.headers["Set-Cookie"]
        client.session.cookie_jar.update_cookies(response.cookies)
        for cookie in client.session.cookie_jar:  # the test server has no prefix
            cookie["path"] = "/web"
        html = await (await client.get("/web/me")).text()
    assert 'href="/keeper/web/static/keeper.css"' in html


async def test_a_replayed_link_is_refused_and_changes_nothing(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine
) -> None:
    path = await link_for(wecom, "alice")
    assert (await client.get(path, allow_redirects=False)).status == 303
    before = await row_counts(engine)
    client.session.cookie_jar.clear()
    again = await client.get(path, allow_redirects=False)
    assert again.status == 410
    assert "已经用过了" in await again.text()
    assert "Set-Cookie" not in again.headers
    assert await row_counts(engine) == before


async def test_an_expired_link_is_refused(
    client: TestClient[object, object], wecom: WeComSide, clock: FakeClock
) -> None:
    path = await link_for(wecom, "alice")
    clock.advance(dt.timedelta(minutes=10, seconds=1))
    response = await client.get(path, allow_redirects=False)
    assert response.status == 410
    assert "过期" in await response.text()
    assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize("change", ["flip", "short", "long", "symbols"])
async def test_an_altered_link_is_refused(
    client: TestClient[object, object], wecom: WeComSide, change: str
) -> None:
    path = await link_for(wecom, "alice")
    token = path.rsplit("/", 1)[1]
    altered = {
        "flip": token[:-1] + ("A" if token[-1] != "A" else "B"),
        "short": token[:10],
        "long": token + "x" * 200,
        "symbols": token[:-3] + "%3C%3E",
    }[change]
    response = await client.get(f"/web/link/{altered}", allow_redirects=False)
    assert response.status == 404
    assert "链接不对" in await response.text()
    assert (await client.get(path, allow_redirects=False)).status == 303  # the real one still works


@pytest.mark.parametrize("path", ["/web/me", "/web/admin", "/web/me?day=2026-01-01"])
async def test_without_a_cookie_every_page_asks_to_sign_in(
    client: TestClient[object, object], path: str
) -> None:
    response = await client.get(path)
    assert response.status == 401
    assert "网页" in await response.text()


async def test_a_forged_or_foreign_cookie_is_no_session(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine, clock: FakeClock
) -> None:
    alice = await new_user(engine, clock, "alice")
    bob = await new_user(engine, clock, "bob")
    await sign_in(client, wecom, "alice")
    real = next(c for c in client.session.cookie_jar if c.key == auth.COOKIE_NAME).value
    forged = real.replace(f"v1.{alice}.", f"v1.{bob}.", 1)
    other_key = auth.issue(b"another deployment's key", bob, "admin", clock.now())
    for value in (forged, other_key, "garbage", real + "x"):
        client.session.cookie_jar.clear()
        client.session.cookie_jar.update_cookies({auth.COOKIE_NAME: value})
        assert (await client.get("/web/me")).status == 401, value


async def test_another_users_id_in_the_url_shows_only_ones_own_data(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine, clock: FakeClock
) -> None:
    await wecom.send_text("bob", "体重 88.8")
    await wecom.send_text("bob", "日程 明天 9:00 鲍勃的会")
    await wecom.send_text("alice", "体重 55.5")
    bob = await new_user(engine, clock, "bob")
    await sign_in(client, wecom, "alice")
    for query in (f"?user={bob}", f"?user_id={bob}", f"?uid={bob}&span=365"):
        html = await (await client.get(f"/web/me{query}")).text()
        assert "55.5" in html
        assert "88.8" not in html
        assert "鲍勃的会" not in html
    assert (await client.get(f"/web/users/{bob}")).status == 404  # no route takes an id


async def test_the_day_detail_says_a_journal_exists_but_never_its_text(
    client: TestClient[object, object], wecom: WeComSide
) -> None:
    for text in ("体重 72.4", "喝水 +3", "记账 35 午饭", "日记 秘密的心事"):
        await wecom.send_text("alice", text)
    await sign_in(client, wecom, "alice")
    response = await client.get("/web/me?day=2026-11-25")
    html = await response.text()
    assert response.status == 200
    detail = html[html.index('id="detail"') :]
    assert "72.4 kg" in detail
    assert "3 杯" in detail
    assert "35.00 元" in detail
    assert "写了" in detail
    assert "秘密" not in html


@pytest.mark.parametrize(
    "query", ["?day=2026-13-01", "?day=2025-05-01", "?day=yesterday", "?span=7", "?span="]
)
async def test_a_malformed_query_gets_a_plain_answer(
    client: TestClient[object, object], wecom: WeComSide, query: str
) -> None:
    await sign_in(client, wecom, "alice")
    response = await client.get(f"/web/me{query}")
    assert response.status == 400
    assert "参数不对" in await response.text()


async def test_the_weight_range_counts_the_points_inside_it(
    client: TestClient[object, object], wecom: WeComSide, clock: FakeClock
) -> None:
    for kg in ("70.1", "70.3", "70.2"):
        await wecom.send_text("alice", f"体重 {kg}")
        clock.advance(dt.timedelta(days=20))
    await sign_in(client, wecom, "alice")
    counts = {}
    for span in (30, 90):
        html = await (await client.get(f"/web/me?span={span}")).text()
        counts[span] = html.count('class="pt"')
    assert counts == {30: 1, 90: 3}


async def test_a_member_who_is_not_an_admin_gets_no_admin_page(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine
) -> None:
    before = await row_counts(engine)
    reply = await wecom.send_text("alice", "管理 网页")
    assert reply.text == texts.ADMIN_ONLY
    await sign_in(client, wecom, "alice")
    response = await client.get("/web/admin")
    assert response.status == 403
    assert "管理员" in await response.text()
    assert (await row_counts(engine))["web_links"] == before["web_links"] + 1  # only 网页's


async def test_an_admin_link_opens_the_admin_page_with_masked_recipients(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine, clock: FakeClock
) -> None:
    alice = await new_user(engine, clock, "alice")
    rule = await new_rule(engine, clock, alice)
    async with engine.begin() as conn:
        job = (
            await conn.execute(
                insert(JOBS).values(
                    user_id=alice, rule_id=rule, scheduled_slot_utc=clock.now(), status="failed",
                    policy="at_most_once", priority="normal", channel="wecom_app",
                    recipient="alice", payload_kind="custom", next_attempt_at=clock.now(),
                    created_at=clock.now(), updated_at=clock.now(), attempts=1,
                )
            )
        ).inserted_primary_key[0]  # fmt: skip
        await conn.execute(
            insert(ATTEMPTS).values(
                job_id=job, attempt_no=1, channel="wecom_app", started_at=clock.now(),
                duration_ms=12, outcome="failed", error_class="config", provider_code=60020,
                error=f"errcode 60020 corpsecret={TEST_SETTINGS.wecom.secret}",
            )
        )  # fmt: skip
    path = await link_for(wecom, "boss", "管理 网页")
    response = await client.get(path, allow_redirects=False)
    assert response.headers["Location"] == "/web/admin"
    page = await client.get("/web/admin")
    html = await page.text()
    assert page.status == 200
    assert 'class="channel"' in html
    assert "服务器 IP 不在企业可信 IP 中" in html  # the failure and the hold it caused
    assert "暂停到" in html
    assert "备份：未开启" in html
    assert "u:" in html
    assert ">alice<" not in html
    assert TEST_SETTINGS.wecom.secret not in html
    assert (await client.get("/web/me")).status == 200  # an admin sees their own page too


async def test_an_admin_session_ends_when_the_member_leaves_keeper_admins(
    settings: Settings, clock: FakeClock, engine: AsyncEngine
) -> None:
    boss = await new_user(engine, clock, "boss")
    cookie = auth.issue(settings.web_key(), boss, "admin", clock.now())
    app = create_app(
        changed(settings, operations={"admins": frozenset()}), clock=clock, engine=engine
    )
    async with TestClient(TestServer(app), cookie_jar=CookieJar(unsafe=True)) as client:
        client.session.cookie_jar.update_cookies({auth.COOKIE_NAME: cookie})
        assert (await client.get("/web/admin")).status == 403


async def test_a_session_lasts_twelve_hours(
    client: TestClient[object, object], wecom: WeComSide, clock: FakeClock
) -> None:
    await sign_in(client, wecom, "alice")
    clock.advance(dt.timedelta(hours=11, minutes=59))
    assert (await client.get("/web/me")).status == 200
    clock.advance(dt.timedelta(minutes=2))
    assert (await client.get("/web/me")).status == 401


async def test_a_retried_link_message_gets_no_second_link_and_no_token_is_stored(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine
) -> None:
    first = await wecom.send_text("alice", "网页", msg_id=777)
    retry = await wecom.send_text("alice", "网页", msg_id=777)
    assert first.text is not None
    assert LINK.search(first.text)
    assert retry.text == texts.LINK_SENT_BEFORE
    token = first.text.rsplit("/", 1)[1]
    async with engine.connect() as conn:
        stored = (await conn.execute(select(INBOUND.c.reply_text))).scalars().all()
    assert not any(token in (text or "") for text in stored)


async def test_without_a_public_url_the_link_commands_say_the_pages_are_off(
    settings: Settings, clock: FakeClock, engine: AsyncEngine
) -> None:
    app = create_app(changed(settings, web={"public_url": ""}), clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        wecom = WeComSide(
            str(client.make_url("")).rstrip("/"), settings.wecom.token, settings.wecom.aes_key,
            settings.wecom.corp_id, settings.wecom.agent_id, clock.now, session=client.session,
        )  # fmt: skip
        for text in ("网页", "导出"):
            assert (await wecom.send_text("alice", text)).text == texts.PAGES_OFF
    assert (await row_counts(engine))["web_links"] == 0


async def test_the_stylesheet_ships_with_the_package(client: TestClient[object, object]) -> None:
    response = await client.get("/web/static/keeper.css")
    assert response.status == 200
    assert ".cal" in await response.text()


async def test_the_page_shows_this_weeks_review_without_its_question(
    client: TestClient[object, object], wecom: WeComSide
) -> None:
    for text in ("体重 72.4", "记账 35 午饭", "预算 餐饮 1500"):
        await wecom.send_text("alice", text)
    await sign_in(client, wecom, "alice")
    html = await (await client.get("/web/me")).text()
    section = html[html.index('id="review"') : html.index('id="weight"')]
    assert "<li>体重：7 天平均 72.4 kg。</li>" in section
    assert "<li>预算：餐饮 本月已用 35 / 1500 元（2%）。</li>" in section
    assert "回「好」" not in section


BACKUPS_ON = changed(
    TEST_SETTINGS,
    web={"public_url": "http://keeper.test"},
    operations={"admins": frozenset({"boss"})},
    backup={"directory": Path("/var/backups/keeper"), "key": "page test backup passphrase"},
)


@pytest.mark.parametrize("settings", [BACKUPS_ON])
async def test_the_admin_page_shows_the_last_verified_backup(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine, clock: FakeClock
) -> None:
    async with engine.begin() as session:
        run = await backups.claim_day(
            session, day=dt.date(2026, 11, 25), owner="worker:1", now=clock.now()
        )
        assert run is not None
        await backups.finish(
            session, run, finished_at=clock.now(), path="keeper-20261125T020000Z.kbak",
            verified=True, revision="0012", rows=1602, size_bytes=4096, problem="",
        )  # fmt: skip
    await client.get(await link_for(wecom, "boss", "管理 网页"), allow_redirects=False)
    html = await (await client.get("/web/admin")).text()
    assert "备份：最近一次已验证 11-25 10:00（1,602 行）" in html
    assert "未开启" not in html


async def test_a_failing_link_request_logs_no_token(
    client: TestClient[object, object],
    wecom: WeComSide,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The last-resort handler logs the route's pattern, not the path: a link's path is
    its token, still usable after the failed request rolled back its use."""
    from bot.web import routes

    path = await link_for(wecom, "alice", "导出")
    token = path.rsplit("/", 1)[1]

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(routes, "export_user", broken)
    caplog.clear()
    assert (await client.get(path, allow_redirects=False)).status == 503
    assert "unhandled error" in caplog.text
    # aiohttp's own access log is off in keeper serve and keeper chat (access_log=None);
    # only the test server writes one.
    ours = [r for r in caplog.records if r.name != "aiohttp.access"]
    assert [r for r in ours if token in str(vars(r))] == []


async def test_a_head_request_does_not_use_up_the_link(
    client: TestClient[object, object], wecom: WeComSide
) -> None:
    """Link checkers and previews send HEAD: it must neither use the link nor sign in."""
    path = await link_for(wecom, "alice")
    head = await client.head(path, allow_redirects=False)
    assert head.status == 405
    assert "Set-Cookie" not in head.headers
    assert (await client.get(path, allow_redirects=False)).status == 303
