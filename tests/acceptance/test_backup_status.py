"""管理 状态 tells the admin how the scheduled backups go: off, failed, verified."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from handlers import texts
from tests.acceptance.conftest import Keeper

KEY = "scheduled backup passphrase 0002"


@pytest.fixture
def backup_dir(tmp_path: Path) -> Path:
    """A file stands where the directory should be: backups fail until it is moved."""
    path = tmp_path / "backups"
    path.write_bytes(b"not a directory")
    return path


@pytest.fixture
def keeper_settings(database_url: str, backup_dir: Path) -> dict[str, dict[str, object]]:
    return {"database": {"url": database_url}, "backup": {"directory": backup_dir, "key": KEY}}


async def backup_now(keeper: Keeper) -> None:
    report = await keeper.tick()
    assert report.backup_started
    assert keeper.scheduler.backups is not None
    await keeper.scheduler.backups.wait()


async def test_a_failed_backup_then_a_verified_one_show_in_the_status(
    keeper: Keeper, backup_dir: Path
) -> None:
    await keeper.say("喝水")  # a user, rows to back up
    await backup_now(keeper)  # 10:00: today's 03:30 was missed, made up at once
    status = await keeper.say("管理 状态", user="boss")
    assert (
        f"\n备份：最近一次失败（11-25 10:00）：cannot create the directory {backup_dir}" in status
    )
    assert "\n还没有已验证的备份" in status
    assert KEY not in status

    os.remove(backup_dir)  # the scheduler creates the directory itself
    keeper.clock.set(dt.datetime(2026, 11, 26, 3, 31, tzinfo=dt.timezone(dt.timedelta(hours=8))))
    await backup_now(keeper)
    status = await keeper.say("管理 状态", user="boss")
    line = next(x for x in status.splitlines() if x.startswith("备份："))
    assert line.startswith("备份：最近一次已验证 11-26 03:31（")
    assert line.endswith(" 行）")
    assert texts.BACKUP_OVERDUE not in status


async def test_no_verified_backup_for_26_hours_is_flagged(keeper: Keeper) -> None:
    await backup_now(keeper)  # fails: a file blocks the directory
    keeper.clock.advance(dt.timedelta(hours=27))
    await keeper.tick()
    assert keeper.scheduler.backups is not None
    await keeper.scheduler.backups.wait()
    status = await keeper.say("管理 状态", user="boss")
    assert texts.BACKUP_OVERDUE in status
