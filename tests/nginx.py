"""The distribution's own nginx, run on the shipped deploy/nginx.conf (tests only).

Where /usr/sbin/nginx (Debian's `nginx` package) or openssl is missing the tests skip
with the reason shown, unless `KEEPER_REQUIRE_NGINX=1` (set by `.ci/run`, which
installs nginx), in which case they fail: CI never skips them.

The shipped file is `include`d in `http {}` by a minimal main configuration in a
temporary folder (pid, logs and temp paths there too), as Debian's nginx.conf
includes conf.d/. What changes in the file, and nothing else: `certified` points the
certificate paths at a throwaway self-signed certificate (for keeper.example.com and
127.0.0.1); `readdressed`, for a running proxy, moves the listeners to free loopback
ports (the IPv6 ones are dropped: a container may have no IPv6 loopback), `proxy_pass`
to the test's keeper and the ACME root to a temporary folder. Each replacement is
counted, so a changed file fails here instead of being half rewritten.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

SHIPPED = Path(__file__).parents[1] / "deploy" / "nginx.conf"
NGINX = Path("/usr/sbin/nginx")
REQUIRE_NGINX = os.environ.get("KEEPER_REQUIRE_NGINX") == "1"
LIVE = "/etc/letsencrypt/live/keeper.example.com"
KEEPER = "http://127.0.0.1:8080"  # `keeper serve` on KEEPER_HOST and KEEPER_PORT as shipped
SELF_SIGNED = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
               "-subj", "/CN=keeper.example.com",
               "-addext", "subjectAltName=DNS:keeper.example.com,IP:127.0.0.1"]  # fmt: skip
START_TIMEOUT_S = 15
STOP_TIMEOUT_S = 15


def nginx() -> Path:
    """nginx's path; skips (or, under KEEPER_REQUIRE_NGINX=1, fails) without nginx and openssl."""
    reason = None
    if not NGINX.exists():
        reason = f"{NGINX} is missing (apt-get install nginx)"
    elif shutil.which("openssl") is None:
        reason = "openssl is not on PATH (the proxy tests make a self-signed certificate)"
    if reason:
        if REQUIRE_NGINX:
            pytest.fail(reason + " and KEEPER_REQUIRE_NGINX=1")
        pytest.skip(reason)
    return NGINX


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A throwaway certificate and key for keeper.example.com and 127.0.0.1."""
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        ["openssl", *SELF_SIGNED, "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def _replace(text: str, old: str, new: str, times: int) -> str:
    assert text.count(old) == times, f"expected {old!r} {times} times in the shipped file"
    return text.replace(old, new)


def certified(text: str, cert: Path, key: Path) -> str:
    """`text` with Let's Encrypt's certificate paths pointing at `cert` and `key`."""
    text = _replace(text, f"{LIVE}/fullchain.pem;", f"{cert};", 1)
    return _replace(text, f"{LIVE}/privkey.pem;", f"{key};", 1)


def readdressed(text: str, *, http: int, https: int, upstream: int, acme: Path) -> str:
    """`text` listening on loopback ports `http` and `https`, forwarding to `upstream`."""
    ports = {"80": http, "443": https}
    text, moved = re.subn(
        r"^( *)listen (80|443)\b",
        lambda m: f"{m[1]}listen 127.0.0.1:{ports[m[2]]}",
        text,
        flags=re.M,
    )
    text, dropped = re.subn(r"^ *listen \[::\]:(?:80|443)\b[^;]*;\n", "", text, flags=re.M)
    assert (moved, dropped) == (2, 2), "the shipped file's listeners changed"
    targets = set(re.findall(r"^ *proxy_pass ([^;]*);", text, flags=re.M))
    assert targets == {KEEPER}, f"the shipped file forwards to {targets}, not only keeper"
    text = text.replace(f"proxy_pass {KEEPER};", f"proxy_pass http://127.0.0.1:{upstream};")
    return _replace(text, "root /var/www/letsencrypt;", f"root {acme};", 1)


def configure(folder: Path, server_text: str) -> Path:
    """A main configuration in `folder` that includes `server_text`; its path."""
    (folder / "keeper.conf").write_text(server_text)
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # Started as root, nginx's workers would become `nobody`, who cannot enter pytest's
    # folders (the ACME root, the temp paths): keep them root for the test.
    user = "user root;" if os.geteuid() == 0 else ""
    main = folder / "nginx.conf"
    main.write_text(
        f"{user}\npid {folder / 'nginx.pid'};\nerror_log stderr notice;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n    access_log {folder / 'access.log'};\n{temp}\n"
        f"    include {folder / 'keeper.conf'};\n}}\n"
    )
    return main


def check(binary: Path, main: Path) -> subprocess.CompletedProcess[str]:
    """`nginx -t` on `main`: exit status 0 and "test is successful" when nginx accepts it."""
    return subprocess.run(
        [binary, "-t", "-p", str(main.parent), "-c", str(main), "-e", "stderr"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@contextlib.asynccontextmanager
async def running(binary: Path, main: Path) -> AsyncIterator[None]:
    """nginx in the foreground on `main`, listening once inside; stopped on the way out.

    Ready means its master has logged "start worker processes", which it does after
    opening every listener: from then on connections queue even before a worker runs.
    """
    proc = await asyncio.create_subprocess_exec(
        binary, "-p", str(main.parent), "-c", str(main), "-e", "stderr", "-g", "daemon off;",
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stderr is not None
    said: list[str] = []
    drain: asyncio.Task[bytes] | None = None
    try:
        async with asyncio.timeout(START_TIMEOUT_S):
            while not said or "start worker processes" not in said[-1]:
                line = await proc.stderr.readline()
                assert line, "nginx stopped before listening:\n" + "".join(said)
                said.append(line.decode(errors="replace"))
        drain = asyncio.create_task(proc.stderr.read())  # a full pipe would stall nginx
        yield
    finally:
        if proc.returncode is None:
            proc.terminate()  # nginx's fast shutdown: the master stops its workers first
        await asyncio.wait_for(proc.wait(), STOP_TIMEOUT_S)
        if drain is not None:
            await drain
