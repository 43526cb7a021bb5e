"""The migrations build exactly the schema the models describe, on every engine."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from storage.migrate import alembic_config, current_revision
from storage.schema import metadata


async def test_a_migrated_database_is_at_head(engine: AsyncEngine) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    assert await current_revision(engine) == head


async def test_the_migrations_match_the_models(engine: AsyncEngine) -> None:
    def _diff(connection: Connection) -> list[object]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))

    async with engine.connect() as conn:
        diff = await conn.run_sync(_diff)
    assert diff == []
