"""`keeper doctor` with the mini-program configured: one line saying whether keeper
can get a WeChat access token, with the console fix when it cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.sandbox.fake_wechat import ISSUED_TOKENS, run_fake_wechat
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from scheduler.clock import FakeClock
from storage.engine import create_engine
from storage.migrate import upgrade
from tests.acceptance.processes import keeper_env, run_keeper
from tests.conftest import TEST_SETTINGS
from tests.integration.mp_support import make_fake


@pytest.mark.parametrize(
    ("secret", "line", "fix"),
    [
        (TEST_SETTINGS.mp.secret, "✓ 小程序", ""),
        ("f" * 32, "✗ 小程序", "KEEPER_MP_SECRET 不对"),
    ],
    ids=["healthy", "wrong-secret"],
)
async def test_doctor_checks_the_mini_programs_token(
    database_url: str, clock: FakeClock, tmp_path: Path, secret: str, line: str, fix: str
) -> None:
    engine = create_engine(database_url)
    await upgrade(engine)
    await engine.dispose()
    s = TEST_SETTINGS
    wecom = FakeWeCom(corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id)
    async with run_fake_wecom(wecom) as wecom_base, run_fake_wechat(make_fake(clock)) as base:
        env = keeper_env(
            database_url,
            wecom_base,
            KEEPER_ADMINS="alice",
            KEEPER_MP_APPID=s.mp.appid,
            KEEPER_MP_SECRET=secret,
            KEEPER_MP_TEMPLATE_ID="tmpl-water-0001",
            KEEPER_WECHAT_API_BASE=base,
        )
        _, out, err = await run_keeper(["doctor"], env, cwd=tmp_path)
    shown = out + err
    [mine] = [row for row in out.splitlines() if "小程序" in row and row[:1] in "✓✗"]
    assert mine.startswith(line)
    if fix:
        assert fix in out
    assert secret not in shown
    assert all(token not in shown for token in ISSUED_TOKENS)
