"""管理 状态's retention lines: from the figures, pure."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from handlers.retention_status import describe
from storage.repos.retention_runs import RunRow, TableFigures

TZ = ZoneInfo("Asia/Shanghai")
NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)  # 10:00 in Shanghai
RAN = dt.datetime(2026, 11, 24, 20, 30, tzinfo=dt.UTC)  # 04:30 in Shanghai


def run(*, finished: bool = True, started: dt.datetime = RAN, pruned: int = 1234) -> RunRow:
    return RunRow(
        table_name="inbound_messages",
        run_day=dt.date(2026, 11, 25),
        keep_days=30,
        cutoff=RAN - dt.timedelta(days=30),
        started_at=started,
        updated_at=started,
        finished_at=started + dt.timedelta(seconds=40) if finished else None,
        claimed_by="w:1",
        pruned=pruned,
    )


def figures(
    last_run: RunRow | None, *, kept: int = 5678, oldest: dt.timedelta | None
) -> TableFigures:
    return TableFigures(
        table_name="inbound_messages",
        kept=kept,
        oldest_at=None if oldest is None else NOW - oldest,
        last_run=last_run,
    )


@pytest.mark.parametrize(
    ("found", "line"),
    [
        (
            figures(run(), oldest=dt.timedelta(days=29, hours=20)),
            "· 收到的消息（保留 30 天）：5,678 条，最早 29 天前；11-25 04:30 清理删了 1,234 条",
        ),
        (
            figures(None, kept=3, oldest=dt.timedelta(hours=2)),
            "· 收到的消息：3 条，最早不到 1 天；还没清理过",
        ),
        (
            figures(None, kept=0, oldest=None),
            "· 收到的消息：0 条；还没清理过",
        ),
        (
            figures(
                run(finished=False, started=NOW - dt.timedelta(hours=1), pruned=5),
                oldest=None,
                kept=0,
            ),
            "· 收到的消息（保留 30 天）：0 条；清理中（11-25 09:00 起，已删 5 条）",
        ),
        (
            figures(
                run(finished=False, started=NOW - dt.timedelta(hours=7), pruned=7),
                oldest=dt.timedelta(days=31),
            ),
            "· 收到的消息（保留 30 天）：5,678 条，最早 31 天前；"
            "11-25 03:00 起的清理没有做完（删了 7 条），下一次接着清",
        ),
    ],
)
def test_each_table_shows_period_rows_oldest_age_and_its_last_run(
    found: TableFigures, line: str
) -> None:
    assert describe([found], tz=TZ, now=NOW) == ["数据保留（每天清理一次）：", line]
