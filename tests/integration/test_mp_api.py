"""The mini-program API on SQLite and MariaDB: each endpoint, its errors, its keys."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

import services.mp_water as mpw
from bot.mp import auth
from bot.sandbox.fake_wechat import FakeWeChat
from handlers import texts
from scheduler.clock import FakeClock
from services import mp_link
from tests.integration.conftest import new_user, row_counts
from tests.integration.mp_support import (
    LINK_KEY,
    Client,
    MiniProgram,
    new_id,
    rows,
    serve_api,
)

TZ = dt.timezone(dt.timedelta(hours=8))


def at(clock: FakeClock, minutes: float = 0) -> str:
    return (clock.now() + dt.timedelta(minutes=minutes)).astimezone(TZ).isoformat()


async def test_login_answers_a_token_and_its_expiry_with_an_offset(
    api: Client, fake: FakeWeChat, engine: AsyncEngine
) -> None:
    phone = MiniProgram(api, fake)
    first = await phone.login()
    await phone.login()
    assert first["expires_at"] == "2026-12-02T10:00:00+08:00"
    assert len(await rows(engine, "SELECT openid FROM mp_identities")) == 1
    assert await rows(engine, "SELECT wecom_user_id FROM users") == [("mp:oMpUser0001",)]


@pytest.mark.parametrize(
    ("fault", "status", "code"),
    [
        ("used_code", 401, "invalid_code"),
        (40029, 401, "invalid_code"),
        (45011, 429, "rate_limited"),
        (40226, 403, "code_blocked"),
        (-1, 502, "wechat_unavailable"),
        ("http_502", 502, "wechat_unavailable"),
        ("garbled", 502, "wechat_unavailable"),
        ("dropped", 502, "wechat_unavailable"),
    ],
)
async def test_a_failed_login_says_why_and_makes_no_user(
    api: Client, fake: FakeWeChat, engine: AsyncEngine, fault: object, status: int, code: str
) -> None:
    js_code = fake.new_code("oMpUser0001")
    if fault == "used_code":
        await api.post("/api/mp/v1/login", json={"js_code": js_code})
        before = await row_counts(engine)
    else:
        before = await row_counts(engine)
        if isinstance(fault, int):
            fake.fail_login_next(fault)
        elif fault == "http_502":
            fake.status_login_next(502)
        elif fault == "garbled":
            fake.garble_login_next()
        else:
            fake.reset_login_next()  # aiohttp retries a dropped GET once on its own
            fake.reset_login_next()
    response = await api.post("/api/mp/v1/login", json={"js_code": js_code})
    body = await response.json()
    assert (response.status, body["error"]) == (status, code)
    assert body["message"]
    assert await row_counts(engine) == before


@pytest.mark.parametrize("body", [{}, {"js_code": ""}, {"js_code": 5}, [], "x"])
async def test_a_login_without_a_code_is_a_bad_request(api: Client, body: object) -> None:
    response = await api.post("/api/mp/v1/login", json=body)
    assert (response.status, (await response.json())["error"]) == (400, "bad_request")


async def test_every_endpoint_says_not_configured_without_appid_and_secret(
    fake: FakeWeChat, clock: FakeClock, engine: AsyncEngine
) -> None:
    async with serve_api(fake, clock, engine, mp={"appid": "", "secret": ""}) as (client, _):
        for method, path in [("POST", "/login"), ("GET", "/water"), ("POST", "/water/plan")]:
            response = await client.request(method, "/api/mp/v1" + path, json={})
            assert response.status == 503
            assert (await response.json())["error"] == "not_configured"


async def test_a_missing_tampered_or_expired_token_is_unauthorized(
    phone: MiniProgram, clock: FakeClock
) -> None:
    good = phone.token
    payload, _, signature = good.rpartition(".")
    other_user = payload.replace("mp1.1.", "mp1.2.") + "." + signature
    for token in ["", "Bearer", "mp1.1.x.1.sig", good[:-2] + "xx", other_user, good + "."]:
        phone.token = token
        answer = await phone.call("GET", "/water", status=401)
        assert answer["error"] == "unauthorized"
    phone.token = good
    await phone.water()
    clock.advance(auth.TOKEN_TTL)
    assert (await phone.call("GET", "/water", status=401))["error"] == "unauthorized"


async def test_a_new_plan_is_disabled_and_needs_no_grant(phone: MiniProgram) -> None:
    assert await phone.water() == {
        "state": "disabled",
        "needs_grant": False,
        "next_due_at": None,
        "today_count": 0,
        "daily_goal": 8,
        "interval_minutes": 120,
        "wake": "08:00",
        "sleep": "22:00",
        "template_id": "tmpl-water-0001",
    }


async def test_enabling_waits_for_a_subscription_and_an_accept_schedules(
    phone: MiniProgram, engine: AsyncEngine
) -> None:
    enabled = await phone.plan("enable")
    assert (enabled["state"], enabled["needs_grant"]) == ("paused", True)
    granted = await phone.grant(new_id())
    assert (granted["state"], granted["needs_grant"]) == ("scheduled", False)
    assert granted["next_due_at"] == "2026-11-25T12:00:00+08:00"
    live = await rows(engine, "SELECT request_key FROM water_grants WHERE state = 'available'")
    assert next(key for (key,) in live).startswith("mp:oMpUser0001:")


async def test_a_grant_retried_in_sequence_or_at_once_counts_once(
    phone: MiniProgram, engine: AsyncEngine
) -> None:
    await phone.plan("enable")
    request_id = new_id()
    first = await phone.grant(request_id)
    again = await phone.grant(request_id)
    racing = await asyncio.gather(*(phone.grant(request_id) for _ in range(4)))
    assert again == first
    assert all(answer == first for answer in racing)
    assert len(await rows(engine, "SELECT id FROM mp_grant_answers")) == 1
    mine = "SELECT id FROM water_grants WHERE request_key LIKE 'mp:oMpUser0001:%'"
    assert len(await rows(engine, mine)) == 1


async def test_an_action_replayed_in_sequence_or_at_once_records_one_glass(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    await phone.plan("enable")
    request_id, action_id = new_id(), new_id()
    await phone.grant(request_id)
    first = await phone.glass(action_id, at(clock), request_id)
    clock.advance(dt.timedelta(minutes=5))
    again = await phone.glass(action_id, at(clock, -5), request_id)
    racing = await asyncio.gather(
        *(phone.glass(action_id, at(clock, -5), request_id) for _ in range(4))
    )
    assert again == first
    assert all(answer == first for answer in racing)
    assert first["today_count"] == 1
    assert len(await rows(engine, "SELECT id FROM water_checkins")) == 1
    assert len(await rows(engine, "SELECT id FROM mp_actions")) == 1


async def test_distinct_actions_racing_each_record_their_glass(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    answers = await asyncio.gather(*(phone.glass(new_id(), at(clock)) for _ in range(3)))
    assert max(a["today_count"] for a in answers) == 3  # each answer: the count it saw
    assert len(await rows(engine, "SELECT id FROM water_checkins")) == 3


@pytest.mark.parametrize(
    ("minutes", "status"),
    [(11, 422), (9, 200), (-48 * 60 - 1, 422), (-47 * 60, 200)],
)
async def test_occurred_at_is_refused_outside_the_sane_skew(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock, minutes: int, status: int
) -> None:
    body = phone.action_body(new_id(), at(clock, minutes))
    answer = await phone.call("POST", "/water/actions", body, status=status)
    glasses = len(await rows(engine, "SELECT id FROM water_checkins"))
    if status == 422:
        assert (answer["error"], glasses) == ("occurred_at_out_of_range", 0)
    else:
        assert glasses == 1


@pytest.mark.parametrize(
    "change",
    [
        {"action_id": "short"},
        {"subscription_status": "maybe"},
        {"occurred_at": "2026-11-25 10:00"},  # no offset
        {"current_count": "1"},
        {"grant_request_id": None, "subscription_status": "accept"},
    ],
)
async def test_a_malformed_action_changes_nothing(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock, change: dict[str, Any]
) -> None:
    body = phone.action_body(new_id(), at(clock), new_id(), "accept") | change
    before = await row_counts(engine)
    answer = await phone.call("POST", "/water/actions", body, status=400)
    assert answer["error"] == "bad_request"
    assert await row_counts(engine) == before


@pytest.mark.parametrize("result", ["reject", "ban"])
async def test_a_refused_subscription_pauses_a_running_plan(
    phone: MiniProgram, result: str
) -> None:
    await phone.plan("enable")
    await phone.grant(new_id())
    answer = await phone.grant(new_id(), result)
    assert (answer["state"], answer["needs_grant"]) == ("paused", True)


async def test_a_filtered_subscription_changes_nothing(phone: MiniProgram) -> None:
    await phone.plan("enable")
    before = await phone.grant(new_id())
    assert await phone.grant(new_id(), "filter") == before


async def test_a_wrong_template_or_result_is_a_bad_request(
    phone: MiniProgram, engine: AsyncEngine
) -> None:
    before = await row_counts(engine)
    for body in [
        {"request_id": new_id(), "template_id": "other", "result": "accept"},
        {"request_id": new_id(), "template_id": "tmpl-water-0001", "result": "yes"},
        {"request_id": "x", "template_id": "tmpl-water-0001", "result": "accept"},
    ]:
        assert (await phone.call("POST", "/water/grants", body, status=400))["error"] == (
            "bad_request"
        )
    assert await row_counts(engine) == before


async def test_close_invalidates_every_unconsumed_grant_at_once(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    await phone.plan("enable")
    await phone.grant(new_id())
    await phone.glass(new_id(), at(clock), new_id())
    closed = await phone.plan("close")
    assert (closed["state"], closed["needs_grant"], closed["next_due_at"]) == (
        "disabled",
        False,
        None,
    )
    states = {s for (s,) in await rows(engine, "SELECT state FROM water_grants")}
    assert states == {"invalid"}


async def test_plan_values_are_checked_with_the_chats_words(phone: MiniProgram) -> None:
    bad = await phone.call(
        "POST", "/water/plan", {"action": "update", "interval_minutes": 5}, status=400
    )
    assert bad == {"error": "bad_request", "message": texts.INTERVAL_HINT}
    half = await phone.call(
        "POST", "/water/plan", {"action": "update", "wake": "07:00"}, status=400
    )
    assert half["message"] == texts.WINDOW_HINT
    order = {"action": "update", "wake": "22:00", "sleep": "07:00"}
    assert (await phone.call("POST", "/water/plan", order, status=400))["message"] == (
        texts.WINDOW_ORDER
    )
    done = await phone.plan(
        "update", interval_minutes=90, wake="07:30", sleep="23:00", daily_goal=10
    )
    assert (done["interval_minutes"], done["wake"], done["sleep"], done["daily_goal"]) == (
        90,
        "07:30",
        "23:00",
        10,
    )


async def _code(engine: AsyncEngine, clock: FakeClock, user_id: int) -> str:
    async with engine.begin() as session:
        return await mp_link.new_link_code(session, user_id, clock.now(), key=LINK_KEY)


async def test_a_link_code_joins_both_doors_in_one_today(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    await phone.glass(new_id(), at(clock))
    member = await new_user(engine, clock, "zhangsan")
    code = await _code(engine, clock, member)
    linked = await phone.call("POST", "/link", {"code": code})
    assert linked["today_count"] == 1
    after = await phone.glass(new_id(), at(clock))
    assert after["today_count"] == 2
    owners = {u for (u,) in await rows(engine, "SELECT user_id FROM water_checkins")}
    assert owners == {member}
    assert (await phone.call("POST", "/link", {"code": code}, status=409))["error"] == (
        "already_linked"
    )


async def test_a_used_or_expired_link_code_is_refused(
    api: Client, fake: FakeWeChat, engine: AsyncEngine, clock: FakeClock
) -> None:
    member = await new_user(engine, clock, "zhangsan")
    code = await _code(engine, clock, member)
    first, second = MiniProgram(api, fake, "oMpFirst0001"), MiniProgram(api, fake, "oMpOther0001")
    await first.login()
    await second.login()
    await first.call("POST", "/link", {"code": code})
    assert (await second.call("POST", "/link", {"code": code}, status=400))["error"] == (
        "link_code_invalid"
    )
    late = await _code(engine, clock, member)
    clock.advance(mp_link.LINK_TTL)
    assert (await second.call("POST", "/link", {"code": late}, status=400))["error"] == (
        "link_code_invalid"
    )


async def test_five_wrong_link_codes_lock_the_openid_for_an_hour(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    member = await new_user(engine, clock, "zhangsan")
    code = await _code(engine, clock, member)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    for _ in range(mp_link.LINK_MAX_FAILURES):
        await phone.call("POST", "/link", {"code": wrong}, status=400)
    assert (await phone.call("POST", "/link", {"code": code}, status=429))["error"] == (
        "rate_limited"
    )
    clock.advance(mp_link.LINK_LOCKOUT)
    await phone.call("POST", "/link", {"code": await _code(engine, clock, member)})


async def test_two_phones_racing_for_one_link_code_link_one(
    api: Client, fake: FakeWeChat, engine: AsyncEngine, clock: FakeClock
) -> None:
    member = await new_user(engine, clock, "zhangsan")
    code = await _code(engine, clock, member)
    phones = [MiniProgram(api, fake, f"oMpRacer000{i}") for i in range(3)]
    for phone in phones:
        await phone.login()
    headers = [{"Authorization": f"Bearer {p.token}"} for p in phones]
    responses = await asyncio.gather(
        *(api.post("/api/mp/v1/link", json={"code": code}, headers=h) for h in headers)
    )
    assert sorted(r.status for r in responses) == [200, 400, 400]
    linked = await rows(engine, "SELECT openid FROM mp_identities WHERE linked_at IS NOT NULL")
    assert len(linked) == 1


def test_a_mini_program_user_can_never_be_a_wecom_recipient() -> None:
    from scheduler.channels.wecom_app import USER_ID

    assert USER_ID.fullmatch(mpw.MP_PREFIX + "oMpUser0001") is None


async def test_a_failure_on_the_plan_side_never_loses_the_glass(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    await phone.plan("enable")
    await phone.grant(new_id())
    async with engine.begin() as conn:  # drift: the plan says scheduled, its grant is gone
        await conn.execute(text("UPDATE water_grants SET state = 'invalid'"))
    body = phone.action_body(new_id(), at(clock))
    assert (await phone.call("POST", "/water/actions", body, status=500))["error"] == (
        "server_error"
    )
    assert len(await rows(engine, "SELECT id FROM water_checkins")) == 1
    async with engine.begin() as conn:  # repaired
        await conn.execute(text("UPDATE water_grants SET state = 'available'"))
    replayed = await phone.call("POST", "/water/actions", body)
    assert (replayed["today_count"], replayed["state"]) == (1, "scheduled")
    assert len(await rows(engine, "SELECT id FROM water_checkins")) == 1
    assert await phone.call("POST", "/water/actions", body) == replayed


async def test_an_unknown_path_or_method_answers_in_the_contracts_shape(phone: MiniProgram) -> None:
    assert (await phone.call("GET", "/nothing", status=404))["error"] == "not_found"
    assert (await phone.call("DELETE", "/water", status=404))["error"] == "not_found"


async def test_a_recorded_action_replayed_after_the_skew_gets_its_same_answer(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    """Its answer was lost; the glass counted, so a late replay must not be refused
    (the client would drop it and say the glass was lost)."""
    body = phone.action_body(new_id(), at(clock))
    first = await phone.call("POST", "/water/actions", body)
    clock.advance(dt.timedelta(hours=49))
    assert await phone.call("POST", "/water/actions", body) == first
    assert len(await rows(engine, "SELECT id FROM water_checkins")) == 1
    fresh = phone.action_body(new_id(), at(clock, -49 * 60))  # a new one is still checked
    assert (await phone.call("POST", "/water/actions", fresh, status=422))["error"] == (
        "occurred_at_out_of_range"
    )


async def test_an_accept_the_grants_endpoint_refused_never_grants_through_its_action(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    await phone.plan("enable")
    request = new_id()
    wrong = {"request_id": request, "template_id": "changed", "result": "accept"}
    await phone.call("POST", "/water/grants", wrong, status=400)
    body = phone.action_body(new_id(), at(clock), request, "accept")
    answer = await phone.call("POST", "/water/actions", body)
    assert (answer["state"], answer["needs_grant"], answer["today_count"]) == ("paused", True, 1)
    live = await rows(engine, "SELECT id FROM water_grants WHERE state = 'available'")
    assert live == []


async def test_two_users_with_the_same_action_id_both_get_their_glass(
    api: Client, fake: FakeWeChat, engine: AsyncEngine, clock: FakeClock
) -> None:
    first, second = MiniProgram(api, fake, "oMpFirst0001"), MiniProgram(api, fake, "oMpOther0001")
    await first.login()
    await second.login()
    action_id = new_id()
    one = await first.glass(action_id, at(clock))
    two = await second.glass(action_id, at(clock))
    assert (one["today_count"], two["today_count"]) == (1, 1)
    owners = sorted(u for (u,) in await rows(engine, "SELECT user_id FROM water_checkins"))
    assert len(set(owners)) == 2


async def test_glasses_racing_a_link_land_on_the_linked_member(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    """A glass waiting on the user lock while `/link` re-points the identity must follow
    the identity, not the user it read before waiting."""
    member = await new_user(engine, clock, "zhangsan")
    code = await _code(engine, clock, member)
    await asyncio.gather(
        phone.call("POST", "/link", {"code": code}),
        *(phone.glass(new_id(), at(clock)) for _ in range(4)),
    )
    owners = [u for (u,) in await rows(engine, "SELECT user_id FROM water_checkins")]
    assert owners == [member] * 4


async def test_a_reject_in_the_app_leaves_a_chat_granted_plan_running(
    phone: MiniProgram, engine: AsyncEngine, clock: FakeClock
) -> None:
    """A linked member's plan granted by a chat glass sends WeCom messages: refusing
    subscribe messages in the app says nothing about them."""
    import services.water
    from scheduler.core import water_plan as wp
    from storage.database import Database

    member = await new_user(engine, clock, "zhangsan")
    async with Database(engine).transaction() as session:
        loaded = await mpw.loaded_plan(session, member, clock.now())
        next_at = clock.now() + dt.timedelta(hours=2)
        event = wp.Event(kind=wp.EventKind.ENABLE, request_id="wecom:msg0001", next_at=next_at)
        await services.water.act(session, loaded, event, clock.now())
    await phone.call("POST", "/link", {"code": await _code(engine, clock, member)})
    after = await phone.grant(new_id(), "reject")
    assert after["state"] == "scheduled"
    await phone.plan("close")
    await phone.plan("enable")  # now the plan waits on the app: a reject pauses it
    await phone.grant(new_id())
    assert (await phone.grant(new_id(), "ban"))["state"] == "paused"


async def test_a_glass_replayed_hours_late_books_the_next_reminder_from_now(
    phone: MiniProgram, clock: FakeClock
) -> None:
    """Its own next time (05:00 + 2 h, so 08:00) has passed: a reminder booked there
    would only expire; the user is in the app now, so the next one is two hours on."""
    await phone.plan("enable")
    await phone.grant(new_id())
    answer = await phone.glass(new_id(), at(clock, -300))
    assert answer["state"] == "scheduled"
    assert answer["next_due_at"] == "2026-11-25T12:00:00+08:00"
