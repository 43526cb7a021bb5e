"""The channel commands in alice's words: 设置 渠道, 绑定, 解绑, 设置 渠道/备用 (issue 12).

Every refusal changes nothing; no reply repeats a receiver whole.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.channel_models import USER_CHANNELS
from storage.delivery_models import JOBS
from storage.models import USERS
from storage.records import NewJob
from storage.repos import incidents, job_claims, user_channels
from tests.acceptance.conftest import Keeper
from tests.conftest import USER_SENDKEY
from tests.integration.conftest import new_rule, new_user
from tests.integration.job_setup import force_job

UID = "UID_alice0000000000000000001"
NEW_UID = "UID_alicenew000000000000001"


async def _rows(engine: AsyncEngine) -> list[tuple[str, str, str]]:
    async with engine.connect() as conn:
        query = select(USER_CHANNELS.c.channel, USER_CHANNELS.c.hint, USER_CHANNELS.c.role)
        return [
            (c, h, r) for c, h, r in await conn.execute(query.order_by(USER_CHANNELS.c.channel))
        ]


async def test_by_default_the_wecom_app_is_the_only_channel_and_there_is_no_fallback(
    keeper: Keeper,
) -> None:
    shown = await keeper.say("设置 渠道")
    assert "企业微信应用：主通道，最近 7 天没发过" in shown
    assert "备用：无" in shown


async def test_binding_wxpusher_masks_the_uid_and_makes_it_the_fallback(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    reply = await keeper.say(f"绑定 wxpusher {UID}")
    assert "已绑定 WxPusher（UID_al…01）" in reply
    assert UID not in reply
    assert await _rows(engine) == [("wxpusher", "UID_al…01", "fallback")]
    shown = await keeper.say("设置 渠道")
    assert "WxPusher（UID_al…01）：备用，最近 7 天没发过" in shown
    assert UID not in shown


async def test_binding_again_replaces_the_receiver_and_keeps_its_role(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say(f"绑定 WxPusher {UID}")
    reply = await keeper.say("绑定 WxPusher UID_alice0000000000000000077")
    assert "已换绑 WxPusher（UID_al…77）" in reply
    assert await _rows(engine) == [("wxpusher", "UID_al…77", "fallback")]


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("绑定 WxPusher alice", "这不像 WxPusher 的 UID"),
        ("绑定 Server酱 abc123456789", "这不像 Server酱 Turbo 的 SendKey"),
        ("绑定 Server酱 sctp123tabcdefgh", "Server酱³"),
        ("绑定 QQ 12345", "绑定自己的微信通道"),
        ("设置 渠道 短信", "设置 渠道 微信"),
        ("设置 渠道 微信", "先绑定个人微信的通道"),
        ("设置 备用 企业微信", "备用通道不能和主通道相同"),
        ("解绑 WxPusher", "还没绑定 WxPusher"),
    ],
)
async def test_a_malformed_or_impossible_request_is_answered_and_changes_nothing(
    keeper: Keeper, engine: AsyncEngine, text: str, answer: str
) -> None:
    assert answer in await keeper.say(text)
    assert await _rows(engine) == []


async def test_a_server_chan_key_is_bound_sealed_and_shown_masked(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    reply = await keeper.say(f"绑定 方糖 {USER_SENDKEY}")
    assert "已绑定 Server酱（SCT20…xy）" in reply
    async with engine.connect() as conn:
        [stored] = (await conn.execute(select(USER_CHANNELS.c.receiver))).scalars()
    assert stored.startswith("v2.")  # under KEEPER_DATA_KEY (storage.secret_box)
    assert USER_SENDKEY not in stored
    assert USER_SENDKEY not in await keeper.say("设置 渠道")


async def test_choosing_personal_wechat_then_unbinding_it_brings_reminders_back_to_the_app(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say(f"绑定 WxPusher {UID}")
    reply = await keeper.say("设置 渠道 微信")
    assert "提醒以后走 WxPusher" in reply
    assert "备用通道：企业微信应用" in reply  # the old primary takes the fallback's place
    assert await _rows(engine) == [
        ("wecom_app", "", "fallback"),
        ("wxpusher", "UID_al…01", "primary"),
    ]
    assert "提醒改回企业微信应用发送" in await keeper.say("解绑 WxPusher")
    assert await _rows(engine) == [("wecom_app", "", "none")]
    assert "企业微信应用：主通道" in await keeper.say("设置 渠道")


async def test_the_fallback_can_be_switched_off_and_on_again(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say(f"绑定 WxPusher {UID}")
    assert "不用备用通道了" in await keeper.say("设置 备用 关")
    assert await _rows(engine) == [("wxpusher", "UID_al…01", "none")]
    assert "改走 WxPusher" in await keeper.say("设置 备用 微信")
    assert await _rows(engine) == [("wxpusher", "UID_al…01", "fallback")]


async def test_a_held_channel_shows_as_on_hold(keeper: Keeper, engine: AsyncEngine) -> None:
    now = keeper.clock.now()
    async with engine.begin() as session:
        await incidents.seen(
            session, kind="channel_hold", subject="wecom_app", detail="60020", now=now
        )
    shown = await keeper.say("设置 渠道")
    assert "企业微信应用：主通道，暂停使用" in shown
    assert "管理员告警" not in shown  # no alert has gone out yet
    async with engine.begin() as session:
        (hold,) = await incidents.open_all(session)
        await incidents.mark_alerted(session, hold.id, now=now)
    assert "暂停使用：配置出错，已发出管理员告警" in await keeper.say("设置 渠道")


async def test_health_follows_the_latest_send(keeper: Keeper) -> None:
    await keeper.say(f"绑定 WxPusher {UID}")
    await keeper.say("提醒 10分钟后 吃药")
    keeper.clock.advance(dt.timedelta(minutes=10))
    await keeper.tick()
    assert "企业微信应用：主通道，正常（最近一次已送出）" in await keeper.say("设置 渠道")


class TestWithoutWxPusher:
    @pytest.fixture
    def keeper_settings(self) -> dict[str, dict[str, object]]:
        return {"channels": {"wxpusher_app_token": ""}}

    async def test_binding_wxpusher_is_refused_when_keeper_has_no_app_token(
        self, keeper: Keeper, engine: AsyncEngine
    ) -> None:
        assert "KEEPER_WXPUSHER_APP_TOKEN" in await keeper.say(f"绑定 WxPusher {UID}")
        assert await _rows(engine) == []

    async def test_server_chan_needs_no_app_token(
        self, keeper: Keeper, engine: AsyncEngine
    ) -> None:
        assert "已绑定 Server酱" in await keeper.say(f"绑定 Server酱 {USER_SENDKEY}")
        assert [c for c, _, _ in await _rows(engine)] == ["serverchan_user"]

    async def test_a_bound_wxpusher_keeper_can_no_longer_use_shows_as_off_and_is_not_chosen(
        self, keeper: Keeper, engine: AsyncEngine
    ) -> None:
        user = await new_user(engine, keeper.clock, "alice")
        async with engine.begin() as session:  # bound while the token was still set
            await user_channels.bind(
                session, user, "wxpusher", receiver=UID, hint="UID_al…01", now=keeper.clock.now()
            )
        await keeper.say(f"绑定 Server酱 {USER_SENDKEY}")
        assert "WxPusher（UID_al…01）：未启用，这里没开通" in await keeper.say("设置 渠道")
        assert "提醒以后走 Server酱" in await keeper.say("设置 渠道 微信")
        assert "WxPusher 现在用不了" in await keeper.say("设置 备用 WxPusher")

    async def test_unbinding_never_points_jobs_at_a_primary_keeper_cannot_use(
        self, keeper: Keeper, engine: AsyncEngine
    ) -> None:
        """WxPusher is still the primary from when its token was set: jobs leaving the
        unbound Server酱 go to the WeCom app, as new jobs would, not to the UID."""
        user = await new_user(engine, keeper.clock, "alice")
        now = keeper.clock.now()
        async with engine.begin() as session:
            await user_channels.bind(session, user, "wxpusher", receiver=UID, hint="h", now=now)
            await user_channels.set_role(session, user, "wxpusher", "primary", now=now)
        await keeper.say(f"绑定 Server酱 {USER_SENDKEY}")
        job = await _alice_job(engine, keeper, "serverchan_user", f"user:{user}")
        assert "已解绑 Server酱" in await keeper.say("解绑 Server酱")
        assert await _route(engine, job) == ("wecom_app", "alice")


async def _alice_job(engine: AsyncEngine, keeper: Keeper, channel: str, recipient: str) -> int:
    async with engine.begin() as session:
        user = (
            await session.execute(select(USERS.c.id).where(USERS.c.wecom_user_id == "alice"))
        ).scalar_one()
    rule = await new_rule(engine, keeper.clock, user, label="吃药", policy="at_least_once")
    new = NewJob(
        user_id=user,
        rule_id=rule,
        slot=keeper.clock.now() + dt.timedelta(minutes=4),
        policy="at_least_once",
        priority="high",
        channel=channel,
        recipient=recipient,
        payload_kind="custom",
    )
    async with engine.begin() as session:
        job_id = await job_claims.materialise(session, new, now=keeper.clock.now())
    assert job_id is not None
    return job_id


async def _route(engine: AsyncEngine, job_id: int) -> tuple[str, str]:
    async with engine.connect() as conn:
        query = select(JOBS.c.channel, JOBS.c.recipient).where(JOBS.c.id == job_id)
        channel, recipient = (await conn.execute(query)).one()
    return str(channel), str(recipient)


async def test_unbinding_moves_jobs_already_routed_back_to_the_app(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    """Routing looks minutes ahead: a job already on WxPusher must not go to the UID the
    user just took away, as the reply promises."""
    await keeper.say(f"绑定 WxPusher {UID}")
    await keeper.say("设置 渠道 微信")
    job = await _alice_job(engine, keeper, "wxpusher", UID)
    assert "提醒改回企业微信应用发送" in await keeper.say("解绑 WxPusher")
    assert await _route(engine, job) == ("wecom_app", "alice")


async def test_a_new_wxpusher_uid_takes_the_jobs_already_routed_to_the_old_one(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    """换绑: a WxPusher job carries the UID itself, so jobs already routed (and one in
    retry_wait after a try) must follow the new UID, not reach the old phone."""
    await keeper.say(f"绑定 WxPusher {UID}")
    await keeper.say("设置 渠道 微信")
    untried = await _alice_job(engine, keeper, "wxpusher", UID)
    tried = await _alice_job(engine, keeper, "wxpusher", UID)
    await force_job(engine, tried, status="retry_wait", attempts=1)
    assert "已换绑 WxPusher" in await keeper.say(f"绑定 WxPusher {NEW_UID}")
    assert await _route(engine, untried) == ("wxpusher", NEW_UID)
    assert await _route(engine, tried) == ("wxpusher", NEW_UID)


async def test_a_new_primary_takes_the_jobs_not_tried_yet(
    keeper: Keeper, engine: AsyncEngine
) -> None:
    await keeper.say(f"绑定 WxPusher {UID}")
    untried = await _alice_job(engine, keeper, "wecom_app", "alice")
    tried = await _alice_job(engine, keeper, "wecom_app", "alice")
    await force_job(engine, tried, status="retry_wait", attempts=1)  # after an uncertain try
    await keeper.say("设置 渠道 微信")
    assert await _route(engine, untried) == ("wxpusher", UID)
    assert await _route(engine, tried) == ("wecom_app", "alice")  # its duplicate check


async def test_a_new_fallback_is_told_against_the_users_own_primary(keeper: Keeper) -> None:
    await keeper.say(f"绑定 WxPusher {UID}")
    await keeper.say("设置渠道微信")  # no space: still the primary command
    await keeper.say("设置 备用 关")
    reply = await keeper.say(f"绑定 Server酱 {USER_SENDKEY}")
    assert "WxPusher 发不出去时，重要提醒会改走 Server酱" in reply
    assert "企业微信发不出去" not in reply
