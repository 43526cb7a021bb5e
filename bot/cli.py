"""The `keeper` command line: serve, worker, tick, migrate, chat, doctor, menu, export,
backup, restore, rekey.

Exit status 2 means "fix your configuration": a missing or malformed setting, a
database that is unreachable, missing or not migrated, or `tick --at` refused on a
live database. The message is one line on stderr naming what to fix, never a secret
and never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime as dt
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from bot.logs import configure_logging
from bot.settings import (
    DATABASE_SCHEMES,
    Settings,
    SettingsError,
    load_backup_key,
    load_database_url,
    load_settings,
    mask_database_url,
    with_password_file,
)

if TYPE_CHECKING:
    from scheduler.clock import Clock
    from scheduler.tick import TickReport
    from services.rekey import RekeyReport
    from storage.backup.archive import Manifest


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `keeper` console script; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        return int(args.run(args))
    except SettingsError as exc:
        print(f"keeper: {exc}", file=sys.stderr)
        return 2
    except DBAPIError as exc:  # the drivers' errors, connection refused included
        print(_database_failure(exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _database_failure(exc: BaseException) -> str:
    from bot.maintenance import database_failure

    try:
        url = load_database_url()
        password = make_url(url).password
    except (SettingsError, ArgumentError):
        return f"keeper: the database failed: {type(exc).__name__}"
    return database_failure(exc, url, (str(password),) if password else ())


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"keeper {version('keeper')}"
    except PackageNotFoundError:
        return "keeper (version unknown: not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="keeper", description="keeper, a WeCom assistant")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the web process (WeCom callback, /healthz)")
    serve.add_argument("--host", help="listen address (default KEEPER_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="listen port (default KEEPER_PORT or 8080)")
    serve.add_argument(
        "--workers",
        type=int,
        help="processes sharing the port (default: one per core on MySQL/MariaDB, one on SQLite)",
    )
    serve.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)  # a worker
    serve.set_defaults(run=_serve)
    tick = sub.add_parser("tick", help="one scheduler pass, then exit")
    tick.add_argument("--at", help="pretend it is this time (ISO 8601 with offset)")
    tick.add_argument(
        "--force",
        action="store_true",
        help="run --at even though a real scheduler ticked in the last 24 hours",
    )
    tick.set_defaults(run=_tick)
    worker = sub.add_parser("worker", help="run the scheduler loop")
    worker.set_defaults(run=_worker)
    migrate = sub.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(run=_migrate)
    doctor = sub.add_parser("doctor", help="check settings, database, scheduler and WeCom")
    doctor.add_argument(
        "--public-url",
        metavar="URL",
        help="also send WeCom's signed URL check to this callback URL (e.g. https://host/wecom/callback)",
    )
    doctor.add_argument(
        "--send-test", action="store_true", help="also send one short text to KEEPER_ADMINS"
    )
    doctor.set_defaults(run=_doctor)
    menu = sub.add_parser("menu", help="the app's menu in WeCom")
    menu_sub = menu.add_subparsers(dest="menu_command", required=True)
    install = menu_sub.add_parser("install", help="install keeper's menu (menu/create)")
    install.set_defaults(run=_menu_install)
    chat = sub.add_parser("chat", help="the terminal demo against a fake WeCom")
    chat.add_argument("--db", default="keeper-demo.db", help="SQLite file (default %(default)s)")
    chat.add_argument("--user", default="demo", help="the WeCom UserID you chat as")
    chat.add_argument(
        "--start",
        type=dt.datetime.fromisoformat,
        default=None,
        help="the demo clock's start, local time (e.g. 2026-12-01T07:30); default now",
    )
    chat.set_defaults(run=_chat)
    rekey = sub.add_parser(
        "rekey", help="re-seal every stored secret under KEEPER_DATA_KEY (after a rotation)"
    )
    rekey.set_defaults(run=_rekey)
    _add_export(sub)
    _add_backup_commands(sub)
    return parser


def _log_to_stderr(settings: Settings) -> None:
    """Logging as the settings say; the UserIDs they name (admins, the alert receiver)
    are masked in every line and stored error text from the start."""
    configure_logging(
        settings.secrets(),
        level=settings.operations.log_level,
        fmt=settings.operations.log_format,
        user_ids=(*settings.operations.admins, settings.channels.alert_to),
    )


def _serve(args: argparse.Namespace) -> int:
    from aiohttp import web

    from bot.app import create_app
    from bot.workers import default_workers, supervise

    settings = load_settings()
    _log_to_stderr(settings)
    if not asyncio.run(_schema_is_current(settings)):
        print("keeper: the database schema is not current; run `keeper migrate`", file=sys.stderr)
        return 2
    host = args.host or settings.web.host
    port = settings.web.port if args.port is None else args.port
    workers = args.workers or default_workers(settings.database.url)
    if workers > 1:
        logging.getLogger("keeper").info("starting workers", extra={"workers": workers})
        return supervise(host, port, workers)
    web.run_app(
        create_app(settings, watchdog=True),
        host=host,
        port=port,
        access_log=None,
        print=_announce,
        reuse_port=args.reuse_port or None,
    )
    return 0


def _announce(banner: str) -> None:
    """aiohttp's "Running on ..." line, once the socket listens, as a log line."""
    logging.getLogger("keeper").info(banner.splitlines()[0].strip("= "))


