"""The backup's lines in 管理 状态 and on the admin page, as a table (no I/O)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from handlers.backup_status import describe
from storage.records import BackupRunRecord

TZ = ZoneInfo("Asia/Shanghai")
NOW = dt.datetime(2026, 11, 30, 4, 0, tzinfo=TZ)
GOOD = BackupRunRecord(
    id=1,
    run_day=dt.date(2026, 11, 30),
    started_at=NOW - dt.timedelta(minutes=30),
    finished_at=NOW - dt.timedelta(minutes=29),
    path="keeper-20261129T193000Z.kbak",
    verified=True,
    revision="0012",
    rows=1602,
    size_bytes=40_000,
    problem="",
    claimed_by="host:1",
)
FAILED = dataclasses.replace(
    GOOD, id=2, verified=False, path=None, problem="cannot create /x: Permission denied"
)
RUNNING = dataclasses.replace(GOOD, id=3, finished_at=None, verified=False)
OLD_GOOD = dataclasses.replace(GOOD, finished_at=NOW - dt.timedelta(hours=30))
DEAD = dataclasses.replace(RUNNING, started_at=NOW - dt.timedelta(hours=7))


@pytest.mark.parametrize(
    ("enabled", "latest", "verified", "lines"),
    [
        (False, None, None, ["备份：未开启（设置 KEEPER_BACKUP_DIR 后每天自动备份）"]),
        (True, None, None, ["备份：已开启，还没有完成的备份"]),
        (True, GOOD, GOOD, ["备份：最近一次已验证 11-30 03:31（1,602 行）"]),
        (
            True,
            FAILED,
            GOOD,
            [
                "备份：最近一次失败（11-30 03:31）：cannot create /x: Permission denied",
                "上一次已验证：11-30 03:31",
            ],
        ),
        (
            True,
            FAILED,
            None,
            [
                "备份：最近一次失败（11-30 03:31）：cannot create /x: Permission denied",
                "还没有已验证的备份",
                "⚠ 超过 26 小时没有已验证的备份",
            ],
        ),
        (
            True,
            RUNNING,
            OLD_GOOD,
            [
                "备份：进行中（11-30 03:30 开始）",
                "上一次已验证：11-28 22:00",
                "⚠ 超过 26 小时没有已验证的备份",
            ],
        ),
        (
            True,
            DEAD,
            GOOD,
            [
                "备份：最近一次没有完成（11-29 21:00 开始，进程中途停止了）",
                "上一次已验证：11-30 03:31",
            ],
        ),
    ],
)
def test_the_backup_lines_say_what_an_admin_acts_on(
    enabled: bool,
    latest: BackupRunRecord | None,
    verified: BackupRunRecord | None,
    lines: list[str],
) -> None:
    assert describe(enabled=enabled, latest=latest, verified=verified, tz=TZ, now=NOW) == lines
