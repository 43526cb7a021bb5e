"""`keeper rekey`: every stored secret re-sealed under the current data key (issue 22).

A rotation of KEEPER_DATA_KEY (or the upgrade from the keys derived from
KEEPER_WEB_SECRET / WECOM_SECRET) ends here: once `rekey` reports nothing left under
another key, KEEPER_DATA_KEY_PREVIOUS (or the old secret) is needed by no stored
value any more. `census` counts the same values for `keeper doctor`.

Safe to run twice and while keeper serves and sends:

- A value already under the current key (its header names the key id) is skipped
  without being opened, so a second run re-seals nothing and reports 0.
- Each value is re-sealed in a transaction of its own, written by compare-and-set on
  the old sealed text (`user_channels.replace_sealed`): a user who binds again or
  unbinds meanwhile keeps what they did, and two runs at once write each row once.
- A sender reads and opens the value just before each send
  (`scheduler.routing.sendkey_resolver`) under the same key ring, so it opens the
  old value or the new one, whichever it reads. Every process must run with the new
  KEEPER_DATA_KEY (and the old one as _PREVIOUS) before `rekey` starts: a process
  still on the old settings cannot open what `rekey` wrote (the runbook in
  docs/operations.md says so).

A value no key here opens is counted and left as it is (its user binds again);
nothing is ever deleted. Neither a key nor a plaintext leaves this module: the report
holds counts, user ids and key ids.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scheduler.core.fallback import SERVERCHAN_USER
from storage.database import Database
from storage.repos import user_channels
from storage.retry import retrying
from storage.secret_box import (
    KeyRing,
    NoDataKey,
    Unreadable,
    open_secret,
    seal_secret,
    sealed_under,
)
from storage.vocabulary import SealKey

__all__ = ["SEALED_CHANNELS", "RekeyReport", "census", "rekey"]

SEALED_CHANNELS = (SERVERCHAN_USER,)
"""The channels whose `user_channels.receiver` is sealed: every stored secret keeper has."""
PAGE = 500


@dataclass(frozen=True, kw_only=True, slots=True)
class RekeyReport:
    """What one run did."""

    key_id: str
    """The current data key's id, which every value re-sealed now names."""
    resealed: int = 0
    already: int = 0
    """Under the current key before the run: left alone."""
    changed: int = 0
    """Rebound or unbound while the run read them: left as the user made them."""
    unreadable: tuple[int, ...] = ()
    """User ids whose value no key here opens (they bind again)."""

    def describe(self) -> str:
        """One line for the operator: counts and the key id, never a secret."""
        line = (
            f"re-sealed {self.resealed} stored secret(s) under KEEPER_DATA_KEY "
            f"(key id {self.key_id}); {self.already} already were"
        )
        if self.changed:
            line += f"; {self.changed} changed by their user meanwhile (left as they are)"
        if self.unreadable:
            users = ", ".join(str(u) for u in self.unreadable)
            line += (
                f"; {len(self.unreadable)} open with no key here (user id {users}: "
                "they must bind again, or set KEEPER_DATA_KEY_PREVIOUS to the key that sealed them)"
            )
        return line


async def _rows(database: Database) -> list[tuple[str, int, int, str]]:
    """(channel, row id, user id, sealed value) of every stored secret, a page at a time."""
    found: list[tuple[str, int, int, str]] = []
    for channel in SEALED_CHANNELS:
        after = 0
        while True:
            async with database.transaction() as session:
                page = await user_channels.sealed_after(session, channel, after, PAGE)
            found += [(channel, row_id, user, sealed) for row_id, user, sealed in page if sealed]
            if len(page) < PAGE:
                break
            after = page[-1][0]
    return found


async def rekey(database: Database, keys: KeyRing) -> RekeyReport:
    """Re-seal every stored secret not under the current key (see the module note).

    Raises:
        NoDataKey: KEEPER_DATA_KEY is not set.
    """
    if keys.current is None:
        raise NoDataKey("KEEPER_DATA_KEY is not set: there is no key to re-seal under")
    counts: Counter[str] = Counter()
    unreadable: list[int] = []
    for channel, row_id, user_id, sealed in await _rows(database):
        if sealed_under(keys, sealed) == SealKey.CURRENT:
            counts["already"] += 1
            continue
        try:
            plain = open_secret(keys, sealed, user_id=user_id, channel=channel)
        except Unreadable:
            unreadable.append(user_id)
            continue
        fresh = seal_secret(keys, plain, user_id=user_id, channel=channel)

        async def write(row_id: int = row_id, old: str = sealed, new: str = fresh) -> bool:
            async with database.transaction() as session:
                return await user_channels.replace_sealed(session, row_id, old=old, new=new)

        counts["resealed" if await retrying(write) else "changed"] += 1
    return RekeyReport(
        key_id=keys.current.key_id,
        resealed=counts["resealed"],
        already=counts["already"],
        changed=counts["changed"],
        unreadable=tuple(unreadable),
    )


async def census(database: Database, keys: KeyRing) -> Counter[SealKey]:
    """How many stored secrets each key holds: `CURRENT`, `PREVIOUS` and `LEGACY` (open
    with that key: `rekey` would move them), `UNKNOWN` (no key here opens them)."""
    found: Counter[SealKey] = Counter()
    for channel, _, user_id, sealed in await _rows(database):
        under = sealed_under(keys, sealed)
        if under in (SealKey.PREVIOUS, SealKey.LEGACY):
            try:
                open_secret(keys, sealed, user_id=user_id, channel=channel)
            except Unreadable:
                under = SealKey.UNKNOWN
        found[under] += 1
    return found
