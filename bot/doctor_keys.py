"""`keeper doctor`'s checks of the deployment's own keys (issue 22): the data key that
seals stored secrets, and the signing key of cookies and mini-program tokens.

Each is a key of its own, so rotating WECOM_SECRET or a channel's token touches
neither, and each rotates alone (KEEPER_DATA_KEY_PREVIOUS, KEEPER_WEB_SECRET_PREVIOUS;
the runbook is docs/operations.md, "Rotating a secret").

When one is missing, the fix line holds a fresh random key for the operator to
copy: the only secret `keeper doctor` ever prints, made on the spot and known to
nothing else (not a configured value: those are never shown, a key id at most).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable

from bot.doctor_checks import Check
from bot.settings import Settings
from scheduler.core.texts.channels import SERVERCHAN
from storage.vocabulary import SealKey

NAME_DATA = "data key"
NAME_SIGNING = "signing key"


def fresh_key() -> str:
    """A new random key, 256 bits as URL-safe base64 (43 characters)."""
    return secrets.token_urlsafe(32)


def _copy_line(name: str, fresh: Callable[[], str]) -> str:
    return (
        f"add `{name}={fresh()}` to keeper.env (a fresh random key, printed only now; "
        "keep a copy off this server, apart from the backups), then restart keeper"
    )


async def check_data_key(
    settings: Settings, database_ok: bool, fresh: Callable[[], str] = fresh_key
) -> Check:
    """KEEPER_DATA_KEY set, and every stored secret under it (else `keeper rekey`);
    the stored secrets are counted only when the database check passed."""
    keys = settings.key_ring()
    census: Counter[SealKey] = Counter()
    if database_ok:
        census = await _census(settings)
    waiting = census[SealKey.PREVIOUS] + census[SealKey.LEGACY]
    if keys.current is None:
        detail = (
            f"KEEPER_DATA_KEY is not set: binding a {SERVERCHAN} SendKey is refused, and those "
            f"bound before ({census[SealKey.LEGACY]}) still depend on WECOM_SECRET / KEEPER_WEB_SECRET"
        )
        fix = _copy_line("KEEPER_DATA_KEY", fresh)
        fix += ", then run `keeper rekey`" if waiting else ""
        return Check(ok=False, name=NAME_DATA, detail=detail, fix=fix)
    total = sum(census.values())
    shown = ", ".join(f"{n} {under}" for under, n in sorted(census.items()) if n)
    detail = f"KEEPER_DATA_KEY key id {keys.current.key_id}; {total} stored secret(s)"
    detail += f" ({shown})" if shown else ""
    more: tuple[str, ...] = ()
    if keys.previous is not None and not census[SealKey.PREVIOUS] and database_ok:
        more = (
            f"KEEPER_DATA_KEY_PREVIOUS (key id {keys.previous.key_id}) opens nothing now: remove it",
        )
    if census[SealKey.UNKNOWN]:
        fix = (
            "set KEEPER_DATA_KEY_PREVIOUS to the key that sealed them, or ask their users to "
            "bind again (their channel list tells them); `keeper rekey` names the user ids"
        )
        detail += f"; {census[SealKey.UNKNOWN]} open with no key here"
        return Check(ok=False, name=NAME_DATA, detail=detail, fix=fix, more=more)
    if waiting:
        fix = "keeper rekey (once every keeper process runs with these settings)"
        detail += f"; {waiting} wait for `keeper rekey`"
        return Check(ok=False, name=NAME_DATA, detail=detail, fix=fix, more=more)
    return Check(ok=True, name=NAME_DATA, detail=detail, more=more)


async def _census(settings: Settings) -> Counter[SealKey]:
    from services.rekey import census
    from storage.database import Database
    from storage.engine import opened_engine

    async with opened_engine(settings.database.url) as engine:
        return await census(Database(engine), settings.key_ring())


def check_signing_key(settings: Settings, fresh: Callable[[], str] = fresh_key) -> Check:
    """KEEPER_WEB_SECRET set: a signing key of its own, not derived from WECOM_SECRET."""
    if not settings.web.secret:
        detail = (
            "KEEPER_WEB_SECRET is not set: cookies and mini-program tokens are signed with a "
            "key derived from WECOM_SECRET, so resetting it signs everyone out"
        )
        fix = _copy_line("KEEPER_WEB_SECRET", fresh)
        return Check(ok=False, name=NAME_SIGNING, detail=detail, fix=fix)
    more: tuple[str, ...] = ()
    if settings.web.secret_previous:
        more = (
            "KEEPER_WEB_SECRET_PREVIOUS is still believed: remove it once what it signed has "
            "expired (cookies 12 h, mini-program tokens 7 days)",
        )
    detail = "KEEPER_WEB_SECRET set (cookies, mini-program tokens, link codes)"
    return Check(ok=True, name=NAME_SIGNING, detail=detail, more=more)
