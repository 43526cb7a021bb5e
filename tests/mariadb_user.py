"""A MariaDB database with a user of its own, as deploy/compose.yaml's `db` makes it:
keeper is given the user's name in the URL and its password only through
KEEPER_DATABASE_PASSWORD_FILE."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator

from sqlalchemy.engine import make_url

from storage.engine import create_engine
from tests.conftest import MYSQL_URL, _drop_mysql_database, _fresh_mysql_database


@contextlib.asynccontextmanager
async def database_of_its_own_user(password: str) -> AsyncIterator[str]:
    """A fresh (unmigrated) database and a user with `password` and every right on it;
    yields the database's URL naming that user, with no password in it. The user and
    the database are dropped afterwards. Skips (or fails under
    KEEPER_REQUIRE_MARIADB=1) when MariaDB is unreachable, as every MariaDB test does."""
    url = await _fresh_mysql_database()
    user = f"k_{uuid.uuid4().hex[:10]}"
    admin = create_engine(MYSQL_URL)
    async with admin.begin() as conn:
        await conn.exec_driver_sql(f"CREATE USER '{user}'@'%%' IDENTIFIED BY '{password}'")
        await conn.exec_driver_sql(f"GRANT ALL ON {make_url(url).database}.* TO '{user}'@'%%'")
    try:
        yield make_url(url).set(username=user, password=None).render_as_string(False)
    finally:
        async with admin.begin() as conn:
            await conn.exec_driver_sql(f"DROP USER IF EXISTS '{user}'@'%%'")
        await admin.dispose()
        await _drop_mysql_database(url)
