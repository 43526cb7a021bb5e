"""Secrets that rotate alone (issue 22 item 2), step by step as the acceptance says.

alice binds her Server酱 SendKey and makes it her primary; then the operator rotates
WECOM_SECRET and the web key, runs `keeper rekey`, moves the data key to
KEEPER_DATA_KEY_PREVIOUS and sets a new one, runs `keeper rekey` again and drops the
previous key. keeper is restarted with the new settings at every step (a new app and
scheduler on the same database), and at every step a reminder reaches the sandbox's
fake Server酱 with alice's own SendKey.

The second test is the upgrade: a SendKey sealed the pre-issue-22 way (under a key
derived from WECOM_SECRET) keeps sending while KEEPER_DATA_KEY is set and `rekey`
runs, and after that WECOM_SECRET can be reset.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_serverchan import FakeServerChan, run_fake_serverchan
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from bot.scheduling import scheduler_for
from bot.settings import Settings
from scheduler.clock import FakeClock
from scheduler.tick import tick
from services.rekey import RekeyReport, rekey
from storage.channel_models import USER_CHANNELS
from storage.database import Database
from tests.conftest import TEST_SETTINGS, USER_SENDKEY, create_test_app, wecom_side
from tests.settings_env import changed
from tests.unit.test_secret_box import sealed_the_old_way

FIRST_DATA_KEY = TEST_SETTINGS.data.key
SECOND_DATA_KEY = "the-second-data-key-0002-0123456789abcdefAB"
NEW_WECOM_SECRET = "a-reset-wecom-secret-0002"
NEW_WEB_KEY = "the-second-web-signing-key-0002-0123456789"


class Rotation:
    """keeper on one database, restarted with each step's settings."""

    def __init__(self, engine: AsyncEngine, clock: FakeClock, api: FakeWeCom, chan: FakeServerChan):
        self.engine, self.clock, self.api, self.chan = engine, clock, api, chan
        self.msg_ids = itertools.count(1)

    @asynccontextmanager
    async def running(
        self, settings: Settings
    ) -> AsyncIterator[tuple[TestClient[object, object], Settings]]:
        self.api.secret = settings.wecom.secret  # the console and keeper.env agree
        app = create_test_app(settings, clock=self.clock, engine=self.engine)
        async with TestClient(TestServer(app)) as client:
            yield client, settings

    async def say(self, settings: Settings, *lines: str) -> list[str]:
        async with self.running(settings) as (client, s):
            side = wecom_side(client, s, self.clock)
            replies = []
            for line in lines:
                # MsgIds go on across restarts: WeCom's are unique, and keeper
                # answers a repeated one with the reply it stored (a retried callback).
                reply = await side.send_text("alice", line, msg_id=next(self.msg_ids))
                assert reply.status == 200
                replies.append(reply.text or "")
            return replies

    async def reminder_reaches_serverchan(self, settings: Settings, what: str) -> None:
        """alice asks for a reminder in a minute; two minutes later a tick under
        `settings` sends it, and Server酱 receives it with her own SendKey."""
        await self.say(settings, f"提醒 1分钟后 {what}")
        self.clock.advance(dt.timedelta(minutes=2))
        async with scheduler_for(settings, Database(self.engine), self.clock, send_timeout=5) as s:
            before = len(self.chan.pushes)
            for _ in range(3):  # materialise, then claim and send (as a worker's next ticks)
                await tick(s)
                self.clock.advance(dt.timedelta(seconds=1))
        assert len(self.chan.pushes) == before + 1
        push = self.chan.pushes[-1]
        assert what in push.title + push.desp, [p.title for p in self.chan.pushes]
        assert push.sendkey == USER_SENDKEY

    async def rekey(self, settings: Settings) -> RekeyReport:
        return await rekey(Database(self.engine), settings.key_ring())

    async def stored(self) -> str:
        async with self.engine.connect() as conn:
            query = select(USER_CHANNELS.c.receiver).where(
                USER_CHANNELS.c.channel == "serverchan_user"
            )
            return str((await conn.execute(query)).scalar_one())


@asynccontextmanager
async def _rotation(
    engine: AsyncEngine, clock: FakeClock
) -> AsyncIterator[tuple[Rotation, Settings]]:
    s = TEST_SETTINGS
    api = FakeWeCom(
        corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id, clock=clock.now
    )
    chan = FakeServerChan(sendkeys={USER_SENDKEY}, daily_quota=20, clock=clock.now)
    async with run_fake_wecom(api) as api_base, run_fake_serverchan(chan) as chan_base:
        base = changed(s, wecom={"api_base": api_base}, channels={"serverchan_api_base": chan_base})
        yield Rotation(engine, clock, api, chan), base


