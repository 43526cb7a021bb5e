"""Which database errors mean "run the transaction again", and `retrying` doing so.

The classification is checked on constructed errors (a table) and on real ones (a
connection lost before and after COMMIT: `test_lost_connection.py`,
`test_database_stall.py`): a
SQLite busy error from the stdlib driver, and genuine InnoDB deadlocks (errno 1213)
produced on MariaDB by two transactions that take row locks in opposite orders,
sequenced with asyncio events so the deadlock happens every time. One of them is lost
inside `insert_unless_exists`'s savepoint (a first contact's user row is inserted so on
MariaDB), where the error that surfaces is not the deadlock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pymysql
import pytest
import sqlalchemy
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from scheduler.clock import FakeClock
from storage.database import Session
from storage.dialect import insert_unless_exists
from storage.models import INBOUND, JournalEntry, User
from storage.records import NewInbound, UserRecord
from storage.repos.records import add_journal, add_water
from storage.repos.users import ensure_and_lock_user
from storage.retry import ATTEMPTS, is_retryable, retrying

Sessions = AsyncEngine  # `async with sessionmaker.begin() as session` (a Core connection)
ON_MARIADB_ONLY = pytest.mark.parametrize(
    "database_url", [pytest.param("mariadb", marks=pytest.mark.mariadb)], indirect=True
)


def _mysql(code: int, message: str) -> OperationalError:
    return OperationalError(
        "UPDATE users SET timezone=%s", {}, pymysql.err.OperationalError(code, message)
    )


def _lost(statement: str | None) -> OperationalError:
    """A connection lost (SQLAlchemy retired it) under `statement`, or at COMMIT: None."""
    error = pymysql.err.OperationalError(2013, "Lost connection to MySQL server during query")
    return OperationalError(statement, {}, error, connection_invalidated=True)


def _sqlite(message: str) -> OperationalError:
    return OperationalError("INSERT INTO users ...", {}, sqlite3.OperationalError(message))


def _during(error: BaseException, cause: BaseException) -> BaseException:
    """`error`, as if raised while handling `cause` (its implicit context)."""
    error.__context__ = cause
    return error


SAVEPOINT_GONE = "SAVEPOINT sa_savepoint_1 does not exist"


# --- classification ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("error", "retryable"),
    [
        (_mysql(1213, "Deadlock found when trying to get lock; try restarting transaction"), True),
        (_mysql(1205, "Lock wait timeout exceeded; try restarting transaction"), True),
        (_sqlite("database is locked"), True),
        (_during(_mysql(1305, SAVEPOINT_GONE), _mysql(1213, "Deadlock found")), True),
        (_mysql(1305, SAVEPOINT_GONE), False),
        (_mysql(2013, "Lost connection to MySQL server during query"), False),
        (_lost("SELECT users.id FROM users"), True),
        (_lost(None), False),
        (_during(_mysql(1305, SAVEPOINT_GONE), _lost("INSERT INTO measurements")), True),
        (_mysql(1146, "Table 'keeper.users' doesn't exist"), False),
        (
            IntegrityError("INSERT ...", {}, pymysql.err.IntegrityError(1062, "Duplicate entry")),
            False,
        ),
        (_sqlite("no such table: users"), False),
        (
            IntegrityError("INSERT ...", {}, sqlite3.IntegrityError("UNIQUE constraint failed")),
            False,
        ),
        (ValueError("naive datetime given to a UTC column"), False),
        (RuntimeError("database is locked"), False),
        (TimeoutError(), False),
    ],
    ids=[
        "mysql-deadlock",
        "mysql-lock-wait-timeout",
        "sqlite-busy",
        "savepoint-lost-to-a-deadlock",
        "savepoint-lost-alone",
        "mysql-lost-connection-not-retired",
        "connection-lost-under-a-statement",
        "connection-lost-at-commit",
        "rollback-failed-after-a-lost-statement",
        "mysql-missing-table",
        "mysql-duplicate-key",
        "sqlite-missing-table",
        "sqlite-unique",
        "not-a-database-error",
        "busy-text-outside-a-database-error",
        "timeout",
    ],
)
def test_only_conflicts_are_classified_retryable(error: BaseException, retryable: bool) -> None:
    assert is_retryable(error) is retryable


def test_a_genuine_sqlite_busy_error_is_retryable(tmp_path: Path) -> None:
    path = tmp_path / "busy.db"
    holder = sqlite3.connect(path, isolation_level=None)
    engine = sqlalchemy.create_engine(f"sqlite:///{path}", connect_args={"timeout": 0})
    try:
        holder.execute("CREATE TABLE t (x INTEGER)")
        holder.execute("BEGIN IMMEDIATE")  # hold the write lock
        with pytest.raises(OperationalError) as busy, engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO t VALUES (1)")
    finally:
        holder.close()
        engine.dispose()

    assert "database is locked" in str(busy.value.orig)
    assert is_retryable(busy.value)


# --- retrying, with units that fail on cue -------------------------------------------


class Unit:
    """A unit of work that raises the given errors, one per call, then returns "done"."""

    def __init__(self, *errors: BaseException) -> None:
        self.errors = list(errors)
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "done"


DEADLOCK = _mysql(1213, "Deadlock found when trying to get lock; try restarting transaction")


async def test_retrying_returns_what_a_successful_unit_returns() -> None:
    unit = Unit()

    assert await retrying(unit) == "done"
    assert unit.calls == 1


async def test_retrying_reruns_a_unit_after_conflicts_until_it_succeeds() -> None:
    unit = Unit(DEADLOCK, _sqlite("database is locked"))

    assert await retrying(unit) == "done"
    assert unit.calls == 3


async def test_retrying_gives_up_after_the_last_attempt_with_the_last_error() -> None:
    last = _mysql(1205, "Lock wait timeout exceeded; try restarting transaction")
    unit = Unit(*[DEADLOCK] * (ATTEMPTS - 1), last, DEADLOCK)

    with pytest.raises(OperationalError) as raised:
        await retrying(unit)

    assert raised.value is last
    assert unit.calls == ATTEMPTS


async def test_retrying_honours_a_smaller_number_of_attempts() -> None:
    unit = Unit(DEADLOCK, DEADLOCK, DEADLOCK)

    with pytest.raises(OperationalError):
        await retrying(unit, attempts=2)

    assert unit.calls == 2


@pytest.mark.parametrize(
    "error",
    [_mysql(2013, "Lost connection"), ValueError("bug")],
    ids=["permanent-database-error", "not-a-database-error"],
)
async def test_retrying_lets_other_errors_through_at_once(error: BaseException) -> None:
    unit = Unit(error)

    with pytest.raises(type(error)) as raised:
        await retrying(unit)

    assert raised.value is error
    assert unit.calls == 1


# --- real deadlocks on MariaDB -------------------------------------------------------


async def _user(sessionmaker: Sessions, clock: FakeClock, name: str) -> UserRecord:
    async with sessionmaker.begin() as session:
        return await ensure_and_lock_user(session, name, timezone="UTC", now=clock.now())


async def _users(sessionmaker: Sessions, clock: FakeClock, *names: str) -> list[int]:
    return [(await _user(sessionmaker, clock, name)).id for name in names]


async def _lock_user_row(session: Session, user_id: int) -> None:
    await session.execute(select(User.id).where(User.id == user_id).with_for_update())


def _crossing_units(
    sessionmaker: Sessions, clock: FakeClock, alice: int, bob: int
) -> tuple[dict[str, int], Callable[[str], Callable[[], Awaitable[str]]]]:
    """Two units that lock alice and bob in opposite orders, both first locks taken
    before either asks for its second: InnoDB must abort one of them (errno 1213)."""
    order = {"ab": (alice, bob), "ba": (bob, alice)}
    holding = {name: asyncio.Event() for name in order}
    calls = dict.fromkeys(order, 0)

    def unit(name: str) -> Callable[[], Awaitable[str]]:
        other = "ba" if name == "ab" else "ab"

        async def run() -> str:
            calls[name] += 1
            first, second = order[name]
            async with sessionmaker.begin() as session:
                await _lock_user_row(session, first)
                await add_journal(
                    session, user_id=first, text=name, occurred_at=clock.now(), source_key=name
                )
                holding[name].set()
                await holding[other].wait()  # already set on a re-run
                await _lock_user_row(session, second)
            return name

        return run

    return calls, unit


@ON_MARIADB_ONLY
async def test_two_transactions_locking_rows_in_opposite_orders_deadlock_retryably(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    alice, bob = await _users(sessionmaker, clock, "alice", "bob")
    _, unit = _crossing_units(sessionmaker, clock, alice, bob)

    results = await asyncio.gather(unit("ab")(), unit("ba")(), return_exceptions=True)

    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1
    (victim,) = errors
    assert isinstance(victim, OperationalError)
    assert victim.orig is not None
    assert victim.orig.args[0] == 1213
    assert is_retryable(victim)
    async with sessionmaker.begin() as session:
        kept = (await session.execute(select(JournalEntry.text))).scalars().all()
    assert kept == [r for r in results if isinstance(r, str)]  # the victim wrote nothing


@ON_MARIADB_ONLY
async def test_retrying_reruns_the_victim_of_a_real_deadlock_until_both_commit(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    alice, bob = await _users(sessionmaker, clock, "alice", "bob")
    calls, unit = _crossing_units(sessionmaker, clock, alice, bob)

    results = await asyncio.gather(retrying(unit("ab")), retrying(unit("ba")))

    assert results == ["ab", "ba"]
    assert sorted(calls.values()) == [1, 2]  # the victim ran twice, the survivor once
    async with sessionmaker.begin() as session:
        kept = (await session.execute(select(JournalEntry.text))).scalars().all()
    assert sorted(kept) == ["ab", "ba"]  # each unit's write committed exactly once


def _inbound(user: UserRecord, key: str, at: dt.datetime) -> NewInbound:
    return NewInbound(
        dedup_key=key,
        wecom_user_id=user.wecom_user_id,
        user_id=user.id,
        kind="text",
        content="喝水",
        sent_at=at,
        received_at=at,
    )


async def _claim(session: Session, msg: NewInbound) -> int | None:
    """Insert the message's row unless its key is there (its id, or None)."""
    return await insert_unless_exists(session, INBOUND, dataclasses.asdict(msg))


