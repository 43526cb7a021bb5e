"""The mini-program client against a real `keeper serve`: a scripted session.

`miniprogram/test/e2e/session.e2e.js` drives the page logic with the fake `wx` whose
`request` does real loopback HTTP: login (code2Session against the fake WeChat),
turn reminders on, +1 with the subscribe dialog accepted, +1 whose answer is lost,
+1 while offline, then the next page show replays the queue with the same ids. There
it pauses while `keeper tick --at <next_due_at>` sends the reminder through the fake
WeChat; then the page is shown again and one more glass (with a new grant) is tapped,
and the phone links to a WeCom member with the code `绑定 小程序` gave (made here through
the service, as the chat does), so the member's glass and the phone's add up.
It prints one JSON summary; this side checks it, the fake's traffic and the database.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
from collections.abc import Awaitable, Callable
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from storage.engine import create_engine
from tests.acceptance.processes import STARTUP_TIMEOUT_S, keeper_env, run_keeper, start_serve
from tests.conftest import MigratedSQLite
from tests.node import MINIPROGRAM, NODE_TIMEOUT_S, node
from tests.ports import free_port

pytestmark = pytest.mark.skipif(
    find_spec("bot.sandbox.fake_wechat") is None,
    reason="needs the mini-program API branch (bot.sandbox.fake_wechat, /api/mp/v1)",
)

APPID = "wx0123456789abcdef"
SECRET = "0123456789abcdef0123456789abcdef"
TEMPLATE_ID = "tmpl_water_reminder_01"
OPENID = "o-e2e-alice"
SESSION_SCRIPT = MINIPROGRAM / "test" / "e2e" / "session.e2e.js"


async def _session(
    origin: str,
    codes: list[str],
    between: Callable[[dict[str, Any]], Awaitable[None]],
    link_code: str = "",
) -> dict[str, Any]:
    """Run the node session script against `origin` with these wx.login codes, calling
    `between` at its pause (with what it printed there); its final summary."""
    env = {
        **os.environ,
        "KEEPER_MP_E2E_ORIGIN": origin,
        "KEEPER_MP_E2E_CODES": ",".join(codes),
        "KEEPER_MP_E2E_LINK_CODE": link_code,
    }
    proc = await asyncio.create_subprocess_exec(
        node(), str(SESSION_SCRIPT), env=env, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), NODE_TIMEOUT_S)
    if line:
        await between(json.loads(line))
    out, err = await asyncio.wait_for(proc.communicate(b"go\n"), NODE_TIMEOUT_S)
    assert proc.returncode == 0, err.decode()
    summary: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return summary


async def _member_with_a_glass_and_a_code(db_url: str) -> tuple[int, str]:
    """A WeCom member who logged a glass in chat and asked for `绑定 小程序`: their id
    and the code (made by the service the chat command uses). The wall clock: keeper
    serve runs on it, and the code must be live for it."""
    from bot.mp.auth import link_code_key
    from services import mp_link
    from storage.repos import records
    from storage.repos.users import ensure_and_lock_user
    from tests.conftest import TEST_SETTINGS  # what keeper_env gives `keeper serve`

    now = dt.datetime.now(dt.UTC)
    engine = create_engine(db_url)
    async with engine.begin() as session:
        member = await ensure_and_lock_user(session, "zhangsan", timezone="Asia/Shanghai", now=now)
        await records.add_water(
            session, user_id=member.id, glasses=1, occurred_at=now, source_key="e2e:chat:1"
        )
        key = link_code_key(TEST_SETTINGS.web_key())
        code = await mp_link.new_link_code(session, member.id, now, key=key)
    await engine.dispose()
    return member.id, code


async def _rows(db_url: str) -> dict[str, Any]:
    """What the session left: rows per table, and the plan's grants made by an accept."""
    engine = create_engine(db_url)
    tables = ("mp_grant_answers", "mp_actions", "water_checkins")
    async with engine.connect() as conn:
        found: dict[str, Any] = {
            t: (await conn.execute(text(f"SELECT COUNT(*) FROM {t}"))).scalar_one() for t in tables
        }
        accepted = text(
            "SELECT request_key, state FROM water_grants WHERE request_key LIKE :key ORDER BY id"
        )
        found["grants"] = [
            tuple(r) for r in await conn.execute(accepted, {"key": f"mp:{OPENID}:%"})
        ]
    await engine.dispose()
    return found