async def test_a_bound_sendkey_sends_at_every_step_of_every_rotation(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    async with _rotation(engine, clock) as (keeper, start):
        # 1. alice binds her SendKey and makes personal WeChat (it) her primary.
        bound, primary = await keeper.say(start, f"绑定 Server酱 {USER_SENDKEY}", "设置 渠道 微信")
        assert "已绑定 Server酱" in bound
        assert "提醒以后走 Server酱" in primary
        await keeper.reminder_reaches_serverchan(start, "喝茶")

        # 2. WECOM_SECRET is reset in the console (a leak): keeper.env follows.
        wecom_reset = changed(start, wecom={"secret": NEW_WECOM_SECRET})
        await keeper.reminder_reaches_serverchan(wecom_reset, "读书")

        # 3. The web key rotates: the old one believed meanwhile as _PREVIOUS.
        web_rotated = changed(
            wecom_reset, web={"secret": NEW_WEB_KEY, "secret_previous": start.web.secret}
        )
        await keeper.reminder_reaches_serverchan(web_rotated, "散步")

        # 4. keeper rekey: the value was under the data key all along.
        first = await keeper.rekey(web_rotated)
        assert (first.resealed, first.already, first.unreadable) == (0, 1, ())
        await keeper.reminder_reaches_serverchan(web_rotated, "买菜")

        # 5. The data key rotates: the old one moves to _PREVIOUS, a new one is set.
        rotating = changed(web_rotated, data={"key": SECOND_DATA_KEY, "previous": FIRST_DATA_KEY})
        old_key_id = rotating.key_ring().previous.key_id  # type: ignore[union-attr]
        assert (await keeper.stored()).startswith(f"v2.{old_key_id}.")
        await keeper.reminder_reaches_serverchan(rotating, "浇花")

        # 6. keeper rekey moves it under the new key; a second run has nothing to do.
        moved = await keeper.rekey(rotating)
        assert (moved.resealed, moved.already) == (1, 0)
        again = await keeper.rekey(rotating)
        assert (again.resealed, again.already) == (0, 1)
        new_key_id = rotating.key_ring().current.key_id  # type: ignore[union-attr]
        assert (await keeper.stored()).startswith(f"v2.{new_key_id}.")
        await keeper.reminder_reaches_serverchan(rotating, "写信")

        # 7. The old data key is no longer needed: gone, and the SendKey still sends.
        done = changed(rotating, data={"key": SECOND_DATA_KEY, "previous": ""})
        await keeper.reminder_reaches_serverchan(done, "练琴")
        [shown] = await keeper.say(done, "设置 渠道")
        assert "读不出来" not in shown
    assert len(keeper.chan.pushes) == 7


async def test_a_sendkey_bound_before_the_data_key_upgrades_without_binding_again(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    async with _rotation(engine, clock) as (keeper, start):
        before = changed(start, data={"key": ""}, web={"secret": ""})  # as deployed until now
        await keeper.say(before, "设置 渠道")  # alice exists
        old = sealed_the_old_way(
            before.wecom.secret,
            USER_SENDKEY,
            user_id=await _alice(engine),
            channel="serverchan_user",
        )
        await _bind_the_old_way(engine, clock, old)
        await keeper.reminder_reaches_serverchan(before, "喝茶")
        [refused] = await keeper.say(before, f"绑定 Server酱 {USER_SENDKEY}")
        assert "KEEPER_DATA_KEY" in refused  # never sealed again under a key a rotation loses
        assert await keeper.stored() == old

        upgraded = changed(before, data={"key": FIRST_DATA_KEY})
        await keeper.reminder_reaches_serverchan(upgraded, "读书")
        report = await keeper.rekey(upgraded)
        assert (report.resealed, report.already) == (1, 0)
        assert (await keeper.stored()).startswith("v2.")

        reset = changed(upgraded, wecom={"secret": NEW_WECOM_SECRET})
        await keeper.reminder_reaches_serverchan(reset, "散步")


async def _alice(engine: AsyncEngine) -> int:
    from storage.models import USERS

    async with engine.connect() as conn:
        query = select(USERS.c.id).where(USERS.c.wecom_user_id == "alice")
        return int((await conn.execute(query)).scalar_one())


async def _bind_the_old_way(engine: AsyncEngine, clock: FakeClock, sealed: str) -> None:
    """alice's row as keeper wrote it before issue 22: bound and her primary."""
    from storage.repos import user_channels
    from storage.vocabulary import ChannelRole

    user_id = await _alice(engine)
    async with engine.begin() as session:
        await user_channels.bind(
            session, user_id, "serverchan_user", receiver=sealed, hint="SCT20…xy", now=clock.now()
        )
        await user_channels.set_role(
            session, user_id, "serverchan_user", ChannelRole.PRIMARY, now=clock.now()
        )
