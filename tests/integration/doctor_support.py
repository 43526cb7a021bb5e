"""Running `keeper doctor` against a fake WeCom and a test database (shared by the
doctor tests that read one of its lines)."""

from __future__ import annotations

from bot import doctor
from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from scheduler.clock import FakeClock
from tests.acceptance.processes import keeper_env
from tests.conftest import TEST_SETTINGS


async def doctor_table(database_url: str, clock: FakeClock, **extra: str) -> tuple[int, str]:
    """The doctor's exit code and its whole table, with alice the only admin and
    visible member; `extra` settings are added to the environment."""
    s = TEST_SETTINGS
    api = FakeWeCom(corp_id=s.wecom.corp_id, secret=s.wecom.secret, agent_id=s.wecom.agent_id)
    api.console.visible_users = {"alice"}
    async with run_fake_wecom(api) as base:
        environ = keeper_env(database_url, base, KEEPER_ADMINS="alice", **extra)
        return await doctor.run(doctor.Options(), now=clock.now, environ=environ)
