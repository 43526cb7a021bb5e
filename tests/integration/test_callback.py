"""The callback endpoint with real encryption, on SQLite and MariaDB."""

from __future__ import annotations

import asyncio
import datetime as dt

from aiohttp.test_utils import TestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.wecom_side import WeComSide, text_message_xml
from bot.settings import Settings
from handlers import texts
from scheduler.clock import FakeClock
from tests.integration.conftest import row_counts

Client = TestClient[object, object]


async def test_a_signed_message_gets_an_encrypted_reply_that_verifies(wecom: WeComSide) -> None:
    reply = await wecom.send_text("alice", "体重 72.4")
    assert reply.status == 200
    assert reply.text is not None
    assert "72.4" in reply.text  # open_reply verified the signature before decrypting


async def test_a_retried_message_records_once_and_answers_the_same(
    wecom: WeComSide, engine: AsyncEngine
) -> None:
    first = await wecom.send_text("alice", "记账 35 午饭", msg_id=42)
    before = await row_counts(engine)
    second = await wecom.send_text("alice", "记账 35 午饭", msg_id=42)
    assert second.text == first.text
    assert await row_counts(engine) == before
    assert before["ledger_entries"] == 1


async def test_the_same_msg_id_from_two_members_is_two_messages_each_with_its_own_reply(
    wecom: WeComSide, engine: AsyncEngine
) -> None:
    """Issue 10, item 7: a MsgId that collides across members never hands one member
    the other's stored reply, nor swallows their message as a retry."""
    alice = await wecom.send_text("alice", "体重 72.4", msg_id=4242)
    bob = await wecom.send_text("bob", "记账 35 午饭", msg_id=4242)
    assert "72.4" in (alice.text or "")
    assert "35.00" in (bob.text or "")
    counts = await row_counts(engine)
    assert (counts["measurements"], counts["ledger_entries"], counts["inbound_messages"]) == (
        1,
        1,
        2,
    )
    again = await wecom.send_text("bob", "记账 35 午饭", msg_id=4242)  # bob's own retry
    assert again.text == bob.text
    assert (await row_counts(engine))["ledger_entries"] == 1


async def test_three_concurrent_retries_record_once_and_answer_the_same(
    wecom: WeComSide, engine: AsyncEngine
) -> None:
    replies = await asyncio.gather(
        *(wecom.send_text("bob", "喝水", msg_id=7, create_time=wecom.now()) for _ in range(3))
    )
    assert {r.status for r in replies} == {200}
    assert len({r.text for r in replies}) == 1
    counts = await row_counts(engine)
    assert counts["water_checkins"] == 1
    assert counts["inbound_messages"] == 1


async def test_the_url_check_echoes_the_decrypted_echostr(wecom: WeComSide) -> None:
    reply = await wecom.verify_url("1288432023552776189")
    assert (reply.status, reply.text) == (200, "1288432023552776189")


async def test_a_url_check_with_a_bad_signature_is_forbidden(
    client: Client, wecom: WeComSide
) -> None:
    echostr = wecom.crypto.encrypt("hello")
    query = {
        "msg_signature": "0" * 40,
        "timestamp": str(wecom.now()),
        "nonce": "1",
        "echostr": echostr,
    }
    response = await client.get("/wecom/callback", params=query)
    assert response.status == 403


async def test_a_bad_signature_is_forbidden_and_changes_nothing(
    client: Client, wecom: WeComSide, engine: AsyncEngine
) -> None:
    request = wecom.build(_text("alice", "体重 70", 1, wecom))
    before = await row_counts(engine)
    response = await client.post(
        "/wecom/callback",
        params=request.replace_query(msg_signature="f" * 40).query,
        data=request.body,
    )
    assert response.status == 403
    assert await row_counts(engine) == before


async def test_a_stale_timestamp_is_forbidden_and_changes_nothing(
    client: Client, wecom: WeComSide, engine: AsyncEngine
) -> None:
    stale = str(wecom.now() - 11 * 60)
    request = wecom.build(_text("alice", "体重 70", 2, wecom), timestamp=stale)
    before = await row_counts(engine)
    response = await client.post("/wecom/callback", params=request.query, data=request.body)
    assert response.status == 403
    assert await row_counts(engine) == before


async def test_a_future_timestamp_beyond_the_window_is_forbidden(
    client: Client, wecom: WeComSide
) -> None:
    request = wecom.build(_text("alice", "喝水", 3, wecom), timestamp=str(wecom.now() + 3600))
    response = await client.post("/wecom/callback", params=request.query, data=request.body)
    assert response.status == 403


async def test_a_foreign_receive_id_is_forbidden_and_changes_nothing(
    client: Client, settings: Settings, clock: FakeClock, engine: AsyncEngine
) -> None:
    foreign = WeComSide(
        "http://unused",
        settings.wecom.token,
        settings.wecom.aes_key,
        "wwsomeoneelse01",
        settings.wecom.agent_id,
        clock.now,
    )
    request = foreign.build(_text("mallory", "体重 70", 4, foreign))
    before = await row_counts(engine)
    response = await client.post("/wecom/callback", params=request.query, data=request.body)
    assert response.status == 403
    assert await row_counts(engine) == before


async def test_malformed_xml_is_a_bad_request(
    client: Client, wecom: WeComSide, engine: AsyncEngine
) -> None:
    query = wecom.build("<xml/>").query
    before = await row_counts(engine)
    response = await client.post("/wecom/callback", params=query, data=b"<xml><Encrypt>oops</Encr")
    assert response.status == 400
    assert await row_counts(engine) == before


