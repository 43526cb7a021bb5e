"""Backup and verified restore of a large database: time and peak RSS, SQLite and MariaDB.

For each engine: a database is migrated and filled by `tests/integration/backup_seed`
(USERS users x DAYS days, about 8 rows per user-day: 1,000 x 365 is about 3 million
rows), then three steps run, each in a child process of its own so its peak RSS is
its own:

- backup:  `make_backup` of the database into an encrypted file;
- verify:  `verify_backup` (restore into a scratch SQLite, read back, compare);
- restore: `restore_backup` into a fresh database of the same engine, then the
  restored database is backed up again and its per-table checksums compared with
  the first backup's (a verified restore).

    .venv/bin/python bench/backup.py                       # 1,000 users x 365 days
    .venv/bin/python bench/backup.py --users 100 --targets sqlite

MariaDB is KEEPER_BENCH_MYSQL_URL (default root on 127.0.0.1:3306), databases of its
own, dropped afterwards. Prints a table, then one JSON line. Not a pass/fail test.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the seed lives with the tests

from callback import machine  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from storage.backup import make_backup, restore_backup, verify_backup  # noqa: E402
from storage.engine import create_engine  # noqa: E402
from storage.migrate import upgrade  # noqa: E402
from tests.integration.backup_seed import seed  # noqa: E402

MYSQL_URL = os.environ.get("KEEPER_BENCH_MYSQL_URL", "mysql+aiomysql://root@127.0.0.1:3306/test")
KEY = "bench passphrase, not a secret"
NOW = dt.datetime(2026, 12, 31, tzinfo=dt.UTC)
START = dt.datetime(2026, 1, 1, 1, tzinfo=dt.UTC)


async def _step(step: str, source: str, target: str, file: Path) -> dict[str, Any]:
    """One step in this (child) process; the parent reads its JSON."""
    started = time.perf_counter()
    if step == "backup":
        manifest = await make_backup(source, file, KEY, now=NOW)
        detail: dict[str, Any] = {"rows": manifest.rows}
    elif step == "verify":
        verification = await verify_backup(file, KEY)
        detail = {"ok": verification.ok, "rows": verification.manifest.rows}
    else:
        restored = await restore_backup(file, target, KEY)
        seconds = time.perf_counter() - started
        again = await make_backup(target, file.with_suffix(".again"), KEY, now=NOW)
        same = [(t.name, t.sha256) for t in again.tables] == [
            (t.name, t.sha256) for t in restored.manifest.tables
        ]
        detail = {"ok": same, "rows": restored.manifest.rows, "restore_only_s": round(seconds, 2)}
    detail["seconds"] = round(time.perf_counter() - started, 2)
    detail["peak_rss_mb"] = _peak_rss_mb()
    return detail


def _peak_rss_mb() -> float:
    """This process's peak RSS (VmHWM). Not ru_maxrss: Linux carries that across exec,
    so a child would report the parent's peak (the seeding's) instead of its own."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    raise RuntimeError("no VmHWM in /proc/self/status")


def _run_child(step: str, source: str, target: str, file: Path) -> dict[str, Any]:
    argv = [sys.executable, __file__, "--step", step, source, target, str(file)]
    done = subprocess.run(argv, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


async def _new_database(engine_name: str, scratch: Path, name: str) -> str:
    if engine_name == "sqlite":
        return f"sqlite+aiosqlite:///{scratch / name}"
    database = f"keeper_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(MYSQL_URL)
    async with admin.begin() as conn:
        await conn.exec_driver_sql(f"CREATE DATABASE {database} CHARACTER SET utf8mb4")
    await admin.dispose()
    return make_url(MYSQL_URL).set(database=database).render_as_string(hide_password=False)


async def _drop(url: str) -> None:
    if not url.startswith("mysql"):
        return
    admin = create_engine(MYSQL_URL)
    async with admin.begin() as conn:
        await conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {make_url(url).database}")
    await admin.dispose()


async def _filled(engine_name: str, scratch: Path, users: int, days: int) -> tuple[str, int, float]:
    url = await _new_database(engine_name, scratch, "source.db")
    engine = create_engine(url)
    started = time.perf_counter()
    await upgrade(engine)
    rows = await seed(engine, users=users, days=days, start=START)
    await engine.dispose()
    return url, rows, time.perf_counter() - started


async def _target(engine_name: str, users: int, days: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="keeper-bench-") as tmp:
        scratch = Path(tmp)
        source, rows, seed_s = await _filled(engine_name, scratch, users, days)
        target = await _new_database(engine_name, scratch, "target.db")
        file = scratch / "bench.kbak"
        try:
            steps = {
                step: _run_child(step, source, target, file)
                for step in ("backup", "verify", "restore")
            }
        finally:
            await _drop(source)
            await _drop(target)
    return {"target": engine_name, "rows": rows, "seed_s": round(seed_s, 1), **steps}


def _table(results: list[dict[str, Any]]) -> str:
    lines = [
        "| engine | rows | file MB | backup s | backup RSS MB | verify s | verify RSS MB "
        "| restore s (+ re-backup) | restore RSS MB | checks |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        b, v, s = r["backup"], r["verify"], r["restore"]
        ok = "✓" if v["ok"] and s["ok"] else "✗"
        lines.append(
            f"| {r['target']} | {r['rows']:,} | {b['bytes'] / 1e6:.2f} | {b['seconds']} | "
            f"{b['peak_rss_mb']} | {v['seconds']} | {v['peak_rss_mb']} | "
            f"{s['restore_only_s']} ({s['seconds']}) | {s['peak_rss_mb']} | {ok} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--targets", default="sqlite,mariadb")
    parser.add_argument("--step", help=argparse.SUPPRESS)
    parser.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step:
        source, target, file = args.paths
        detail = asyncio.run(_step(args.step, source, target, Path(file)))
        detail["bytes"] = Path(file).stat().st_size
        print(json.dumps(detail))
        return
    host = machine()
    results = [asyncio.run(_target(t, args.users, args.days)) for t in args.targets.split(",")]
    host["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print(
        f"users={args.users} days={args.days} on {host['cpus']} x {host['cpu_model']}, "
        f"load {host['loadavg_at_start']} -> {host['loadavg_at_end']}"
    )
    print(_table(results))
    print(json.dumps({"bench": "backup", "users": args.users, "days": args.days,
                      "machine": host, "results": results}))  # fmt: skip


if __name__ == "__main__":
    main()
