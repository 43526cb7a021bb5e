"""`keeper rekey` (`services.rekey`) on SQLite and MariaDB: what it moves, what it
leaves, that a second run (or two at once) writes nothing twice, and the command's
own words, which hold counts and key ids, never a secret."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from services.rekey import census, rekey
from storage.channel_models import USER_CHANNELS
from storage.database import Database
from storage.repos import user_channels
from storage.secret_box import DataKey, KeyRing, NoDataKey, open_secret, seal_secret
from storage.vocabulary import SealKey
from tests.acceptance.processes import keeper_env, run_keeper
from tests.conftest import TEST_SETTINGS, USER_SENDKEY
from tests.integration.conftest import new_user
from tests.settings_env import changed
from tests.unit.test_secret_box import sealed_the_old_way

CHANNEL = "serverchan_user"
OLD = "the-old-data-key-0001-0123456789abcdefABCD"
NEW = "the-new-data-key-0002-0123456789abcdefABCD"
GONE = "a-data-key-nobody-has-0123456789abcdefABCD"
ROTATING = KeyRing(
    current=DataKey.from_text(NEW),
    previous=DataKey.from_text(OLD),
    legacy=TEST_SETTINGS.key_ring().legacy,
)


async def _bind(engine: AsyncEngine, clock: FakeClock, who: str, sealed: str) -> int:
    user_id = await new_user(engine, clock, who)
    async with engine.begin() as session:
        await user_channels.bind(
            session, user_id, CHANNEL, receiver=sealed, hint="h", now=clock.now()
        )
    return user_id


async def _stored(engine: AsyncEngine) -> dict[int, str]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(USER_CHANNELS.c.user_id, USER_CHANNELS.c.receiver).where(
                USER_CHANNELS.c.channel == CHANNEL
            )
        )
        return {user_id: receiver for user_id, receiver in rows}


def _seal(key_text: str, user_id: int) -> str:
    ring = KeyRing(current=DataKey.from_text(key_text))
    return seal_secret(ring, USER_SENDKEY, user_id=user_id, channel=CHANNEL)


async def _four_users(engine: AsyncEngine, clock: FakeClock) -> dict[str, int]:
    """alice under the previous key, bob the pre-issue-22 way, gina already under
    the current key, frank under a key this deployment no longer has, erin damaged."""
    people = ("alice", "bob", "gina", "frank", "erin")
    ids = {who: await new_user(engine, clock, who) for who in people}
    values = {
        "alice": _seal(OLD, ids["alice"]),
        "bob": sealed_the_old_way(
            TEST_SETTINGS.wecom.secret, USER_SENDKEY, user_id=ids["bob"], channel=CHANNEL
        ),
        "gina": _seal(NEW, ids["gina"]),
        "frank": _seal(GONE, ids["frank"]),
        "erin": "v2.not-a-sealed-value",
    }
    for who, sealed in values.items():
        await _bind(engine, clock, who, sealed)
    return ids


async def test_rekey_moves_what_the_previous_and_old_keys_sealed_and_leaves_the_rest(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    ids = await _four_users(engine, clock)
    before = await _stored(engine)
    database = Database(engine)
    assert await census(database, ROTATING) == {
        SealKey.PREVIOUS: 1,
        SealKey.LEGACY: 1,
        SealKey.CURRENT: 1,
        SealKey.UNKNOWN: 2,
    }

    report = await rekey(database, ROTATING)

    assert (report.resealed, report.already, report.changed) == (2, 1, 0)
    assert report.unreadable == (ids["frank"], ids["erin"])
    after = await _stored(engine)
    assert after[ids["gina"]] == before[ids["gina"]]  # not even opened
    assert after[ids["frank"]] == before[ids["frank"]]  # never deleted
    assert after[ids["erin"]] == before[ids["erin"]]
    only_new = KeyRing(current=DataKey.from_text(NEW))  # previous and old secrets gone
    for who in ("alice", "bob", "gina"):
        sealed = after[ids[who]]
        assert sealed.startswith(f"v2.{only_new.current.key_id}.")  # type: ignore[union-attr]
        assert open_secret(only_new, sealed, user_id=ids[who], channel=CHANNEL) == USER_SENDKEY
    assert await census(database, ROTATING) == {SealKey.CURRENT: 3, SealKey.UNKNOWN: 2}
    text = report.describe()
    assert "re-sealed 2" in text
    assert str(ids["frank"]) in text
    for secret in (OLD, NEW, GONE, USER_SENDKEY, *after.values(), *before.values()):
        assert secret not in text


async def test_a_second_run_reseals_nothing(engine: AsyncEngine, clock: FakeClock) -> None:
    await _four_users(engine, clock)
    await rekey(Database(engine), ROTATING)
    settled = await _stored(engine)

    again = await rekey(Database(engine), ROTATING)

    assert (again.resealed, again.already, again.changed) == (0, 3, 0)
    assert await _stored(engine) == settled


async def test_two_runs_at_once_write_each_row_once(engine: AsyncEngine, clock: FakeClock) -> None:
    for n in range(6):
        user_id = await new_user(engine, clock, f"u{n}")
        await _bind(engine, clock, f"u{n}", _seal(OLD, user_id))

    one, two = await asyncio.gather(
        rekey(Database(engine), ROTATING), rekey(Database(engine), ROTATING)
    )

    assert one.resealed + two.resealed == 6
    assert one.resealed + one.already + one.changed == 6
    assert two.resealed + two.already + two.changed == 6
    assert await census(Database(engine), ROTATING) == {SealKey.CURRENT: 6}


async def test_a_value_rebound_while_rekey_read_it_is_left_as_the_user_made_it(
    engine: AsyncEngine, clock: FakeClock
) -> None:
    """The write is a compare-and-set on the sealed text rekey read."""
    user_id = await new_user(engine, clock, "alice")
    stale = _seal(OLD, user_id)
    await _bind(engine, clock, "alice", stale)
    rebound = _seal(NEW, user_id)
    row_id = await _row_id(engine)
    async with engine.begin() as session:  # alice binds again meanwhile
        await user_channels.bind(
            session, user_id, CHANNEL, receiver=rebound, hint="h", now=clock.now()
        )
    async with engine.begin() as session:  # then rekey writes what it made of `stale`
        written = await user_channels.replace_sealed(
            session, row_id, old=stale, new=_seal(NEW, user_id)
        )
    assert not written
    assert (await _stored(engine))[user_id] == rebound


async def _row_id(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        query = select(USER_CHANNELS.c.id).where(USER_CHANNELS.c.channel == CHANNEL)
        return int((await conn.execute(query)).scalar_one())


async def test_without_a_data_key_rekey_refuses(engine: AsyncEngine) -> None:
    with pytest.raises(NoDataKey):
        await rekey(Database(engine), KeyRing(legacy=ROTATING.legacy))


async def test_the_command_reports_counts_and_a_rerun_reports_0(
    database_url: str, engine: AsyncEngine, clock: FakeClock, tmp_path: Path
) -> None:
    user_id = await new_user(engine, clock, "alice")
    await _bind(engine, clock, "alice", _seal(OLD, user_id))
    env = keeper_env(
        database_url, "http://127.0.0.1:9", KEEPER_DATA_KEY=NEW, KEEPER_DATA_KEY_PREVIOUS=OLD
    )

    first = await run_keeper(["rekey"], env, cwd=tmp_path)
    second = await run_keeper(["rekey"], env, cwd=tmp_path)
    without = await run_keeper(
        ["rekey"], {**env, "KEEPER_DATA_KEY": "", "KEEPER_DATA_KEY_PREVIOUS": ""}, cwd=tmp_path
    )

    key_id = DataKey.from_text(NEW).key_id
    assert first[0] == 0
    assert f"re-sealed 1 stored secret(s) under KEEPER_DATA_KEY (key id {key_id})" in first[1]
    assert second[0] == 0
    assert "re-sealed 0 stored secret(s)" in second[1]
    assert "1 already" in second[1]
    assert without[0] == 2
    assert "KEEPER_DATA_KEY is not set" in without[2]
    shown = "".join(first[1:] + second[1:] + without[1:])
    for secret in (
        OLD,
        NEW,
        USER_SENDKEY,
        *(await _stored(engine)).values(),
        *changed(TEST_SETTINGS).secrets(),
    ):
        assert secret not in shown
