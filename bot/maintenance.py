"""The database side of the safe commands: what `migrate` applied, whether `tick --at`
may run, and a database failure as one line an operator can act on.

Every function here opens and disposes its own engine; the CLI calls them through
`asyncio.run`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError

from bot.settings import mask_database_url
from scheduler.core.redact import redact

TEST_TICK_PREFIX = "tick-at:"
"""`keeper tick --at` names its heartbeat with this, so it is never taken for a real one."""
REAL_TICK_GUARD = dt.timedelta(hours=24)
REASON_MAX_CHARS = 200


@dataclass(frozen=True, kw_only=True, slots=True)
class Migration:
    """What `keeper migrate` did: the revisions applied (oldest first) and where it is."""

    applied: list[str]
    revision: str | None

    def describe(self, masked_url: str) -> str:
        """One line for the operator, naming the database without its password."""
        if not self.applied:
            return f"keeper: database {masked_url}: already current (revision {self.revision})"
        done = ", ".join(self.applied)
        return f"keeper: database {masked_url}: applied {done}; now at revision {self.revision}"


async def migrate(url: str) -> Migration:
    """Apply every pending migration to the database at `url`."""
    from storage.engine import opened_engine
    from storage.migrate import current_revision, pending_revisions, upgrade

    async with opened_engine(url) as engine:
        applied = await pending_revisions(engine)
        if applied:
            await upgrade(engine)
        return Migration(applied=applied, revision=await current_revision(engine))


async def real_tick_since(url: str, since: dt.datetime) -> tuple[str, dt.datetime] | None:
    """The newest heartbeat of a real scheduler (not `tick --at`) at or after `since`."""
    from storage.database import Database
    from storage.engine import opened_engine
    from storage.repos import ticks

    async with opened_engine(url) as engine, Database(engine).transaction() as session:
        return await ticks.last_tick_of_real_schedulers(
            session, since=since, test_prefix=TEST_TICK_PREFIX
        )


def database_failure(exc: BaseException, url: str, secrets: tuple[str, ...] = ()) -> str:
    """`exc` (a driver error or an OSError) as one line: which database, what went wrong.

    The URL's password is masked, and any secret found in the driver's text is cut out.
    """
    orig = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    # Redact before cutting (scheduler.core.redact): a cut first could leave half a secret.
    first_line = (str(orig).splitlines() or [""])[0]
    reason = redact(first_line, secrets, max_length=REASON_MAX_CHARS)
    return (
        f"keeper: database {mask_database_url(url)} is unreachable or unusable: "
        f"{type(orig).__name__}: {reason}"
    )
