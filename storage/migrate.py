"""Apply Alembic migrations programmatically, on the caller's async engine.

`keeper migrate` and the test fixtures both come through here, so the schema the
tests run against is the one the migrations build, never `metadata.create_all`.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS = Path(__file__).parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config pointing at our scripts; with `connection`, it uses that."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database to `revision` (default: the newest)."""

    def _run(connection: Connection) -> None:
        command.upgrade(alembic_config(connection), revision)

    async with engine.begin() as conn:
        await conn.run_sync(_run)


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    from alembic.runtime.migration import MigrationContext

    def _read(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as conn:
        return await conn.run_sync(_read)


async def is_current(engine: AsyncEngine) -> bool:
    """Whether the database is at the newest revision the code knows."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    return await current_revision(engine) == head


async def pending_revisions(engine: AsyncEngine) -> list[str]:
    """The revisions `upgrade` would apply, oldest first (empty when current)."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    current = await current_revision(engine)
    pending = script.iterate_revisions("heads", current)  # newest first, excludes current
    return [revision.revision for revision in reversed(list(pending))]
