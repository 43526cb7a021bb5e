"""Issue 13's acceptance, as a user runs it: `网页` in `keeper chat` prints a link
that opens the year in a real headless Chromium; `keeper export` writes a ZIP whose
CSVs hold the member's records and nobody else's."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import re
import zipfile
from pathlib import Path
from typing import Any

from tests.acceptance.processes import KEEPER, run_keeper
from tests.browser import chromium, console_errors, run, screenshot

__all__ = ["chromium"]  # the fixture, used by name below
LINK = re.compile(r"http://127\.0\.0\.1:\d+/web/link/[A-Za-z0-9_-]+")
LINE_TIMEOUT_S = 60


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KEEPER_", "WECOM_"))}
    env["KEEPER_DATABASE_URL"] = f"sqlite+aiosqlite:///{tmp_path / 'demo.db'}"
    env["PYTHONUNBUFFERED"] = "1"  # the chat's lines arrive as they are printed
    return env


async def test_a_link_from_keeper_chat_opens_the_year_and_the_weights_of_that_chat(
    chromium: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    proc = await asyncio.create_subprocess_exec(
        KEEPER, "chat", "--db", str(tmp_path / "demo.db"), "--user", "alice",
        "--start", "2026-06-01T08:00", env=_env(tmp_path), cwd=tmp_path,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdin is not None
    assert proc.stdout is not None
    script = "体重 72.4\n/time +1d\n体重 71.9\n/time +1d\n体重 71.5\n喝水 +2\n网页\n"
    proc.stdin.write(script.encode())
    await proc.stdin.drain()
    link = None
    while link is None:
        line = await asyncio.wait_for(proc.stdout.readline(), LINE_TIMEOUT_S)
        assert line, "keeper chat ended before it printed a link"
        if found := LINK.search(line.decode()):
            link = found[0]
    try:
        await run(chromium.get, link)
        assert chromium.current_url.endswith("/web/me")
        assert len(chromium.find_elements(By.CSS_SELECTOR, ".cal .d")) == 365
        assert len(chromium.find_elements(By.CSS_SELECTOR, "#weight circle.pt")) == 3
        assert console_errors(chromium) == []
        screenshot(chromium, "keeper-chat-page")
    finally:
        proc.stdin.write(b"/quit\n")
        await proc.stdin.drain()
        await asyncio.wait_for(proc.wait(), LINE_TIMEOUT_S)
    assert proc.returncode == 0


async def _chat(tmp_path: Path, user: str, script: str) -> None:
    args = ["chat", "--db", str(tmp_path / "demo.db"), "--user", user]
    code, _, err = await run_keeper(args, _env(tmp_path), cwd=tmp_path, stdin=script.encode())
    assert code == 0, err


async def test_keeper_export_writes_only_the_members_own_records(tmp_path: Path) -> None:
    await _chat(tmp_path, "bob", "体重 99.9\n记账 77 鲍勃的饭\n日记 鲍勃的日记\n")
    await _chat(tmp_path, "alice", "体重 72.4\n记账 35 午饭\n日记 今天不错\n任务 明天 交材料\n")
    out = tmp_path / "alice.zip"
    code, stdout, err = await run_keeper(
        ["export", "--user", "alice", "--out", str(out)], _env(tmp_path), cwd=tmp_path
    )
    assert code == 0, err
    assert stdout.startswith(f"keeper: exported to {out}")
    assert out.stat().st_mode & 0o777 == 0o600
    archive = zipfile.ZipFile(out)
    everything = "".join(archive.read(n).decode("utf-8-sig") for n in archive.namelist())
    assert "鲍勃" not in everything
    assert "99.9" not in everything
    ledger = list(csv.DictReader(io.StringIO(archive.read("ledger.csv").decode("utf-8-sig"))))
    assert [(r["amount"], r["note"]) for r in ledger] == [("35.00", "午饭")]
    assert "今天不错" in archive.read("journal.csv").decode("utf-8-sig")


async def test_keeper_export_refuses_an_unknown_member_or_an_existing_file(tmp_path: Path) -> None:
    await _chat(tmp_path, "alice", "体重 72.4\n")
    out = tmp_path / "x.zip"
    code, _, err = await run_keeper(
        ["export", "--user", "nobody", "--out", str(out)], _env(tmp_path), cwd=tmp_path
    )
    assert (code, err.strip()) == (1, "keeper: no member with that UserID in this database")
    assert not out.exists()
    out.write_bytes(b"keep me")
    code, _, err = await run_keeper(
        ["export", "--user", "alice", "--out", str(out)], _env(tmp_path), cwd=tmp_path
    )
    assert code == 1
    assert "already exists" in err
    assert out.read_bytes() == b"keep me"
