"""A replay is answered as the first time; the same id with another body is a 409
`conflict` carrying the first answer, and changes nothing (issue 20 item 8)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wechat import FakeWeChat
from scheduler.clock import FakeClock
from tests.integration.conftest import row_counts
from tests.integration.mp_support import MiniProgram, make_fake, new_id, rows, serve_api

TZ = dt.timezone(dt.timedelta(hours=8))


@pytest.fixture
async def phone(clock: FakeClock, engine: AsyncEngine) -> AsyncIterator[MiniProgram]:
    fake: FakeWeChat = make_fake(clock)
    async with serve_api(fake, clock, engine) as (api, _):
        phone = MiniProgram(api, fake)
        await phone.login()
        yield phone


def at(clock: FakeClock, minutes: float = 0, zone: dt.tzinfo = TZ) -> str:
    return (clock.now() + dt.timedelta(minutes=minutes)).astimezone(zone).isoformat()


@pytest.mark.parametrize(
    "change",
    [
        {"current_count": 2},
        {"daily_goal": 9},
        {"occurred_at": "shifted"},
        {"grant_request_id": "0b9f3c1e0b9f3c1e", "subscription_status": "reject"},
    ],
    ids=["count", "goal", "time", "grant"],
)
async def test_an_action_id_sent_again_with_another_body_is_a_conflict_with_the_first_answer(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock, change: dict[str, Any]
) -> None:
    body = phone.action_body(new_id(), at(clock, -5))
    first = await phone.call("POST", "/water/actions", body)
    before = await row_counts(engine)
    other = body | change
    if other["occurred_at"] == "shifted":
        other["occurred_at"] = at(clock, -4)
    answer = await phone.call("POST", "/water/actions", other, status=409)
    assert answer["error"] == "conflict"
    assert answer["message"]
    assert answer["answer"] == first
    assert await row_counts(engine) == before
    assert await phone.call("POST", "/water/actions", body) == first  # a true replay: 200


async def test_the_same_instant_in_another_offset_is_the_same_request(
    phone: MiniProgram, clock: FakeClock
) -> None:
    body = phone.action_body(new_id(), at(clock))
    first = await phone.call("POST", "/water/actions", body)
    again = body | {"occurred_at": at(clock, zone=dt.UTC)}
    assert await phone.call("POST", "/water/actions", again) == first


async def test_a_grant_request_id_sent_as_reject_then_accept_is_a_conflict(
    phone: MiniProgram, engine: AsyncEngine
) -> None:
    enabled = await phone.plan("enable")
    request_id = new_id()
    rejected = await phone.grant(request_id, "reject")
    assert rejected == enabled  # paused, waiting for an accept
    before = await row_counts(engine)
    body = {"request_id": request_id, "template_id": "tmpl-water-0001", "result": "accept"}
    answer = await phone.call("POST", "/water/grants", body, status=409)
    assert (answer["error"], answer["answer"]) == ("conflict", rejected)
    assert await row_counts(engine) == before
    assert (await phone.water())["state"] == "paused"  # the accept did not grant
    assert await phone.grant(request_id, "reject") == rejected  # a true replay: 200


async def test_two_bodies_racing_for_one_new_action_id_record_one_glass_and_one_conflict(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    action_id = new_id()
    bodies = [phone.action_body(action_id, at(clock, -m)) for m in (1, 2)]
    headers = {"Authorization": f"Bearer {phone.token}"}
    responses = await asyncio.gather(
        *(phone.api.post("/api/mp/v1/water/actions", json=b, headers=headers) for b in bodies)
    )
    assert sorted(r.status for r in responses) == [200, 409]
    assert len(await rows(engine, "SELECT id FROM water_checkins")) == 1


async def test_an_action_stored_before_digests_is_answered_as_a_replay_whatever_its_body(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    """Rows from before migration 0019 hold no digest: nothing to compare with, so they
    are answered as they always were."""
    body = phone.action_body(new_id(), at(clock))
    first = await phone.call("POST", "/water/actions", body)
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE mp_actions SET request_digest = NULL"))
    assert await phone.call("POST", "/water/actions", body | {"current_count": 7}) == first