def _claim_crossing_units(
    sessionmaker: Sessions, clock: FakeClock, alice: UserRecord, bob: UserRecord
) -> tuple[
    dict[str, int], Callable[[], Awaitable[int | None]], Callable[[], Awaitable[int | None]]
]:
    """A deadlock whose victim is waiting inside `insert_unless_exists`'s savepoint.

    `late` locks alice, then inserts key K unless it exists, and waits there for
    `early`, which inserted K first and now wants alice. `early` has written more rows,
    so InnoDB rolls back `late`: the savepoint goes with it.
    """
    early_claimed, late_locked = asyncio.Event(), asyncio.Event()
    calls = {"early": 0, "late": 0}

    async def early() -> int | None:
        calls["early"] += 1
        async with sessionmaker.begin() as session:
            for n in range(10):  # weight: the deadlock's victim is the lighter one
                await add_water(
                    session, user_id=bob.id, glasses=1, occurred_at=clock.now(), source_key=f"w{n}"
                )
            claimed = await _claim(session, _inbound(bob, "K", clock.now()))
            early_claimed.set()
            await late_locked.wait()
            await ensure_and_lock_user(session, "alice", timezone="UTC", now=clock.now())
        return claimed

    async def late() -> int | None:
        calls["late"] += 1
        await early_claimed.wait()
        async with sessionmaker.begin() as session:
            await ensure_and_lock_user(session, "alice", timezone="UTC", now=clock.now())
            late_locked.set()
            return await _claim(session, _inbound(alice, "K", clock.now()))

    return calls, early, late