async def _schema_is_current(settings: Settings) -> bool:
    from storage.engine import opened_engine
    from storage.migrate import is_current

    async with opened_engine(settings.database.url) as engine:
        return await is_current(engine)


def _tick(args: argparse.Namespace) -> int:
    from bot.maintenance import TEST_TICK_PREFIX
    from bot.scheduling import worker_name
    from scheduler.clock import FakeClock, SystemClock

    clock = SystemClock() if args.at is None else FakeClock(_parse_at(args.at))
    settings = load_settings()
    _log_to_stderr(settings)
    if not asyncio.run(_schema_is_current(settings)):
        print("keeper: the database schema is not current; run `keeper migrate`", file=sys.stderr)
        return 2
    if args.at is not None and not args.force and (refusal := _live_database(settings)):
        print(refusal, file=sys.stderr)
        return 2
    owner = worker_name() if args.at is None else (TEST_TICK_PREFIX + worker_name())[:64]
    report = asyncio.run(_one_tick(settings, clock, owner, prune=args.at is None))
    print(
        f"keeper: tick materialised={report.materialised} expired={report.expired} "
        f"recovered={report.recovered} claimed={report.claimed} "
        + " ".join(f"{k}={v}" for k, v in sorted(report.outcomes.items()))
        + (" backup=ran" if report.backup_started else "")
        + (f" pruned={report.pruned}" if report.pruned else "")
    )
    return 0


def _parse_at(text: str) -> dt.datetime:
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        raise SettingsError("--at must be an ISO 8601 time, e.g. 2026-12-01T08:00+08:00") from None
    if when.tzinfo is None:
        raise SettingsError("--at needs an offset, e.g. 2026-12-01T08:00+08:00")
    return when


def _live_database(settings: Settings) -> str | None:
    """Why `tick --at` must not run here (a real scheduler ticked lately), or None.

    A pretend time on a live database sends or expires real users' reminders: tried
    once, it consumed a real user's digests.
    """
    from bot.maintenance import REAL_TICK_GUARD, real_tick_since
    from scheduler.clock import SystemClock

    since = SystemClock().now() - REAL_TICK_GUARD  # the real clock: --at is the pretend one
    found = asyncio.run(real_tick_since(settings.database.url, since))
    if found is None:
        return None
    worker, at = found
    return (
        f"keeper: refusing `tick --at`: {worker} ticked this database for real at "
        f"{at.isoformat(timespec='seconds')}; a pretend time would send or expire real "
        "reminders. Use a copy of the database, or --force if you are sure."
    )


async def _one_tick(settings: Settings, clock: Clock, owner: str, *, prune: bool) -> TickReport:
    """One pass. `prune` False (`--at`): no retention run, since a pretend time ahead
    of the real one would delete real rows that are not old yet, for good."""
    from bot.scheduling import scheduler_for
    from scheduler.tick import tick
    from storage.database import Database
    from storage.engine import opened_engine

    async with (
        opened_engine(settings.database.url) as engine,
        scheduler_for(settings, Database(engine), clock, owner=owner) as built,
    ):
        scheduler = built if prune else dataclasses.replace(built, retention=None)
        report = await tick(scheduler)
        if scheduler.backups is not None:  # a cron-driven deployment backs up here
            await scheduler.backups.wait()
        return report


