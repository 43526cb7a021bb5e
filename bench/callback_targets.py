"""The servers `bench/callback.py` measures, each set up, started and torn down here.

A target is a context manager that prepares a fresh database, starts the server as
a subprocess on a free loopback port, waits until it answers, yields a `Server`
and, on the way out, stops it (SIGTERM, then a wait) and removes its database.
A target that cannot run here (MariaDB is not reachable) raises `Skip` before
starting anything.
"""

from __future__ import annotations

import base64
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

BENCH_DIR = Path(__file__).resolve().parent
VENV_BIN = Path(sys.executable).parent
MARIADB = "root@127.0.0.1:3306"
MYSQL_DRIVERS = ("asyncmy", "aiomysql")
mysql_driver = MYSQL_DRIVERS[0]
"""The driver keeper's MariaDB targets run on (`bench/callback.py --mysql-driver`)."""
READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 15.0
KEEPER_TABLES = ("inbound_messages", "measurements", "water_checkins", "ledger_entries", "users")


class Skip(Exception):
    """This target cannot run on this machine; the message says why."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Credentials:
    """One app's callback settings, made up for the run."""

    token: str
    aes_key: str
    corp_id: str = "wwbench0000000001"

    @classmethod
    def fresh(cls) -> Credentials:
        """A random Token (32 alnum) and EncodingAESKey (43 base64 characters)."""
        aes_key = base64.b64encode(secrets.token_bytes(32)).decode("ascii")[:43]
        return cls(token=secrets.token_hex(16), aes_key=aes_key)


@dataclass(frozen=True, kw_only=True, slots=True)
class Server:
    """A running server: where to send load, whose RSS to watch, how to count its rows."""

    url: str
    pid: int
    expect: str  # the reply check the load side applies: "keeper" or "ok"
    count_rows: Callable[[], dict[str, int]]


def free_port() -> int:
    """A loopback TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running(cmd: list[str], env: dict[str, str], workdir: Path, ready_url: str) -> Iterator[int]:
    """Start `cmd` (its output to workdir/server.log), wait for `ready_url`, stop it after."""
    log = (workdir / "server.log").open("wb")
    proc = subprocess.Popen(cmd, env=env, cwd=workdir, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_ready(proc, ready_url, workdir)
        yield proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def _wait_ready(proc: subprocess.Popen[bytes], url: str, workdir: Path) -> None:
    """Poll `url` until any HTTP answer below 500; fail with the server's log tail."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except urllib.error.HTTPError as exc:
            if exc.code < 500:
                return
        except OSError:
            pass
        time.sleep(0.1)
    tail = (workdir / "server.log").read_text(errors="replace")[-2000:]
    raise RuntimeError(f"server did not become ready at {url}:\n{tail}")


def _counter(url: str, tables: tuple[str, ...]) -> Callable[[], dict[str, int]]:
    """A function that counts the rows of `tables` through a sync engine."""

    def count() -> dict[str, int]:
        engine = sa.create_engine(url)
        try:
            with engine.connect() as conn:
                return {
                    t: conn.execute(sa.text(f"SELECT COUNT(*) FROM {t}")).scalar_one()
                    for t in tables
                }
        finally:
            engine.dispose()

    return count


def _keeper_env(creds: Credentials, database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "KEEPER_DATABASE_URL": database_url,
        "KEEPER_TIMEZONE": "Asia/Shanghai",
        "KEEPER_SCHEDULER": "off",
        "WECOM_CORP_ID": creds.corp_id,
        "WECOM_AGENT_ID": "1000002",
        "WECOM_SECRET": "bench-secret-not-used",
        "WECOM_TOKEN": creds.token,
        "WECOM_AES_KEY": creds.aes_key,
    }


