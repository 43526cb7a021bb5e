"""System flags (storage/repos/flags.py): read, set, set again."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import insert, select
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.delivery_models import FLAGS
from storage.repos import flags

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
MINUTE = dt.timedelta(minutes=1)
TICK = dt.timedelta(microseconds=1)
TODAY = dt.date(2026, 11, 25)  # the clock's local date in Shanghai
DAY = dt.timedelta(days=1)


async def test_an_unset_flag_reads_none_and_put_updates_a_set_one(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    later = clock.now() + MINUTE
    async with sessionmaker.begin() as session:
        unset = await flags.get(session, flags.SENDS_PAUSED)
        row = {"name": flags.SENDS_PAUSED, "value": "off", "updated_at": clock.now()}
        await session.execute(insert(FLAGS).values(row))
        await flags.put(session, flags.SENDS_PAUSED, "on", now=later)

    async with sessionmaker.begin() as session:
        stored = (await session.execute(select(FLAGS.c.value, FLAGS.c.updated_at))).all()
        value = await flags.get(session, flags.SENDS_PAUSED)

    assert unset is None
    assert (value, [tuple(r) for r in stored]) == ("on", [("on", later)])


async def test_putting_a_new_flag_stores_it_and_putting_it_again_updates_it(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    later = clock.now() + MINUTE

    async with sessionmaker.begin() as session:
        await flags.put(session, flags.SENDS_PAUSED, "on", now=clock.now())
    async with sessionmaker.begin() as session:
        first = await flags.get(session, flags.SENDS_PAUSED)
        await flags.put(session, flags.SENDS_PAUSED, "off", now=later)
    async with sessionmaker.begin() as session:
        stored = (await session.execute(select(FLAGS.c.value, FLAGS.c.updated_at))).all()

    assert first == "on"
    assert [tuple(r) for r in stored] == [("off", later)]