def _worker(args: argparse.Namespace) -> int:
    settings = load_settings()
    _log_to_stderr(settings)
    if not asyncio.run(_schema_is_current(settings)):
        print("keeper: the database schema is not current; run `keeper migrate`", file=sys.stderr)
        return 2
    asyncio.run(_work(settings))
    return 0


async def _work(settings: Settings) -> None:
    from bot import metrics
    from bot.scheduling import run_loop, scheduler_for
    from scheduler.clock import SystemClock
    from storage.database import Database
    from storage.engine import opened_engine

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    clock = SystemClock()
    port, host = settings.operations.metrics_port, settings.operations.metrics_host
    async with opened_engine(settings.database.url) as engine:
        database = Database(engine)
        async with (
            scheduler_for(settings, database, clock) as scheduler,
            metrics.serving(database, clock, host, port),
        ):
            logging.getLogger("keeper").info("worker started", extra={"owner": scheduler.owner})
            await run_loop(scheduler, stop)


def _migrate(args: argparse.Namespace) -> int:
    from bot.maintenance import migrate

    url = load_database_url()
    print(asyncio.run(migrate(url)).describe(mask_database_url(url)))
    return 0


def _doctor(args: argparse.Namespace) -> int:
    from bot import doctor
    from scheduler.clock import SystemClock

    options = doctor.Options(public_url=args.public_url, send_test=args.send_test)
    code, table = asyncio.run(doctor.run(options, now=SystemClock().now))
    print(table)
    return code


def _rekey(args: argparse.Namespace) -> int:
    """`keeper rekey` (`services.rekey`): exit 0 when every stored secret is under the
    current data key afterwards, 1 when some open with no key here, 2 without
    KEEPER_DATA_KEY or a current schema. Prints counts and key ids, never a secret."""
    settings = load_settings()
    _log_to_stderr(settings)
    keys = settings.key_ring()
    if keys.current is None:
        print(
            "keeper: KEEPER_DATA_KEY is not set; `keeper doctor` prints a fresh one to set",
            file=sys.stderr,
        )
        return 2
    if not asyncio.run(_schema_is_current(settings)):
        print("keeper: the database schema is not current; run `keeper migrate`", file=sys.stderr)
        return 2
    report = asyncio.run(_run_rekey(settings))
    print(f"keeper: rekey {report.describe()}")
    return 1 if report.unreadable else 0


async def _run_rekey(settings: Settings) -> RekeyReport:
    from services.rekey import rekey
    from storage.database import Database
    from storage.engine import opened_engine

    async with opened_engine(settings.database.url) as engine:
        return await rekey(Database(engine), settings.key_ring())


def _menu_install(args: argparse.Namespace) -> int:
    from bot.menu import install

    code, line = asyncio.run(install(load_settings()))
    print(line, file=sys.stdout if code == 0 else sys.stderr)
    return code


def _chat(args: argparse.Namespace) -> int:
    from bot.chat import run_chat

    return asyncio.run(run_chat(db_path=args.db, user=args.user, start=args.start))


