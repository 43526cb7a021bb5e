"""The calendar feed (日历订阅, issue 22) through the real app: a member asks in chat
(real encrypted callbacks), the test client plays the phone's calendar app, and every
feed is read back with the `icalendar` parser. On SQLite and MariaDB.

Acceptance: the ICS parses; revoked means 404; no amount or journal text in it.
"""

from __future__ import annotations

import datetime as dt
import logging
import re

import icalendar
import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import create_app
from bot.sandbox.wecom_side import WeComSide
from bot.settings import Settings
from handlers import texts
from scheduler.clock import FakeClock
from storage.models import INBOUND
from storage.web_models import CALENDAR_FEEDS
from tests.conftest import TEST_SETTINGS, wecom_side
from tests.integration.conftest import row_counts
from tests.settings_env import changed

FEED = re.compile(r"https?://[^/\s]+(/web/calendar/([A-Za-z0-9_-]+)\.ics)")


@pytest.fixture
def settings() -> Settings:
    return changed(TEST_SETTINGS, web={"public_url": "http://keeper.test"})


async def feed_path(wecom: WeComSide, user: str = "alice", text: str = "日历订阅") -> str:
    reply = await wecom.send_text(user, text)
    assert reply.text is not None
    found = FEED.search(reply.text)
    assert found, reply.text
    return found[1]


async def read_feed(client: TestClient[object, object], path: str) -> icalendar.Calendar:
    response = await client.get(path)
    assert response.status == 200
    return icalendar.Calendar.from_ical(await response.read())


def summaries(cal: icalendar.Calendar) -> set[str]:
    return {str(item["SUMMARY"]) for item in cal.walk("VEVENT")}


async def a_week_of_alice(wecom: WeComSide) -> None:
    for text in (
        "日程 明天 14:00-15:00 复诊",
        "日程 周五 体检",
        "任务 明天 18:00 交材料",
        "任务 周五 买菜",  # no time of day: not in the calendar
        "提醒 明天 9:00 关烤箱",
        "提醒 每天 22:00 吃药",  # repeating: not in the calendar
        "记账 612.5 买衣服",
        "体重 72.4",
        "日记 复诊以后轻松了一些",
    ):
        assert (await wecom.send_text("alice", text)).status == 200


async def test_subscribe_fetch_reset_and_the_old_address_is_gone(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine
) -> None:
    await a_week_of_alice(wecom)
    path = await feed_path(wecom)

    response = await client.get(path)
    assert response.status == 200
    assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
    assert response.headers["Cache-Control"] == "private, max-age=900"
    body = await response.read()
    cal = icalendar.Calendar.from_ical(body)
    assert summaries(cal) == {"复诊", "体检", "待办：交材料", "提醒：关烤箱"}
    starts = {str(e["SUMMARY"]): e.decoded("DTSTART") for e in cal.walk("VEVENT")}
    assert starts["复诊"] == dt.datetime(2026, 11, 26, 6, tzinfo=dt.UTC)  # 14:00 Shanghai
    assert starts["体检"] == dt.date(2026, 11, 27)
    assert starts["提醒：关烤箱"] == dt.datetime(2026, 11, 26, 1, tzinfo=dt.UTC)
    text = body.decode()
    for private in ("612", "72.4", "轻松", "日记", "吃药", "买菜"):
        assert private not in text  # no amount, weight, journal; nothing outside the feed

    head = await client.head(path)
    assert head.status == 200
    assert await head.read() == b""

    new_path = await feed_path(wecom, text="日历订阅 重置")
    assert new_path != path
    assert (await client.get(path)).status == 404
    assert (await client.head(path)).status == 404
    assert summaries(await read_feed(client, new_path)) == summaries(cal)


