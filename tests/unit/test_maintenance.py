"""What the safe commands say: pure formatting of migrate's result and of a database failure."""

from __future__ import annotations

from sqlalchemy.exc import OperationalError

from bot.maintenance import Migration, database_failure

URL = "mysql+aiomysql://keeper:hunter2-db@db:3306/keeper"
MASKED = "mysql+aiomysql://keeper:***@db:3306/keeper"


def test_migrate_names_the_revisions_it_applied() -> None:
    line = Migration(applied=["0003", "0004"], revision="0004").describe(MASKED)
    assert line == f"keeper: database {MASKED}: applied 0003, 0004; now at revision 0004"


def test_migrate_on_a_current_database_says_so() -> None:
    line = Migration(applied=[], revision="0004").describe(MASKED)
    assert line == f"keeper: database {MASKED}: already current (revision 0004)"


def test_a_database_failure_is_one_line_with_the_password_masked_everywhere() -> None:
    orig = ConnectionRefusedError("refused for keeper:hunter2-db\nsecond line")
    exc = OperationalError("SELECT 1", {}, orig)
    line = database_failure(exc, URL, ("hunter2-db",))
    assert line == (
        f"keeper: database {MASKED} is unreachable or unusable: "
        "ConnectionRefusedError: refused for keeper:***"
    )