def _add_export(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = sub.add_parser("export", help="one member's data as a ZIP of CSV and JSON")
    export.add_argument("--user", required=True, help="the member's WeCom UserID")
    export.add_argument("--out", required=True, type=Path, help="the ZIP file to write")
    export.set_defaults(run=_export)


def _export(args: argparse.Namespace) -> int:
    from bot.export_command import ExportRefused, check_target, read_export, write_export
    from scheduler.clock import SystemClock

    try:
        check_target(args.out)
        body = asyncio.run(read_export(load_database_url(), args.user, SystemClock().now()))
        print(write_export(args.out, body))
    except ExportRefused as refused:
        print(refused, file=sys.stderr)
        return 1
    return 0


# -- Backups: `keeper backup --out FILE | --verify FILE`, `keeper restore FILE` --------------
# Exit 0 done (or ✓), 1 the backup failed or was refused (tampered, wrong key, non-empty
# target, differs), 2 configuration (KEEPER_BACKUP_KEY, the database URL).


def _add_backup_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    backup = sub.add_parser(
        "backup", help="encrypted backup of the whole database, or --verify one"
    )
    what = backup.add_mutually_exclusive_group(required=True)
    what.add_argument("--out", metavar="FILE", type=Path, help="write a new backup to FILE")
    what.add_argument(
        "--verify",
        metavar="FILE",
        type=Path,
        help="restore FILE into a scratch database and check it",
    )
    backup.set_defaults(run=_backup)
    restore = sub.add_parser("restore", help="restore a backup into an empty database")
    restore.add_argument("file", metavar="FILE", type=Path, help="the backup file")
    restore.add_argument(
        "--database-url",
        metavar="URL",
        help="the empty database to restore into (default KEEPER_DATABASE_URL); "
        "put no password in it: use --password-file",
    )
    restore.add_argument(
        "--password-file",
        metavar="FILE",
        help="a file holding the database password on one line (kept out of `ps`)",
    )
    restore.set_defaults(run=_restore)


def _backup(args: argparse.Namespace) -> int:
    from storage.backup import BackupError

    key = load_backup_key()
    try:
        if args.verify is not None:
            return _verify(args.verify, key)
        url = load_database_url()
        manifest = asyncio.run(_make_backup(url, args.out, key))
    except BackupError as exc:
        print(f"keeper: {exc}", file=sys.stderr)
        return 1
    print(
        f"keeper: backed up {mask_database_url(url)} (revision {manifest.meta.revision}, "
        f"{len(manifest.tables)} tables, {manifest.rows} rows) to {args.out}, "
        f"{args.out.stat().st_size:,} bytes; without KEEPER_BACKUP_KEY it cannot be restored"
    )
    return 0


async def _make_backup(url: str, out: Path, key: str) -> Manifest:
    from scheduler.clock import SystemClock
    from storage.backup import make_backup

    return await make_backup(url, out, key, now=SystemClock().now())


def _verify(path: Path, key: str) -> int:
    from storage.backup import BackupError, verify_backup

    try:
        verification = asyncio.run(verify_backup(path, key))
    except BackupError as exc:
        print(f"✗ {path}: {exc}")
        return 1
    meta = verification.manifest.meta
    if not verification.ok:
        print(f"✗ {path}: differs from its manifest: {'; '.join(verification.differences)}")
        return 1
    print(
        f"✓ {path}: revision {meta.revision}, {len(verification.manifest.tables)} tables, "
        f"{verification.manifest.rows} rows, made {meta.created_at} on {meta.engine}; "
        "restored into a scratch database, every count and checksum matches"
    )
    return 0


def _restore(args: argparse.Namespace) -> int:
    from bot.maintenance import database_failure
    from storage.backup import BackupError

    if args.database_url is None:
        url = load_database_url(required=True)  # with KEEPER_DATABASE_PASSWORD_FILE
    else:
        url = args.database_url.strip()
        if not url.startswith(DATABASE_SCHEMES):
            raise SettingsError("--database-url must start with sqlite+aiosqlite:// or mysql://")
    if args.password_file:
        if url.startswith("sqlite"):
            raise SettingsError("--password-file is for MariaDB/MySQL; a SQLite file has none")
        url = with_password_file(url, args.password_file)
    key = load_backup_key()
    try:
        line = asyncio.run(_restore_into(args.file, url, key))
    except BackupError as exc:
        print(
            f"keeper: {exc}{'; nothing was written' if exc.written is False else ''}",
            file=sys.stderr,
        )
        return 1
    except DBAPIError as exc:
        password = make_url(url).password
        print(database_failure(exc, url, (str(password),) if password else ()), file=sys.stderr)
        return 2
    print(line)
    return 0


async def _restore_into(path: Path, url: str, key: str) -> str:
    from storage.backup import restore_backup
    from storage.engine import opened_engine
    from storage.migrate import current_revision

    restored = await restore_backup(path, url, key)
    async with opened_engine(url) as engine:
        now_at = await current_revision(engine)
    return (
        f"keeper: restored {path} ({restored.manifest.rows} rows, revision "
        f"{restored.manifest.meta.revision}) into {mask_database_url(url)}, now at revision {now_at}"
    )


if __name__ == "__main__":
    sys.exit(main())
