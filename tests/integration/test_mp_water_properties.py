"""Property: whatever a phone does, in any order and retried any number of times, the
plan never holds a grant WeChat would refuse, and a glass is never lost or doubled.

Hypothesis drives `services.mp_water` as the API route does (a glass is `record`ed
and committed, then `settle`d in a second transaction, which may be lost in between:
a crash, a dropped answer), and the tick's events on the plan, through
`services.water`, the plan's one writer) on a real SQLite database per example.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

import services.mp_water as mpw
import services.water
from scheduler.core import water_plan as wp
from storage.database import Database, Session
from storage.engine import create_engine
from storage.schema import metadata

OPENID = "oMpProp0001"
T0 = dt.datetime(2026, 11, 25, 2, 0, tzinfo=dt.UTC)

Step = tuple[str, str, int]
STEPS = st.one_of(
    st.tuples(
        st.just("grant"), st.sampled_from(["accept", "reject", "ban", "filter"]), st.integers(0, 3)
    ),
    st.tuples(
        st.sampled_from(["glass", "lost glass"]),
        st.sampled_from(["accept", "reject", "skipped"]),
        st.integers(0, 3),
    ),
    st.tuples(st.just("plan"), st.sampled_from(["enable", "close"]), st.just(0)),
    st.tuples(st.just("send"), st.sampled_from(["accepted", "failed", "unknown"]), st.just(0)),
    st.tuples(st.just("wait"), st.just(""), st.integers(1, 200)),
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Glass:
    action_id: str
    grant_request_id: str | None
    subscription_status: str
    occurred_at: dt.datetime


class Phone:
    def __init__(self, database: Database) -> None:
        self.database, self.now = database, T0
        self.requests = [str(uuid.uuid4()) for _ in range(4)]
        self.actions = [str(uuid.uuid4()) for _ in range(4)]
        self.answers: dict[str, str] = {}
        self.recorded: set[str] = set()
        self.granted: set[str] = set()  # accepts posted to /water/grants (template checked)
        self.first: dict[str, str] = {}
        self.user_id = 0

    async def start(self) -> None:
        async with self.database.transaction() as session:
            self.user_id = await mpw.login(session, OPENID, "Asia/Shanghai", self.now)

    async def do(self, step: Step) -> None:
        kind, word, n = step
        if kind in ("glass", "lost glass"):
            await self._glass(word, n, settled=kind == "glass")
            return
        async with self.database.transaction() as session:
            if kind == "grant":
                first = self.first.setdefault(self.requests[n], word)
                if first == "accept":
                    self.granted.add(self.requests[n])  # the first answer is the one kept
                try:
                    await mpw.answer(
                        session, self.user_id, OPENID, self.requests[n], word, self.now
                    )
                except mpw.Conflict:
                    assert word != first  # another result than the first: told, nothing changed
                else:
                    assert word == first
            elif kind == "plan":
                await mpw.change_plan(session, self.user_id, word, self.now, {})
            elif kind == "send":
                await self._send(session, word)
            else:
                self.now += dt.timedelta(minutes=n)

    async def _glass(self, status: str, n: int, *, settled: bool) -> None:
        """The route's two units: `record` commits the glass; `settle` (skipped when
        the step is lost) takes it into the plan. A replay of a recorded action
        settles it then, and one already settled gets its stored answer."""
        action_id = self.actions[n]
        glass = Glass(
            action_id=action_id,
            grant_request_id=None if status == "skipped" else self.requests[n],
            subscription_status=status,
            occurred_at=self.now,
        )
        async with self.database.transaction() as session:
            # One digest per action: every send is a replay of the same request here
            # (its time moves with the clock); what another body gets is test_mp_replays'.
            stored = await mpw.record(
                session, self.user_id, OPENID, glass, self.now, digest=action_id
            )
        self.recorded.add(action_id)
        if stored:
            assert self.answers[action_id] == stored  # a replay: the same answer
            return
        if not settled:
            return
        async with self.database.transaction() as session:
            answer = await mpw.settle(session, self.user_id, OPENID, glass, self.now, "tmpl")
        assert self.answers.setdefault(action_id, answer) == answer

    async def _send(self, session: Session, outcome: str) -> None:
        """The tick: claim the grant, then the send's outcome (refused when not due)."""
        record = await services.water.ensure(session, self.user_id, self.now)
        loaded = await services.water.load(session, record)
        if isinstance(await services.water.act(session, loaded, wp.CLAIM, self.now), wp.Refused):
            return
        record = await services.water.ensure(session, self.user_id, self.now)
        loaded = await services.water.load(session, record)
        event = {"accepted": wp.ACCEPTED, "failed": wp.FAILED, "unknown": wp.UNKNOWN}[outcome]
        await services.water.act(session, loaded, event, self.now)


async def _check(engine: AsyncEngine, phone: Phone) -> None:
    async with engine.connect() as conn:
        grants = (await conn.execute(text("SELECT request_key, state FROM water_grants"))).all()
        accepted = {f"mp:{OPENID}:{rid}" for rid in phone.granted}
        glasses = (await conn.execute(text("SELECT count(*) FROM water_checkins"))).scalar_one()
    live = [key for key, state in grants if state in ("available", "reserved")]
    assert len(live) <= 1, grants
    # never a grant WeChat would refuse, nor one the grants endpoint did not take
    assert set(live) <= accepted, (live, accepted)
    assert glasses == len(phone.recorded)  # one glass per action, however often sent
    async with phone.database.transaction() as session:
        record = await services.water.ensure(session, phone.user_id, phone.now)
        await services.water.load(session, record)  # raises if the plan and grants drifted


@functools.cache
def _empty_schema() -> bytes:
    """One empty database with the schema, built once per run and copied for each
    example (building ~40 tables for each of 51 examples took most of this test)."""

    async def build(path: Path) -> None:
        engine = create_engine(f"sqlite+aiosqlite:///{path}")
        try:
            async with engine.begin() as conn:
                await conn.run_sync(metadata.create_all)
        finally:
            await engine.dispose()

    with tempfile.TemporaryDirectory() as where:
        path = Path(where) / "schema.db"
        asyncio.run(build(path))
        return path.read_bytes()


async def _run(steps: list[Step], schema: bytes) -> None:
    with tempfile.TemporaryDirectory() as where:
        path = Path(where) / "p.db"
        path.write_bytes(schema)
        engine = create_engine(f"sqlite+aiosqlite:///{path}")
        try:
            phone = Phone(Database(engine))
            await phone.start()
            for step in steps:
                await phone.do(step)
                await _check(engine, phone)
        finally:
            await engine.dispose()


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEPS, max_size=12))
@example(steps=[("plan", "enable", 0), ("plan", "close", 0), ("plan", "enable", 0)])
def test_any_sequence_keeps_grants_honest_and_glasses_single(steps: list[Step]) -> None:
    asyncio.run(_run(steps, _empty_schema()))
