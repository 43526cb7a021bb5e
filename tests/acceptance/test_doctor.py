"""`keeper doctor` as an operator runs it, against the sandbox's fake WeCom in each of
the ways a real deployment goes wrong; and `keeper menu install`."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.app import create_app
from bot.doctor_alerts import NO_ROUTE_NOTE
from bot.sandbox.fake_robot import FakeRobot, add_robot_routes
from bot.sandbox.fake_webhook import serve
from bot.sandbox.fake_wecom import (
    ISSUED_TOKENS,
    FakeWeCom,
    create_fake_wecom_app,
    run_fake_wecom,
)
from bot.wecom_admin import Json
from handlers.parse.views import MENU_KEYS
from handlers.texts import DOCTOR_TEST_ALERT as TEST_ALERT
from handlers.texts.menu import MENU
from scheduler.clock import FakeClock
from storage.engine import create_engine
from storage.migrate import upgrade
from storage.repos import ticks
from tests.acceptance.processes import keeper_env, run_keeper
from tests.conftest import TEST_SETTINGS, create_test_app, wecom_side
from tests.settings_env import changed

OUTBOUND_IP = "203.0.113.7"  # TEST-NET-3: what WeCom reports as our address


@pytest.fixture
async def fake() -> AsyncIterator[tuple[FakeWeCom, str]]:
    """A healthy app: enabled, alice (the admin) listed in 可见范围, enter events on."""
    s = TEST_SETTINGS
    api = FakeWeCom(corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id)
    api.console.visible_users = {"alice"}
    async with run_fake_wecom(api) as base:
        yield api, base


async def _migrated(url: str, *, ticked_ago: dt.timedelta | None) -> None:
    engine = create_engine(url)
    await upgrade(engine)
    if ticked_ago is not None:
        async with engine.begin() as session:
            at = dt.datetime.now(dt.UTC) - ticked_ago  # doctor reads the real clock
            await ticks.heartbeat(session, worker="host:77", at=at, duration_ms=3)
    await engine.dispose()


async def _doctor(
    url: str, base: str, cwd: Path, *args: str, **env: str
) -> tuple[int, list[str], str]:
    environ = keeper_env(url, base, KEEPER_ADMINS="alice", **env)
    code, out, err = await run_keeper(["doctor", *args], environ, cwd=cwd)
    shown = out + err
    for secret in (*TEST_SETTINGS.secrets(), *ISSUED_TOKENS):
        assert secret not in shown
    return code, out.splitlines(), err


def menu_keys(menu: Json) -> set[str]:
    """Every click key in `menu`."""
    return {item["key"] for button in menu["button"] for item in button.get("sub_button", [button])}


def _lines(out: list[str], mark: str) -> list[str]:
    return [line for line in out if line.startswith(mark)]


async def test_a_healthy_deployment_is_all_ticks_and_exit_0(
    database_url: str, fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    api, base = fake
    await _migrated(database_url, ticked_ago=dt.timedelta(seconds=20))
    server = TestServer(create_app(TEST_SETTINGS))
    await server.start_server()
    try:
        public = str(server.make_url("/wecom/callback"))
        code, out, err = await _doctor(
            database_url, base, tmp_path, "--public-url", public, "--send-test"
        )
    finally:
        await server.close()
    assert code == 0, "\n".join(out) + err
    assert _lines(out, "✗") == []
    names = [line.split()[1] for line in _lines(out, "✓")]
    assert names == ["settings", "admins", "database", "data", "signing", "scheduler", "backups", "retention", "evidence", "WeCom", "app", "可见范围",
                     "进入应用事件", "public", "test", "alerts"]  # fmt: skip
    assert out[-1] == "all good"
    assert [m.recipient for m in api.messages] == ["alice"]


async def test_send_test_records_the_admins_device_check_and_their_reply_confirms_it(
    fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    """Issue 22 item 1: the test message asks for 收到; the admin's 收到 within 30
    minutes is a device check on the WeCom app, which the next doctor run shows."""
    api, base = fake
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    await _migrated(url, ticked_ago=dt.timedelta(seconds=5))
    _, first, _ = await _doctor(url, base, tmp_path, "--send-test")
    [before] = [line for line in first if line.startswith("✓ evidence")]
    assert "no channel confirmed on a phone yet" in before
    assert "回复「收到」" in api.messages[0].content
    engine = create_engine(url)
    app = create_test_app(
        changed(TEST_SETTINGS, operations={"admins": frozenset({"alice"})}), engine=engine
    )
    try:
        async with TestClient(TestServer(app)) as client:
            wecom = wecom_side(client, TEST_SETTINGS, FakeClock(dt.datetime.now(dt.UTC)))
            reply = await wecom.send_text("alice", "收到")
    finally:
        await engine.dispose()
    assert reply.text == "好的，记下了：企业微信应用 的消息能到你手机上。"
    _, again, _ = await _doctor(url, base, tmp_path)
    [after] = [line for line in again if line.startswith("✓ evidence")]
    assert "confirmed on a phone: 企业微信应用" in after


async def test_an_untrusted_ip_names_the_ip_and_where_to_put_it(
    fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    api, base = fake
    api.untrusted_ip = OUTBOUND_IP
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    await _migrated(url, ticked_ago=dt.timedelta(seconds=5))
    code, out, _ = await _doctor(url, base, tmp_path)
    assert code == 1
    failed = "\n".join(out[out.index(_lines(out, "✗")[0]) :])
    assert "60020" in failed
    assert OUTBOUND_IP in failed
    assert f"add {OUTBOUND_IP} to 企业可信 IP" in failed


@pytest.mark.parametrize(
    ("setting", "value", "code", "named"),
    [
        ("WECOM_SECRET", "a-wrong-secret-000", 40001, "WECOM_SECRET is wrong"),
        ("WECOM_CORP_ID", "wwwrongcorp", 40013, "WECOM_CORP_ID is wrong"),
    ],
)
async def test_a_wrong_credential_is_named_with_the_console_page(
    fake: tuple[FakeWeCom, str], tmp_path: Path, setting: str, value: str, code: int, named: str
) -> None:
    _, base = fake
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    await _migrated(url, ticked_ago=dt.timedelta(seconds=5))
    status, out, _ = await _doctor(url, base, tmp_path, **{setting: value})
    assert status == 1
    [failed] = _lines(out, "✗")
    assert failed.startswith("✗ WeCom token")
    assert f"errcode {code}" in failed
    assert named in "\n".join(out)
    assert value not in "\n".join(out) or setting == "WECOM_CORP_ID"


@pytest.mark.parametrize(
    ("misconfigure", "check", "said"),
    [
        (lambda api: setattr(api.console, "closed", True), "app enabled", "停用"),
        (lambda api: setattr(api.console, "visible_users", {"bob"}), "可见范围", "alice"),
        (
            lambda api: setattr(api.console, "report_enter", False),
            "进入应用事件",
            "上报进入应用事件",
        ),
    ],
    ids=["disabled", "admin-outside-visible-range", "no-enter-events"],
)
async def test_a_misconfigured_app_is_one_cross_with_its_fix(
    fake: tuple[FakeWeCom, str], tmp_path: Path, misconfigure: object, check: str, said: str
) -> None:
    api, base = fake
    misconfigure(api)  # type: ignore[operator]
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    await _migrated(url, ticked_ago=dt.timedelta(seconds=5))
    code, out, _ = await _doctor(url, base, tmp_path)
    assert code == 1
    [failed] = _lines(out, "✗")
    assert failed.startswith(f"✗ {check}")
    assert said in "\n".join(out)


async def test_no_scheduler_is_a_cross_saying_no_reminder_will_be_sent(
    database_url: str, fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    _, base = fake
    await _migrated(database_url, ticked_ago=dt.timedelta(minutes=10))
    code, out, _ = await _doctor(database_url, base, tmp_path)
    assert code == 1
    [failed] = _lines(out, "✗")
    assert failed.startswith("✗ scheduler")
    assert "no reminder will be sent" in failed
    assert "keeper-worker" in "\n".join(out)
    code, out, _ = await _doctor(database_url, base, tmp_path, KEEPER_SCHEDULER="on")
    assert code == 0
    assert _lines(out, "✗") == []


async def test_a_public_url_that_is_not_keeper_fails_the_url_check(
    fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    _, base = fake
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    await _migrated(url, ticked_ago=dt.timedelta(seconds=5))
    code, out, _ = await _doctor(url, base, tmp_path, "--public-url", base + "/wecom/callback")
    assert code == 1
    [failed] = _lines(out, "✗")
    assert failed.startswith("✗ public URL")
    assert "HTTP 404" in failed


@pytest.mark.parametrize(
    ("misbehave", "outcome"),
    [
        (lambda api: setattr(api, "users", {"bob"}), "✗ test message   failed: errcode 81013"),
        (lambda api: api.fail_next(60020), "✗ test message   failed: errcode 60020"),
        (
            lambda api: api.reset_next(delivered=True),
            "✗ test message   unknown (it may have arrived)",
        ),
    ],
    ids=["not-a-member", "refused", "no-answer"],
)
async def test_the_test_message_shows_a_failed_or_unknown_outcome(
    fake: tuple[FakeWeCom, str], tmp_path: Path, misbehave: object, outcome: str
) -> None:
    api, base = fake
    misbehave(api)  # type: ignore[operator]
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    await _migrated(url, ticked_ago=dt.timedelta(seconds=5))
    code, out, _ = await _doctor(url, base, tmp_path, "--send-test")
    assert code == 1
    assert [line[: len(outcome)] for line in _lines(out, "✗")] == [outcome]


async def test_an_unmigrated_database_says_keeper_migrate(
    fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    _, base = fake
    code, out, _ = await _doctor(f"sqlite+aiosqlite:///{tmp_path / 'k.db'}", base, tmp_path)
    assert code == 1
    failed = _lines(out, "✗")
    assert failed[0].startswith("✗ database")
    assert "fix: keeper migrate" in "\n".join(out)


async def test_a_broken_setting_is_the_first_cross_and_the_value_is_not_shown(
    fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    _, base = fake
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    code, out, _ = await _doctor(url, base, tmp_path, WECOM_AGENT_ID="agent-x")
    assert code == 1
    assert out[0].startswith("✗ settings")
    assert "WECOM_AGENT_ID" in out[0]
    assert "agent-x" not in "\n".join(out)


async def test_menu_install_puts_every_key_the_parser_knows_on_the_app(
    fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    api, base = fake
    env = keeper_env(f"sqlite+aiosqlite:///{tmp_path / 'k.db'}", base)
    code, out, err = await run_keeper(["menu", "install"], env, cwd=tmp_path)
    assert code == 0, err
    assert out.startswith("keeper: menu installed")
    assert api.console.menu == MENU
    assert menu_keys(MENU) == set(MENU_KEYS)


async def test_menu_install_from_an_untrusted_ip_says_where_to_add_it(
    fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    api, base = fake
    api.untrusted_ip = OUTBOUND_IP
    env = keeper_env(f"sqlite+aiosqlite:///{tmp_path / 'k.db'}", base)
    code, _, err = await run_keeper(["menu", "install"], env, cwd=tmp_path)
    assert code == 1
    assert f"add {OUTBOUND_IP} to 企业可信 IP" in err
    assert api.console.menu is None


@pytest.mark.parametrize("key_works", [True, False], ids=["robot-ok", "robot-removed"])
async def test_send_test_tries_the_alert_channel_too(tmp_path: Path, key_works: bool) -> None:
    """The road around WeCom is tried before an outage needs it: a removed robot
    (93000) is a cross today, not a silent alert later."""
    s = TEST_SETTINGS
    api = FakeWeCom(corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id)
    api.console.visible_users = {"alice"}
    robot = FakeRobot(keys={s.channels.robot_key})
    if not key_works:
        robot.remove(s.channels.robot_key)
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    await _migrated(url, ticked_ago=dt.timedelta(seconds=5))
    async with serve(add_robot_routes(create_fake_wecom_app(api), robot), api) as base:
        code, out, _ = await _doctor(
            url,
            base,
            tmp_path,
            "--send-test",
            KEEPER_ALERT_CHANNEL="robot",
            KEEPER_ROBOT_KEY=s.channels.robot_key,
        )
    alerts = [line for line in out if line[2:].startswith("alerts")]
    assert len(alerts) == 1
    if key_works:
        assert (code, alerts[0][0]) == (0, "✓")
        assert [m.content for m in robot.messages] == [TEST_ALERT]
    else:
        assert (code, alerts[0][0]) == (1, "✗")
        assert "failed through wecom_robot (code 93000)" in alerts[0]
        assert s.channels.robot_key not in "\n".join(out)


async def test_without_an_alert_channel_the_doctor_says_who_would_not_be_told(
    fake: tuple[FakeWeCom, str], tmp_path: Path
) -> None:
    _, base = fake
    url = f"sqlite+aiosqlite:///{tmp_path / 'k.db'}"
    await _migrated(url, ticked_ago=dt.timedelta(seconds=5))
    _, out, _ = await _doctor(url, base, tmp_path)
    assert [line for line in out if line.startswith("✓ alerts")] == [
        f"✓ alerts         {NO_ROUTE_NOTE}"
    ]
