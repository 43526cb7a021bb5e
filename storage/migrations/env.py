"""Alembic environment: runs on a connection handed in by `storage.migrate`.

For `alembic revision --autogenerate` by hand, pass a URL:
`alembic -c storage/alembic.ini -x url=sqlite:///keeper.db revision --autogenerate -m "..."`.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from storage.schema import metadata

target_metadata = metadata


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=True,  # SQLite needs batch mode to alter tables
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("pass -x url=<sync SQLAlchemy URL>, or run `keeper migrate`")
    with create_engine(url).connect() as conn:
        _run(conn)
        conn.commit()


run_migrations_online()
