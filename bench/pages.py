"""The personal page's latency for a member with five years of records.

Seeds a database (SQLite file, and MariaDB with `--targets sqlite,mariadb`) with
five years of one member's daily life - a weight a day, six water check-ins, three
ledger entries, a task done every other day, an event every third, a journal entry
every other day (about 20,000 rows) - then starts `keeper serve` as a real process
on a loopback port, signs in through a real one-time link, and times sequential
GETs of the page from this process over one keep-alive connection.

    .venv/bin/python bench/pages.py                # 20 warm-up + 300 timed per URL
    .venv/bin/python bench/pages.py --quick

Prints a table and one JSON line. Target: p95 under 100 ms. Not a pass/fail test:
the figures depend on the machine and on what else runs on it (the load average
at the start is printed).
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import psutil
import sqlalchemy as sa
from callback import machine
from callback_targets import VENV_BIN, free_port, running

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from storage.models import (  # noqa: E402
    EVENTS,
    JOURNAL,
    LEDGER,
    MEASUREMENTS,
    TASKS,
    USERS,
    WATER_CHECKINS,
)  # fmt: skip
from storage.repos.links import hash_token  # noqa: E402
from storage.web_models import WEB_LINKS  # noqa: E402

YEARS = 5
URLS = ("/web/me", "/web/me?span=365", "/web/me?span=30&day={today}")
CATEGORIES = ("餐饮", "交通", "购物", "居住", "日用")
TARGET_P95_MS = 100.0


def seed(sync_url: str, now: dt.datetime) -> tuple[int, str]:
    """One member with five years of records, and a fresh link token; (rows, token)."""
    engine = sa.create_engine(sync_url)
    rows = 0
    with engine.begin() as conn:
        user = conn.execute(
            sa.insert(USERS).values(wecom_user_id="bench", timezone="Asia/Shanghai", created_at=now)
        ).inserted_primary_key[0]
        days = [now - dt.timedelta(days=n) for n in range(365 * YEARS, 0, -1)]
        tables: dict[sa.Table, list[dict[str, Any]]] = {
            MEASUREMENTS: [], WATER_CHECKINS: [], LEDGER: [], TASKS: [], EVENTS: [], JOURNAL: [],
        }  # fmt: skip
        for i, at in enumerate(days):
            key = f"bench:{i}"
            tables[MEASUREMENTS].append(dict(user_id=user, kind="weight", value=Decimal(700 + i % 40) / 10,
                                             occurred_at=at, source_key=key))  # fmt: skip
            for g in range(6):
                tables[WATER_CHECKINS].append(dict(user_id=user, glasses=1,
                    occurred_at=at + dt.timedelta(hours=g), source_key=f"{key}:w{g}"))  # fmt: skip
            for m in range(3):
                tables[LEDGER].append(dict(user_id=user, direction="expense" if m else "income",
                    amount=Decimal(10 + m + i % 50), category=CATEGORIES[(i + m) % 5], note="bench",
                    occurred_at=at + dt.timedelta(minutes=m), source_key=f"{key}:l{m}"))  # fmt: skip
            if i % 2 == 0:
                tables[TASKS].append(dict(user_id=user, number=None, title=f"任务 {i}", status="done",
                    created_at=at, closed_at=at, source_key=f"{key}:t"))  # fmt: skip
                tables[JOURNAL].append(dict(user_id=user, text="bench", occurred_at=at,
                                            source_key=f"{key}:j"))  # fmt: skip
            if i % 3 == 0:
                tables[EVENTS].append(dict(user_id=user, title=f"日程 {i}", day=at.date(),
                    starts_at=at, status="scheduled", created_at=at, source_key=f"{key}:e"))  # fmt: skip
        for table, values in tables.items():
            conn.execute(sa.insert(table), values)
            rows += len(values)
        token = secrets.token_urlsafe(32)
        conn.execute(sa.insert(WEB_LINKS).values(token_hash=hash_token(token), user_id=user,
            purpose="page", created_at=now, expires_at=now + dt.timedelta(hours=1)))  # fmt: skip
    engine.dispose()
    return rows, token


def time_urls(
    port: int, pid: int, token: str, today: dt.date, warmup: int, n: int
) -> dict[str, Any]:
    """Per URL: latency percentiles as seen by the client, and the server process's
    CPU time per request (user + system), which the load on the machine barely moves."""
    server = psutil.Process(pid)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", f"/web/link/{token}")
    answer = conn.getresponse()
    answer.read()
    cookie = answer.getheader("Set-Cookie", "").split(";", 1)[0]
    if answer.status != 303 or not cookie:
        raise RuntimeError(f"signing in failed: HTTP {answer.status}")
    results = {}
    for template in URLS:
        url = template.format(today=today.isoformat())
        samples = []
        cpu_before = 0.0
        for i in range(warmup + n):
            if i == warmup:
                cpu_before = sum(server.cpu_times()[:2])
            start = time.perf_counter()
            conn.request("GET", url, headers={"Cookie": cookie})
            response = conn.getresponse()
            body = response.read()
            elapsed = (time.perf_counter() - start) * 1000
            if response.status != 200 or b'class="cal"' not in body:
                raise RuntimeError(f"{url}: HTTP {response.status}")
            if i >= warmup:
                samples.append(elapsed)
        cpu_ms = (sum(server.cpu_times()[:2]) - cpu_before) * 1000 / n
        samples.sort()
        results[template] = {
            "server_cpu_ms": round(cpu_ms, 1),
            "p50_ms": round(statistics.median(samples), 1),
            "p95_ms": round(samples[int(len(samples) * 0.95) - 1], 1),
            "p99_ms": round(samples[int(len(samples) * 0.99) - 1], 1),
            "max_ms": round(samples[-1], 1),
            "bytes": len(body),
        }
    conn.close()
    return results


def bench(target: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    if target == "sqlite":
        db = workdir / "pages.db"
        async_url, sync_url = f"sqlite+aiosqlite:///{db}", f"sqlite:///{db}"
    else:
        name = f"keeper_bench_pages_{secrets.token_hex(4)}"
        admin = sa.create_engine(args.mysql_sync_url)
        with admin.begin() as conn:
            conn.execute(sa.text(f"CREATE DATABASE {name} CHARACTER SET utf8mb4"))
        async_url = f"{args.mysql_async_url}/{name}"
        sync_url = f"{args.mysql_sync_url}/{name}"
    env = {
        **dict(__import__("os").environ),
        "KEEPER_DATABASE_URL": async_url, "KEEPER_SCHEDULER": "off",
        "WECOM_CORP_ID": "wwbenchpages01", "WECOM_AGENT_ID": "1000002",
        "WECOM_SECRET": "bench-secret-not-used", "WECOM_TOKEN": "BenchToken1",
        "WECOM_AES_KEY": "jWmYm7qr5nMoAUwZRjGtBxmz3KA1tkAj3ykkR6q2B2C",
        "KEEPER_PUBLIC_URL": "http://127.0.0.1",
    }  # fmt: skip
    keeper = str(VENV_BIN / "keeper")
    try:
        subprocess.run([keeper, "migrate"], env=env, cwd=workdir, check=True, capture_output=True)
        now = dt.datetime.now(dt.UTC)
        rows, token = seed(sync_url, now)
        port = free_port()
        cmd = [keeper, "serve", "--host", "127.0.0.1", "--port", str(port)]
        with running(cmd, env, workdir, f"http://127.0.0.1:{port}/healthz") as pid:
            today = (now + dt.timedelta(hours=8)).date()
            figures = time_urls(port, pid, token, today, args.warmup, args.requests)
    finally:
        if target != "sqlite":
            with admin.begin() as conn:
                conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name}"))
            admin.dispose()
    return {"target": target, "rows": rows, "urls": figures}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", default="sqlite", help="sqlite,mariadb")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="20 timed requests per URL")
    parser.add_argument("--mysql-async-url", default="mysql+aiomysql://root@127.0.0.1:3306")
    parser.add_argument("--mysql-sync-url", default="mysql+pymysql://root@127.0.0.1:3306")
    args = parser.parse_args(argv)
    if args.quick:
        args.requests, args.warmup = 20, 5
    info = machine()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for target in args.targets.split(","):
            results.append(bench(target, args, Path(tmp)))
    print(
        f"{'target':<8} {'url':<34} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7}"
        f" {'CPU ms':>7} {'KiB':>5}"
    )
    for r in results:
        for url, f in r["urls"].items():
            print(f"{r['target']:<8} {url:<34} {f['p50_ms']:>7} {f['p95_ms']:>7} {f['p99_ms']:>7} "
                  f"{f['max_ms']:>7} {f['server_cpu_ms']:>7} {f['bytes'] // 1024:>5}")  # fmt: skip
    print(
        f"rows per member: {results[0]['rows']}; load average at start: {info['loadavg_at_start']}"
    )
    worst = max(f["p95_ms"] for r in results for f in r["urls"].values())
    print(
        f"target p95 < {TARGET_P95_MS:.0f} ms: {'met' if worst < TARGET_P95_MS else 'missed'} (worst p95 {worst} ms)"
    )
    print(json.dumps({"bench": "pages", "machine": info, "requests": args.requests,
                      "results": results, "target_p95_ms": TARGET_P95_MS}, ensure_ascii=False))  # fmt: skip


if __name__ == "__main__":
    main()
