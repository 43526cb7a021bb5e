"""`keeper doctor`'s retention line and its per-table figures, on an injected clock."""

from __future__ import annotations

import datetime as dt

from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from tests.integration.doctor_support import doctor_table
from tests.integration.retention_seed import Seeder, duty, run_to_end

DAY = dt.timedelta(days=1)


async def retention_lines(
    database_url: str, clock: FakeClock, **extra: str
) -> tuple[int, list[str]]:
    """The doctor's exit code, and its retention line with the lines under it."""
    code, table = await doctor_table(database_url, clock, KEEPER_SCHEDULER="on", **extra)
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if line[2:].startswith("retention "))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("  "))
    return code, lines[start:end]


async def test_before_the_first_run_the_line_passes_and_shows_the_periods(
    database_url: str, clock: FakeClock
) -> None:
    code, lines = await retention_lines(database_url, clock, KEEPER_RETAIN_MESSAGES_DAYS="60")
    head, *tables = lines
    assert head.startswith("✓ retention ")
    assert "keeps messages 60 d, jobs 180 d, links 7 d; pruned daily at 04:30 Asia/Shanghai" in head
    assert "no run yet" in head
    assert [t.split()[0] for t in tables] == [
        "inbound_messages:", "notification_jobs:", "delivery_attempts:", "web_links:", "mp_link_codes:"
    ]  # fmt: skip
    assert tables[0].endswith("inbound_messages: 0 kept; not pruned yet")
    assert code == 0


async def test_after_a_run_each_table_shows_rows_kept_oldest_age_and_what_was_pruned(
    database_url: str, engine: AsyncEngine, clock: FakeClock
) -> None:
    seed = Seeder(engine=engine, clock=clock)
    await seed.message(40 * DAY)
    await seed.message(2 * DAY)
    await seed.job("accepted", 200 * DAY)
    await seed.job("accepted", 3 * DAY + dt.timedelta(hours=1))
    await run_to_end(duty(), engine, clock)

    code, (head, *tables) = await retention_lines(database_url, clock)

    assert head.startswith("✓ retention ")
    assert head.endswith("last run started 2026-11-25 02:00 UTC")
    by_table = {t.split()[0].rstrip(":"): t.split(": ", 1)[1] for t in tables}
    finished = "(finished 2026-11-25 02:00 UTC)"
    assert by_table["inbound_messages"] == f"1 kept, oldest 2 d; last run pruned 1 {finished}"
    assert by_table["notification_jobs"] == f"1 kept, oldest 3 d; last run pruned 1 {finished}"
    assert by_table["delivery_attempts"] == f"1 kept, oldest 3 d; last run pruned 1 {finished}"
    assert by_table["web_links"] == f"0 kept; last run pruned 0 {finished}"
    assert code == 0


async def test_a_run_missing_for_two_days_is_a_cross_with_its_fix(
    database_url: str, engine: AsyncEngine, clock: FakeClock
) -> None:
    await run_to_end(duty(), engine, clock)
    clock.advance(51 * dt.timedelta(hours=1))

    code, (head, *_) = await retention_lines(database_url, clock)

    assert head.startswith("✗ retention ")
    assert "no run since 2026-11-25 02:00 UTC: old rows are not being pruned" in head
    assert code == 1