def _chain(exc: BaseException | None) -> list[int]:
    codes = []
    while exc is not None:
        if isinstance(exc, OperationalError) and exc.orig is not None:
            codes.append(exc.orig.args[0])
        exc = exc.__cause__ or exc.__context__
    return codes


@ON_MARIADB_ONLY
async def test_a_deadlock_inside_a_savepoint_is_still_classified_retryable(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    alice = await _user(sessionmaker, clock, "alice")
    bob = await _user(sessionmaker, clock, "bob")
    _, early, late = _claim_crossing_units(sessionmaker, clock, alice, bob)

    claimed, victim = await asyncio.gather(early(), late(), return_exceptions=True)

    assert isinstance(claimed, int)
    assert isinstance(victim, OperationalError)
    # The deadlock took the savepoint with it; what surfaces is the failed
    # ROLLBACK TO SAVEPOINT (1305), raised while handling the deadlock (1213).
    assert 1213 in _chain(victim)
    assert is_retryable(victim)


@ON_MARIADB_ONLY
async def test_retrying_reruns_a_claim_that_lost_a_deadlock_and_it_then_sees_the_duplicate(
    sessionmaker: Sessions, clock: FakeClock
) -> None:
    alice = await _user(sessionmaker, clock, "alice")
    bob = await _user(sessionmaker, clock, "bob")
    calls, early, late = _claim_crossing_units(sessionmaker, clock, alice, bob)

    claimed, duplicate = await asyncio.gather(retrying(early), retrying(late))

    assert calls == {"early": 1, "late": 2}
    assert isinstance(claimed, int)
    assert duplicate is None  # the re-run finds K already claimed: one claim in all
