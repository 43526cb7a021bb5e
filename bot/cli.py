"""The `keeper` command line: serve, migrate, chat.

Exit status 2 means "fix your configuration": a missing or malformed setting, or a
database that is not migrated; the message names what to fix, never a secret.
(`tick`, `worker` and `doctor` arrive with the delivery pipeline.)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

from aiohttp import web

from bot.settings import Settings, SettingsError, load_database_url, load_settings


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `keeper` console script; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        return int(args.run(args))
    except SettingsError as exc:
        print(f"keeper: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="keeper", description="keeper, a WeCom assistant")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the web process (WeCom callback, /healthz)")
    serve.add_argument("--host", help="listen address (default KEEPER_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="listen port (default KEEPER_PORT or 8080)")
    serve.set_defaults(run=_serve)
    migrate = sub.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(run=_migrate)
    chat = sub.add_parser("chat", help="the terminal demo against a fake WeCom")
    chat.add_argument("--db", default="keeper-demo.db", help="SQLite file (default %(default)s)")
    chat.add_argument("--user", default="demo", help="the WeCom UserID you chat as")
    chat.set_defaults(run=_chat)
    return parser


def _serve(args: argparse.Namespace) -> int:
    from bot.app import create_app
    from bot.logs import configure_logging

    settings = load_settings()
    configure_logging(settings.secrets())
    if not asyncio.run(_schema_is_current(settings)):
        print("keeper: the database schema is not current; run `keeper migrate`", file=sys.stderr)
        return 2
    host = args.host or settings.host
    port = settings.port if args.port is None else args.port
    web.run_app(create_app(settings), host=host, port=port, access_log=None, print=_announce)
    return 0


def _announce(banner: str) -> None:
    """aiohttp's "Running on ..." line, once the socket listens, as a log line."""
    logging.getLogger("keeper").info(banner.splitlines()[0].strip("= "))


async def _schema_is_current(settings: Settings) -> bool:
    from storage.engine import create_engine
    from storage.migrate import is_current

    engine = create_engine(settings.database_url)
    try:
        return await is_current(engine)
    finally:
        await engine.dispose()


def _migrate(args: argparse.Namespace) -> int:
    from storage.engine import create_engine
    from storage.migrate import current_revision, upgrade

    async def run() -> str | None:
        engine = create_engine(load_database_url())
        try:
            await upgrade(engine)
            return await current_revision(engine)
        finally:
            await engine.dispose()

    print(f"keeper: database at revision {asyncio.run(run())}")
    return 0


def _chat(args: argparse.Namespace) -> int:
    from bot.chat import run_chat

    return asyncio.run(run_chat(db_path=args.db, user=args.user))


if __name__ == "__main__":
    sys.exit(main())
