"""A backup carries no live access token; after a restore one is fetched again
(issue 20 item 7b), backing up SQLite and MariaDB."""

from __future__ import annotations

import datetime as dt
import zlib
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.sandbox.fake_wecom import FakeWeCom, run_fake_wecom
from scheduler.channels.token_store import DatabaseTokenStore
from scheduler.channels.wecom_app import WeComAppChannel, WeComAppConfig
from scheduler.clock import FakeClock
from scheduler.core.channel import OutboundMessage
from storage.backup import make_backup, restore_backup, verify_backup
from storage.backup.sealed import open_sealed
from storage.database import Database
from storage.delivery_models import TOKENS
from storage.engine import create_engine
from storage.repos import tokens
from tests.conftest import TEST_SETTINGS
from tests.integration.backup_seed import seed

KEY = "a test passphrase, not a real one"
START = dt.datetime(2026, 1, 1, 1, 0, tzinfo=dt.UTC)
WECOM_TOKEN = "live-wecom-access-token-0123456789abcdef"
MP_TOKEN = "live-mp-stable-token-0123456789abcdef"


async def cache_tokens(engine: AsyncEngine, now: dt.datetime) -> None:
    """The rows the token stores write: WeCom's app and the mini-program's."""
    apps = [(TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.agent_id, WECOM_TOKEN)]
    apps.append((f"mp:{TEST_SETTINGS.mp.appid}", 0, MP_TOKEN))
    async with Database(engine).transaction() as session:
        for corp_id, agent_id, token in apps:
            await tokens.lock_row(session, corp_id, agent_id)
            expires = now + dt.timedelta(hours=2)
            await tokens.save(
                session, corp_id, agent_id, token=token, expires_at=expires, refreshed_at=now
            )


def decrypted(path: Path) -> bytes:
    """The whole backup as plain bytes: what anyone holding the key can read."""
    with path.open("rb") as file:
        return zlib.decompress(b"".join(open_sealed(file, KEY)))


async def test_a_backup_holds_no_access_token_and_a_restored_keeper_fetches_one(
    database_url: str, engine: AsyncEngine, clock: FakeClock, tmp_path: Path
) -> None:
    await seed(engine, users=2, days=2, start=START)
    await cache_tokens(engine, clock.now())
    backup = tmp_path / "b.kbak"
    manifest = await make_backup(database_url, backup, KEY, now=clock.now())
    plain = decrypted(backup)
    assert b'"users"' in plain  # it is the real content
    assert WECOM_TOKEN.encode() not in plain
    assert MP_TOKEN.encode() not in plain
    assert {t.name: t.rows for t in manifest.tables}["wecom_tokens"] == 0
    assert (await verify_backup(backup, KEY)).ok

    target_url = f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}"
    await restore_backup(backup, target_url, KEY)
    target = create_engine(target_url)
    try:
        assert await fetched_after_restore(target, clock) == 1
    finally:
        await target.dispose()


async def fetched_after_restore(target: AsyncEngine, clock: FakeClock) -> int:
    """Send once through the restored database's token store; how many tokens the
    fake WeCom issued for it (the send is accepted with the new one)."""
    database = Database(target)
    async with database.transaction() as session:
        assert (await session.execute(select(TOKENS.c.id))).all() == []
    fake = FakeWeCom(
        corp_id=TEST_SETTINGS.wecom.corp_id,
        secret=TEST_SETTINGS.wecom.secret,
        agent_id=TEST_SETTINGS.wecom.agent_id,
        clock=clock.now,
    )
    async with run_fake_wecom(fake) as base:
        config = WeComAppConfig(
            api_base=base,
            corp_id=TEST_SETTINGS.wecom.corp_id,
            agent_id=TEST_SETTINGS.wecom.agent_id,
            secret=TEST_SETTINGS.wecom.secret,
        )
        store = DatabaseTokenStore(database)
        async with WeComAppChannel(config, store=store, now=clock.now) as channel:
            result = await channel.send("zhangsan", OutboundMessage(text="after the restore"))
    assert result.outcome == "accepted"
    async with database.transaction() as session:
        row = await tokens.load(session, TEST_SETTINGS.wecom.corp_id, TEST_SETTINGS.wecom.agent_id)
    assert row is not None
    assert row.access_token not in (WECOM_TOKEN, "")
    return fake.gettoken_calls