async def test_a_second_address_keeps_the_first_and_only_the_token_hash_is_stored(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine
) -> None:
    first = await feed_path(wecom)
    second = await feed_path(wecom, text="给我日历链接")
    assert (await client.get(first)).status == 200  # a phone already subscribed keeps it
    assert (await client.get(second)).status == 200
    tokens = [p.rsplit("/", 1)[1].removesuffix(".ics") for p in (first, second)]
    assert all(len(token) >= 43 for token in tokens)
    async with engine.connect() as conn:
        hashes = (await conn.execute(select(CALENDAR_FEEDS.c.token_hash))).scalars().all()
        replies = (await conn.execute(select(INBOUND.c.reply_text))).scalars().all()
    assert len(hashes) == 2
    for token in tokens:
        assert token not in hashes
        assert not any(token in (reply or "") for reply in replies)


async def test_a_retried_message_gets_no_second_address(
    client: TestClient[object, object], wecom: WeComSide, engine: AsyncEngine
) -> None:
    first = await wecom.send_text("alice", "日历订阅", msg_id=901)
    retry = await wecom.send_text("alice", "日历订阅", msg_id=901)
    assert first.text is not None
    assert FEED.search(first.text)
    assert retry.text == texts.LINK_SENT_BEFORE
    assert (await row_counts(engine))["calendar_feeds"] == 1


async def test_each_feed_holds_only_its_members_items(
    client: TestClient[object, object], wecom: WeComSide
) -> None:
    await a_week_of_alice(wecom)
    await wecom.send_text("bob", "日程 明天 10:00 面试")
    bobs = await read_feed(client, await feed_path(wecom, "bob"))
    assert summaries(bobs) == {"面试"}


@pytest.mark.parametrize(
    "path",
    [
        "/web/calendar/" + "A" * 43 + ".ics",  # well formed, never made
        "/web/calendar/short.ics",
        "/web/calendar/" + "A" * 43 + "%3C%3E.ics",
        "/web/calendar/" + "A" * 200 + ".ics",
    ],
)
async def test_an_unknown_address_is_a_bare_404(
    client: TestClient[object, object], path: str
) -> None:
    response = await client.get(path)
    assert response.status == 404
    assert "calendar" not in response.headers.get("Content-Type", "")


async def test_without_a_public_url_it_says_how_to_set_it_and_changes_nothing(
    settings: Settings, clock: FakeClock, engine: AsyncEngine
) -> None:
    app = create_app(changed(settings, web={"public_url": ""}), clock=clock, engine=engine)
    async with TestClient(TestServer(app)) as client:
        wecom = wecom_side(client, changed(settings, web={"public_url": ""}), clock)
        await wecom.send_text("alice", "帮助")  # the member exists, with its default rules
        before = await row_counts(engine)
        reply = await wecom.send_text("alice", "日历订阅")
    assert reply.text == texts.CALENDAR_OFF
    assert "KEEPER_PUBLIC_URL" in reply.text
    after = await row_counts(engine)
    assert after["calendar_feeds"] == 0
    changed_tables = {t for t in after if after[t] != before[t]}
    assert changed_tables <= {"inbound_messages"}  # the message itself, nothing else


async def test_no_token_in_any_log_line_even_when_the_feed_fails(
    client: TestClient[object, object],
    wecom: WeComSide,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The token is the credential: never in a log line, not the audit line of its
    making, not the last-resort handler's line when reading the feed fails."""
    from storage.repos import calendar_feeds

    caplog.set_level(logging.DEBUG)
    path = await feed_path(wecom)
    reset_path = await feed_path(wecom, text="日历订阅 重置")
    assert (await client.get(path)).status == 404
    assert (await client.get(reset_path)).status == 200

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database went away")

    monkeypatch.setattr(calendar_feeds, "events_between", broken)
    assert (await client.get(reset_path)).status == 503
    assert "unhandled error" in caplog.text
    assert "calendar feed made" in caplog.text
    # aiohttp's own access log is off in keeper serve and keeper chat (access_log=None);
    # only the test server writes one.
    ours = [r for r in caplog.records if r.name != "aiohttp.access"]
    for token_path in (path, reset_path):
        token = token_path.rsplit("/", 1)[1].removesuffix(".ics")
        assert [r for r in ours if token in str(vars(r)) or token in r.getMessage()] == []
