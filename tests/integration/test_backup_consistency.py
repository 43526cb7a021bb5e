"""A backup taken while callbacks are being written is one committed state.

The backup reads tables parents-first; after each table, the test has real callbacks
(encrypted, through the running app) write new users and their records. A backup
that read the live database table by table would hold those later records without
their users (and restore would fail on the foreign keys); a snapshot holds none.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from bot.sandbox.wecom_side import WeComSide
from storage.backup import make_backup, restore_backup, verify_backup
from tests.integration.backup_seed import table_counts

KEY = "a test passphrase, not a real one"
NOW = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)


async def test_a_backup_taken_while_callbacks_are_written_holds_one_committed_state(
    wecom: WeComSide, database_url: str, tmp_path: Path
) -> None:
    await wecom.send_text("gina", "体重 72.4")
    before = await table_counts(database_url)
    written_during: list[str] = []

    async def callbacks_between_tables(table: str) -> None:
        newcomer = f"newcomer{len(written_during)}"
        await wecom.send_text(newcomer, "体重 70.1")
        await wecom.send_text("gina", f"记账 {len(written_during) + 1} 午饭")
        written_during.append(table)

    manifest = await make_backup(
        database_url, tmp_path / "b.kbak", KEY, now=NOW, after_table=callbacks_between_tables
    )
    after = await table_counts(database_url)
    scratch = f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}"
    await restore_backup(tmp_path / "b.kbak", scratch, KEY)
    restored = await table_counts(scratch)

    assert len(written_during) == len(manifest.tables) > 10
    assert after["users"] == before["users"] + len(written_during)
    assert after["ledger_entries"] == len(written_during)
    in_backup = {t.name: t.rows for t in manifest.tables}
    assert in_backup == {name: before[name] for name in in_backup}
    assert {name: restored[name] for name in in_backup} == in_backup
    assert (await verify_backup(tmp_path / "b.kbak", KEY)).ok
