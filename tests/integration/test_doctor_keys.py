"""`keeper doctor`'s "data key" and "signing key" lines (issue 22): a fresh key to copy
when one is missing, the stored secrets that still wait for `keeper rekey`, and
never a configured secret shown."""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.repos import user_channels
from storage.secret_box import DataKey, KeyRing, seal_secret
from tests.conftest import TEST_SETTINGS, USER_SENDKEY
from tests.integration.conftest import new_user
from tests.integration.doctor_support import doctor_table

NEW = "the-new-data-key-0002-0123456789abcdefABCD"
FRESH = re.compile(r"`(KEEPER_[A-Z_]+)=([A-Za-z0-9_-]{43})`")


def _line(table: str, name: str) -> list[str]:
    """The check's line and the lines indented under it."""
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if line[2:].startswith(name))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("  ")), None)
    return lines[start:end]


def _shows_no_configured_secret(table: str) -> None:
    for secret in (*TEST_SETTINGS.secrets(), NEW, USER_SENDKEY):
        assert secret not in table


async def test_missing_keys_are_named_with_a_fresh_key_to_copy(
    database_url: str, clock: FakeClock
) -> None:
    code, table = await doctor_table(database_url, clock, KEEPER_DATA_KEY="", KEEPER_WEB_SECRET="")
    assert code == 1
    data, signing = _line(table, "data key"), _line(table, "signing key")
    assert data[0].startswith("✗")
    assert "KEEPER_DATA_KEY is not set" in data[0]
    assert signing[0].startswith("✗")
    assert "derived from WECOM_SECRET" in signing[0]
    printed = dict(FRESH.findall("\n".join(data + signing)))
    assert set(printed) == {"KEEPER_DATA_KEY", "KEEPER_WEB_SECRET"}
    assert printed["KEEPER_DATA_KEY"] != printed["KEEPER_WEB_SECRET"]
    _shows_no_configured_secret(table)
    _, again = await doctor_table(database_url, clock, KEEPER_DATA_KEY="", KEEPER_WEB_SECRET="")
    assert not set(printed.values()) & set(dict(FRESH.findall(again)).values())  # fresh each time


async def test_values_under_the_previous_key_wait_for_rekey(
    database_url: str, engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock, "alice")
    ring = TEST_SETTINGS.key_ring()  # the key keeper_env sets as KEEPER_DATA_KEY
    sealed = seal_secret(ring, USER_SENDKEY, user_id=user_id, channel="serverchan_user")
    async with engine.begin() as session:
        await user_channels.bind(
            session, user_id, "serverchan_user", receiver=sealed, hint="h", now=clock.now()
        )

    code, table = await doctor_table(
        database_url,
        clock,
        KEEPER_DATA_KEY=NEW,
        KEEPER_DATA_KEY_PREVIOUS=TEST_SETTINGS.data.key,
        KEEPER_WEB_SECRET_PREVIOUS="the-previous-web-signing-key-0123456789",
    )

    assert code == 1
    data = _line(table, "data key")
    key_id = DataKey.from_text(NEW).key_id
    assert data[0].startswith("✗")
    assert f"key id {key_id}; 1 stored secret(s) (1 previous); 1 wait for `keeper rekey`" in data[0]
    assert "fix: keeper rekey" in data[-1]
    signing = _line(table, "signing key")
    assert signing[0].startswith("✓")
    assert "KEEPER_WEB_SECRET_PREVIOUS is still believed" in signing[1]
    _shows_no_configured_secret(table)
    assert not FRESH.search(table)  # nothing missing: no key printed


async def test_every_value_under_the_current_key_is_a_tick(
    database_url: str, engine: AsyncEngine, clock: FakeClock
) -> None:
    user_id = await new_user(engine, clock, "alice")
    ring = KeyRing(current=DataKey.from_text(NEW))
    sealed = seal_secret(ring, USER_SENDKEY, user_id=user_id, channel="serverchan_user")
    async with engine.begin() as session:
        await user_channels.bind(
            session, user_id, "serverchan_user", receiver=sealed, hint="h", now=clock.now()
        )

    _, table = await doctor_table(
        database_url, clock, KEEPER_DATA_KEY=NEW, KEEPER_DATA_KEY_PREVIOUS=TEST_SETTINGS.data.key
    )

    data = _line(table, "data key")
    assert data[0].startswith("✓")
    assert "1 stored secret(s) (1 current)" in data[0]
    assert "opens nothing now: remove it" in data[1]
    assert _line(table, "signing key")[0].startswith("✓")
    _shows_no_configured_secret(table)
