"""`keeper serve --workers N`: N web processes sharing one port (SO_REUSEPORT).

Why: one asyncio process uses one core. On MySQL/MariaDB transactions run
concurrently in the server, so more processes answer more callbacks; the kernel
spreads new connections across the listening processes. On SQLite there is one
writer per file whatever the process count, and group commit (`storage.group_commit`)
only batches inside a process, so the default there stays one process.

This process only supervises: it starts the workers (`keeper serve` again, one port,
reuse-port on), passes SIGTERM/SIGINT on to them, and when one exits it stops the
others and exits with the first non-zero status, so a service manager restarts the
whole set. Worker 0 alone runs the in-process scheduler (`KEEPER_SCHEDULER=on`) and
serves `/metrics`, whose counters are therefore that worker's only.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from types import FrameType

STOP_TIMEOUT_S = 15.0


def default_workers(database_url: str) -> int:
    """One per core where transactions run concurrently (MySQL/MariaDB); one on SQLite."""
    if database_url.startswith("sqlite"):
        return 1
    return os.cpu_count() or 1


def worker_command(host: str, port: int) -> list[str]:
    """The command line of one worker: this same `keeper serve`, reusing the port."""
    serve = ["serve", "--host", host, "--port", str(port), "--workers", "1", "--reuse-port"]
    return [sys.executable, "-m", "bot.cli", *serve]


def worker_env(index: int) -> dict[str, str]:
    """Worker 0 keeps the settings; the others run no scheduler and serve no metrics."""
    env = dict(os.environ)
    if index > 0:
        env["KEEPER_SCHEDULER"] = "off"
        env["KEEPER_METRICS_PORT"] = "0"
    return env


def supervise(host: str, port: int, workers: int) -> int:
    """Run `workers` worker processes until one exits or we are told to stop."""
    procs = [
        subprocess.Popen(worker_command(host, port), env=worker_env(i)) for i in range(workers)
    ]

    told: set[int] = set()

    def stop(signum: int, _frame: FrameType | None = None) -> None:
        # Once per worker: a second SIGTERM during aiohttp's graceful shutdown (its
        # handlers are gone by then) would kill the worker mid-way.
        for proc in procs:
            if proc.poll() is None and proc.pid not in told:
                told.add(proc.pid)
                proc.send_signal(signum)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stop)
    _, status = os.wait()  # the first worker to exit ends the set
    stop(signal.SIGTERM)
    codes = [_stopped(proc) for proc in procs]
    first = os.waitstatus_to_exitcode(status)
    return first or next((c for c in codes if c not in (0, None)), 0)


def _stopped(proc: subprocess.Popen[bytes]) -> int | None:
    try:
        return proc.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()
    except ChildProcessError:  # already reaped by os.wait above
        return None
