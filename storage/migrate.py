"""Apply Alembic migrations programmatically, on the caller's async engine.

`keeper migrate` and the test fixtures both come through here, so the schema the
tests run against is the one the migrations build, never `metadata.create_all`.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
VERSION_TABLE = "alembic_version"
"""Where Alembic keeps the revision a database is at (its default name)."""


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config pointing at our scripts; with `connection`, it uses that.

    Alembic is imported here, not at the top: loading it (with its templates and every
    dialect's DDL) costs a process about 0.3 s, and `keeper serve`, `worker` and `tick`
    only need to know the revisions (`head_revision`, `current_revision`)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database to `revision` (default: the newest)."""

    from alembic import command

    def _run(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), revision)

    async with engine.begin() as conn:
        await conn.run_sync(_run)


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None for an empty database (Alembic's
    version table read as it keeps it: one row, one column)."""

    def _read(connection: Connection) -> str | None:
        if not inspect(connection).has_table(VERSION_TABLE):
            return None
        rows = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
        return str(rows[0][0]) if len(rows) == 1 else None

    async with engine.connect() as conn:
        return await conn.run_sync(_read)


@functools.cache
def head_revision() -> str:
    """The newest revision of the scripts in `migrations/versions`: the one no other
    script names as its `down_revision` (the scripts form one line; a test checks this
    against Alembic's own `get_current_head`)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in (MIGRATIONS / "versions").glob("*.py"):
        said = script.read_text(encoding="utf-8")
        if (revision := _REVISION.search(said)) is not None:
            revisions.add(revision["id"])
        parents.update(parent["id"] for parent in _DOWN_REVISION.finditer(said))
    heads = revisions - parents
    if len(heads) != 1:
        raise RuntimeError(f"the migrations have {len(heads)} heads: {sorted(heads)}")
    return heads.pop()


_REVISION = re.compile(r"^revision(?:\s*:\s*str)?\s*=\s*[\"'](?P<id>[^\"']+)[\"']", re.MULTILINE)
_DOWN_REVISION = re.compile(
    r"^down_revision(?:\s*:[^=]+)?\s*=\s*[\"'](?P<id>[^\"']+)[\"']", re.MULTILINE
)


async def is_current(engine: AsyncEngine) -> bool:
    """Whether the database is at the newest revision the code knows."""
    return await current_revision(engine) == head_revision()


async def pending_revisions(engine: AsyncEngine) -> list[str]:
    """The revisions `upgrade` would apply, oldest first (empty when current)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    current = await current_revision(engine)
    pending = script.iterate_revisions("heads", current)  # newest first, excludes current
    return [revision.revision for revision in reversed(list(pending))]