async def test_an_xml_entity_bomb_is_a_bad_request(client: Client, wecom: WeComSide) -> None:
    bomb = (
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
        b"<xml><Encrypt>&b;</Encrypt></xml>"
    )
    response = await client.post("/wecom/callback", params=wecom.build("<xml/>").query, data=bomb)
    assert response.status == 400


async def test_a_body_over_the_limit_is_too_large(
    client: Client, wecom: WeComSide, engine: AsyncEngine
) -> None:
    before = await row_counts(engine)
    response = await client.post(
        "/wecom/callback",
        params=wecom.build("<xml/>").query,
        data=b"<xml>" + b"a" * 100_000 + b"</xml>",
    )
    assert response.status == 413
    assert await row_counts(engine) == before


async def test_a_missing_query_parameter_is_a_bad_request(client: Client) -> None:
    response = await client.post("/wecom/callback", params={"timestamp": "1"}, data=b"<xml/>")
    assert response.status == 400


async def test_garbage_ciphertext_with_a_valid_signature_is_a_bad_request(
    client: Client, wecom: WeComSide
) -> None:
    timestamp, nonce, encrypt = str(wecom.now()), "99", "bm90IGEgcmVhbCBjaXBoZXJ0ZXh0"
    query = {
        "msg_signature": wecom.crypto.signature(timestamp, nonce, encrypt),
        "timestamp": timestamp,
        "nonce": nonce,
    }
    body = f"<xml><Encrypt><![CDATA[{encrypt}]]></Encrypt></xml>".encode()
    response = await client.post("/wecom/callback", params=query, data=body)
    assert response.status == 400


async def test_a_decryptable_message_that_is_not_wecom_xml_is_a_bad_request(
    client: Client, wecom: WeComSide
) -> None:
    request = wecom.build("this is not xml")
    response = await client.post("/wecom/callback", params=request.query, data=request.body)
    assert response.status == 400


async def test_an_unknown_command_gets_the_help_text(wecom: WeComSide) -> None:
    reply = await wecom.send_text("alice", "今天天气怎么样")
    assert reply.text is not None
    assert reply.text.startswith("没看懂")


async def test_subscribing_gets_a_welcome(wecom: WeComSide) -> None:
    reply = await wecom.subscribe("carol")
    assert reply.text == texts.WELCOME


async def test_entering_the_app_shows_today_once_a_day(wecom: WeComSide, clock: FakeClock) -> None:
    first = await wecom.enter_agent("dave")
    clock.advance(dt.timedelta(minutes=5))
    second = await wecom.enter_agent("dave")
    clock.advance(dt.timedelta(days=1))
    next_day = await wecom.enter_agent("dave")
    assert (first.text or "").startswith("今天")
    assert (second.status, second.text) == (200, None)
    assert (next_day.text or "").startswith("今天")


async def test_a_menu_click_runs_the_same_command(wecom: WeComSide) -> None:
    await wecom.send_text("erin", "任务 明天 交材料")
    reply = await wecom.click("erin", "tasks")
    assert "交材料" in (reply.text or "")


async def test_an_unknown_event_is_recorded_without_a_reply(
    wecom: WeComSide, engine: AsyncEngine
) -> None:
    reply = await wecom.send_event("erin", "LOCATION")
    assert (reply.status, reply.text) == (200, None)
    assert (await row_counts(engine))["inbound_messages"] == 1


async def test_a_foreign_card_button_is_answered_plainly_and_changes_nothing_else(
    wecom: WeComSide, engine: AsyncEngine
) -> None:
    reply = await wecom.template_card_event("erin", event_key="button_done", task_id="t1")
    assert (reply.status, reply.text) == (200, "这个按钮已经失效了。发「帮助」看看怎么用。")
    counts = await row_counts(engine)
    assert counts["inbound_messages"] == 1
    assert counts["notification_jobs"] == 0


async def test_a_long_reply_is_cut_to_2048_bytes_on_a_character_boundary(wecom: WeComSide) -> None:
    for n in range(40):
        await wecom.send_text("frank", f"任务 {'很长的待办事项名称' * 8}{n}")
    reply = await wecom.send_text("frank", "任务")
    assert reply.text is not None
    assert len(reply.text.encode()) <= 2048
    assert reply.text.endswith(texts.REPLY_CUT)


async def test_undo_reverses_the_last_record_and_then_the_one_before(
    wecom: WeComSide, engine: AsyncEngine
) -> None:
    await wecom.send_text("gina", "体重 70")
    await wecom.send_text("gina", "喝水")
    assert (await wecom.send_text("gina", "撤销")).text == "已撤销：喝水。"
    assert (await wecom.send_text("gina", "撤销")).text == "已撤销：体重 70。"
    assert (await wecom.send_text("gina", "撤销")).text == texts.NOTHING_TO_UNDO
    counts = await row_counts(engine)
    assert (counts["measurements"], counts["water_checkins"]) == (0, 0)


async def test_the_health_check_reports_the_database(client: Client) -> None:
    response = await client.get("/healthz")
    assert response.status == 200
    assert await response.json() == {
        "database": "ok",
        "scheduler": "idle",  # nothing to send yet, so no tick is missed
        "last_tick_age_seconds": None,
    }


def _text(user: str, text: str, msg_id: int, side: WeComSide) -> str:
    return text_message_xml(
        corp_id=side.corp_id,
        user=user,
        text=text,
        create_time=side.now(),
        msg_id=msg_id,
        agent_id=side.agent_id,
    )
