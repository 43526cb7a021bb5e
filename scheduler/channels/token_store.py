"""`TokenStore` on the database: tokens shared by every keeper process.

`lock` opens a transaction and holds the app's token row locked while one process
refreshes; `load` and `save` called inside it use that same transaction (found
through a context variable), so the refresh is single-flight across processes and
coroutines alike. Outside the lock, `load` reads in a short transaction of its own.
"""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from scheduler.channels.wecom_token import CachedToken
from storage.database import Database, Session
from storage.records import TokenRow
from storage.repos import tokens
from storage.retry import retrying

_HELD: contextvars.ContextVar[Session | None] = contextvars.ContextVar("token_lock", default=None)


class DatabaseTokenStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    @asynccontextmanager
    async def lock(self, corp_id: str, agent_id: int) -> AsyncIterator[None]:
        # Getting the lock is retried like any unit of work (another process may be
        # writing); what runs while it is held is not, since it calls WeCom.
        context, session = await retrying(lambda: self._open_locked(corp_id, agent_id))
        held = _HELD.set(session)
        try:
            yield
        except BaseException as exc:
            if not await context.__aexit__(type(exc), exc, exc.__traceback__):
                raise
        else:
            await context.__aexit__(None, None, None)
        finally:
            _HELD.reset(held)

    async def _open_locked(
        self, corp_id: str, agent_id: int
    ) -> tuple[AbstractAsyncContextManager[Session], Session]:
        context = self.database.transaction()
        session = await context.__aenter__()
        try:
            await tokens.lock_row(session, corp_id, agent_id)
        except BaseException as exc:
            await context.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        return context, session

    async def load(self, corp_id: str, agent_id: int) -> CachedToken | None:
        session = _HELD.get()
        if session is not None:
            return _cached(await tokens.load(session, corp_id, agent_id))

        async def read() -> CachedToken | None:
            async with self.database.transaction() as own:
                return _cached(await tokens.load(own, corp_id, agent_id))

        return await retrying(read)

    async def save(self, corp_id: str, agent_id: int, token: CachedToken) -> None:
        session = _HELD.get()
        if session is None:
            raise RuntimeError("save the token inside lock()")
        await tokens.save(
            session,
            corp_id,
            agent_id,
            token=token.value,
            expires_at=token.expires_at,
            refreshed_at=token.fetched_at,
        )


def _cached(row: TokenRow | None) -> CachedToken | None:
    if row is None or row.expires_at is None or row.refreshed_at is None:
        return None
    return CachedToken(
        value=row.access_token, expires_at=row.expires_at, fetched_at=row.refreshed_at
    )
