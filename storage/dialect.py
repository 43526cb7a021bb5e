"""The few statements whose spelling differs between SQLite and MySQL/MariaDB."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import mysql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.dml import Insert


def insert_ignore(session: AsyncSession, table: Table, values: dict[str, Any]) -> Insert:
    """An INSERT that silently does nothing when a unique key already exists.

    On MySQL/MariaDB a concurrent insert of the same key waits for the other
    transaction and then does nothing, which is exactly the deduplication we want.
    """
    name = session.get_bind().dialect.name
    if name == "sqlite":
        return sqlite.insert(table).values(values).on_conflict_do_nothing()
    if name in ("mysql", "mariadb"):
        return mysql.insert(table).values(values).prefix_with("IGNORE")
    raise ValueError(f"unsupported dialect {name}")