async def test_a_scripted_session_leaves_one_grant_per_accept_and_one_glass_per_action(
    tmp_path: Path, migrated_sqlite: MigratedSQLite
) -> None:
    from bot.sandbox.fake_wechat import FakeWeChat, run_fake_wechat

    node()  # skip (or fail in CI) before starting anything
    db_url = await migrated_sqlite(tmp_path / "keeper.db")
    wechat = FakeWeChat(appid=APPID, secret=SECRET, template_id=TEMPLATE_ID)
    codes = [wechat.new_code(OPENID) for _ in range(3)]  # what wx.login would hand out
    ticked: list[str] = []

    async with run_fake_wechat(wechat) as wechat_base:
        env = keeper_env(
            db_url, "http://127.0.0.1:9",  # WeCom is not called in this session
            KEEPER_MP_APPID=APPID, KEEPER_MP_SECRET=SECRET,
            KEEPER_MP_TEMPLATE_ID=TEMPLATE_ID, KEEPER_WECHAT_API_BASE=wechat_base,
        )  # fmt: skip

        async def reminder_due(paused: dict[str, Any]) -> None:
            """The tick at the plan's next time sends the reminder through the fake."""
            assert paused["phase"] == "replayed"
            wechat.subscribe(OPENID)  # the one accept so far, as WeChat learnt it
            code, out, err = await run_keeper(["tick", "--at", paused["next_due_at"]], env)
            assert code == 0, err
            ticked.append(out)

        member, link_code = await _member_with_a_glass_and_a_code(db_url)
        port = free_port()
        proc = await start_serve(env, tmp_path, port)
        origin = f"http://127.0.0.1:{port}"
        try:
            summary = await _session(origin, codes, reminder_due, link_code)
        finally:
            proc.terminate()
            _, err = await asyncio.wait_for(proc.communicate(), STARTUP_TIMEOUT_S)
    assert SECRET not in err.decode() + "".join(ticked)
    steps = summary["steps"]

    # login once; on, but no grant to remind with yet: keeper says so (needs_grant)
    assert summary["logins"] == 1
    assert steps["shown"]["status"]["state"] == "disabled"
    assert steps["enabled"]["status"]["state"] != "disabled"
    assert steps["enabled"]["status"]["needs_grant"] is True
    # +1: the dialog asked inside the tap, accepted, the grant then the glass posted
    first_grant = summary["grant_posts"][0]
    assert first_grant["result"] == "accept"
    first = summary["action_posts"][0]
    assert first["grant_request_id"] == first_grant["request_id"]
    assert first["subscription_status"] == "accept"
    assert steps["accepted"]["status"]["needs_grant"] is False
    assert steps["accepted"]["status"]["state"] == "scheduled"
    assert steps["accepted"]["status"]["today_count"] == 1

    # a lost answer and an offline glass wait on the phone ...
    assert steps["offline"]["pending"] == 2
    assert steps["offline"]["view"]["pendingText"] == "2 条待同步"
    # ... and go on the next show, in order, with the same ids: one glass per action
    posts = summary["action_posts"]
    ids = [p["action_id"] for p in posts]
    lost = [p for p in posts if p["action_id"] == ids[1]]
    assert len(lost) == 3  # sent (answer lost), tried offline, replayed
    assert all(p == lost[0] for p in lost)
    assert ids.index(ids[1]) < ids.index(ids[-1])
    replayed = steps["replayed"]
    assert replayed["pending"] == 0
    assert replayed["status"]["today_count"] == 3
    assert replayed["view"]["countText"].startswith("3 / ")
    assert replayed["status"]["state"] == "scheduled"

    # the reminder went out through the fake WeChat, using the grant ...
    assert [(m.touser, m.template_id) for m in wechat.sent] == [(OPENID, TEMPLATE_ID)]
    assert steps["reminded"]["status"]["state"] == "awaiting_checkin"
    assert steps["reminded"]["status"]["needs_grant"] is True
    # ... and the next glass asks for a new one and brings the plan back to scheduled
    assert [c["synchronous"] for c in summary["subscribe_calls"]] == [True, True]
    second_grant = summary["grant_posts"][-1]
    assert second_grant["request_id"] != first_grant["request_id"]
    assert steps["after_reminder"]["status"]["state"] == "scheduled"
    assert steps["after_reminder"]["status"]["today_count"] == 4
    assert len(set(ids)) == 4

    rows = await _rows(db_url)
    assert [key for key, _ in rows.pop("grants")] == [
        f"mp:{OPENID}:{first_grant['request_id']}",  # one grant per accept
        f"mp:{OPENID}:{second_grant['request_id']}",
    ]
    assert rows == {"mp_grant_answers": 2, "mp_actions": 4, "water_checkins": 5}

    # linked with the chat's code: the page shows both doors' glasses in one 今天 ...
    assert steps["linked"]["status"]["today_count"] == 5
    assert steps["linked"]["view"]["countText"].startswith("5 / ")
    assert steps["linked"]["view"]["notice"] == "已和企业微信绑定，两边的喝水记录合在一起了"
    # ... and a second try is answered in keeper's words, the cache kept
    assert steps["linked_again"]["view"]["notice"] == "这个小程序已经绑定过企业微信了。"
    assert steps["linked_again"]["status"]["today_count"] == 5
    engine = create_engine(db_url)
    async with engine.connect() as conn:
        owners = (await conn.execute(text("SELECT DISTINCT user_id FROM water_checkins"))).all()
    await engine.dispose()
    assert owners == [(member,)]