@contextlib.contextmanager
def _keeper(
    creds: Credentials, workdir: Path, async_url: str, sync_url: str, workers: int = 1
) -> Iterator[Server]:
    """Migrate, then run `keeper serve --workers N` against `async_url`."""
    env, keeper = _keeper_env(creds, async_url), str(VENV_BIN / "keeper")
    subprocess.run([keeper, "migrate"], env=env, cwd=workdir, check=True, capture_output=True)
    port = free_port()
    cmd = [keeper, "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)]
    base = f"http://127.0.0.1:{port}"
    with running(cmd, env, workdir, base + "/healthz") as pid:
        yield Server(
            url=base, pid=pid, expect="keeper", count_rows=_counter(sync_url, KEEPER_TABLES)
        )


@contextlib.contextmanager
def keeper_sqlite(creds: Credentials, workdir: Path) -> Iterator[Server]:
    """keeper on a SQLite file (WAL, as its engine factory sets up)."""
    db = workdir / "keeper.db"
    with _keeper(creds, workdir, f"sqlite+aiosqlite:///{db}", f"sqlite:///{db}") as server:
        yield server


@contextlib.contextmanager
def _mariadb_database(prefix: str) -> Iterator[str]:
    """A fresh utf8mb4 MariaDB database's name, dropped afterwards."""
    name = f"{prefix}_{os.getpid()}"
    admin = sa.create_engine(f"mysql+pymysql://{MARIADB}/")
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f"CREATE DATABASE {name} CHARACTER SET utf8mb4"))
    except sa.exc.OperationalError as exc:
        admin.dispose()
        raise Skip(f"MariaDB at {MARIADB} is not reachable ({exc.orig})") from None
    try:
        yield name
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name}"))
        admin.dispose()


@contextlib.contextmanager
def keeper_mariadb(creds: Credentials, workdir: Path, workers: int = 1) -> Iterator[Server]:
    """keeper on a fresh utf8mb4 MariaDB database, dropped afterwards."""
    with _mariadb_database("keeper_bench") as name:
        urls = (f"mysql+{mysql_driver}://{MARIADB}/{name}", f"mysql+pymysql://{MARIADB}/{name}")
        with _keeper(creds, workdir, *urls, workers=workers) as server:
            yield server


@contextlib.contextmanager
def keeper_mariadb_workers(creds: Credentials, workdir: Path) -> Iterator[Server]:
    """keeper on MariaDB with `serve`'s default there: one worker per core."""
    with keeper_mariadb(creds, workdir, workers=os.cpu_count() or 1) as server:
        yield server


@contextlib.contextmanager
def _reference(creds: Credentials, workdir: Path, sync_url: str) -> Iterator[Server]:
    """The Flask + wechatpy + SQLAlchemy reference under gunicorn, one sync worker per core."""
    env = {
        **os.environ,
        "REF_DB_URL": sync_url,
        "REF_TOKEN": creds.token,
        "REF_AES_KEY": creds.aes_key,
        "REF_CORP_ID": creds.corp_id,
    }
    app = str(BENCH_DIR / "reference_app.py")
    subprocess.run([sys.executable, app], env=env, cwd=workdir, check=True, capture_output=True)
    port = free_port()
    workers = str(os.cpu_count() or 1)
    cmd = [str(VENV_BIN / "gunicorn"), "-w", workers, "-k", "sync", "-b", f"127.0.0.1:{port}"]
    cmd += ["--chdir", str(BENCH_DIR), "reference_app:app"]
    base = f"http://127.0.0.1:{port}"
    with running(cmd, env, workdir, base + "/wecom/callback") as pid:
        yield Server(url=base, pid=pid, expect="ok", count_rows=_counter(sync_url, ("messages",)))


@contextlib.contextmanager
def reference_sqlite(creds: Credentials, workdir: Path) -> Iterator[Server]:
    """The reference on a SQLite file in WAL mode."""
    with _reference(creds, workdir, f"sqlite:///{workdir / 'reference.db'}") as server:
        yield server


@contextlib.contextmanager
def reference_mariadb(creds: Credentials, workdir: Path) -> Iterator[Server]:
    """The same reference app on a fresh MariaDB database (pymysql), dropped afterwards."""
    with (
        _mariadb_database("reference_bench") as name,
        _reference(creds, workdir, f"mysql+pymysql://{MARIADB}/{name}") as server,
    ):
        yield server


TARGETS = {
    "keeper-sqlite": keeper_sqlite,
    "keeper-mariadb": keeper_mariadb,
    "keeper-mariadb-workers": keeper_mariadb_workers,
    "reference-sqlite": reference_sqlite,
    "reference-mariadb": reference_mariadb,
}
"""Each keeper target is compared with the reference on the same engine."""
