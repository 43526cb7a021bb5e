"""`keeper doctor`: the one command an operator runs after every change.

It checks, in the order a deployment is built, and prints a table of ✓ / ✗ with the
fix under each ✗: settings, admins, the database (which one, password masked, migrated
to the newest revision), the data key (set, and every stored secret sealed under it)
and the signing key (`bot.doctor_keys`: a fresh key to copy when one is missing), the
scheduler (a real tick in the last two minutes, or
KEEPER_SCHEDULER=on), the scheduled backups (off, or one verified in the last 26 h),
retention (what each pruned table keeps; a daily run in the last 50 h),
WeCom's gettoken (40013, 40001, 60020 with the outbound IP), the
app (enabled, admins inside 可见范围, 进入应用事件), and on request the public callback
URL and a test message to the admins; then the road admin alerts take (and on
request a test alert through it) and, when configured, the mini-program. A check that depends on a failed one is skipped.
Exit status 0 when every line is ✓, 1 otherwise.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import aiohttp

from bot.doctor_alerts import check_alerts
from bot.doctor_checks import (
    Check,
    check_admins,
    check_backups,
    check_database,
    check_scheduler,
    check_settings,
    database_url,
)
from bot.doctor_evidence import check_evidence, record_admin_tests
from bot.doctor_keys import check_data_key, check_signing_key
from bot.doctor_mp import check_miniprogram
from bot.doctor_retention import check_retention
from bot.doctor_wecom import check_app, check_public_url, check_send, check_token
from bot.settings import Settings
from bot.wecom_admin import WeComAdmin

NAME_WIDTH = 14


@dataclass(frozen=True, kw_only=True, slots=True)
class Options:
    """What the operator asked for beyond the standard checks."""

    public_url: str | None = None
    send_test: bool = False


async def diagnose(
    environ: Mapping[str, str] | None, options: Options, now: Callable[[], dt.datetime]
) -> list[Check]:
    """Every check, in order. `environ` None means the process environment (and .env)."""
    first, settings = check_settings(environ)
    checks = [first]
    if settings is not None:
        checks.append(check_admins(settings))
    database = await check_database(database_url(settings, environ))
    checks.append(database)
    if settings is None:
        return checks
    checks.append(await check_data_key(settings, database.ok))
    checks.append(check_signing_key(settings))
    if database.ok:
        checks.append(await check_scheduler(settings, now()))
        checks.append(await check_backups(settings, now()))
        checks.append(await check_retention(settings, now()))
        checks.append(await check_evidence(settings, now()))
    checks += await _wecom(settings, options, now)
    checks += await check_miniprogram(settings)
    return checks


async def _wecom(
    settings: Settings, options: Options, now: Callable[[], dt.datetime]
) -> list[Check]:
    async with aiohttp.ClientSession() as session:
        admin = WeComAdmin.for_settings(settings, session)
        token_check, token = await check_token(admin)
        checks = [token_check]
        if token is not None:
            checks += await check_app(admin, token, settings.operations.admins)
        if options.public_url:
            stamp = int(now().timestamp())
            checks.append(await check_public_url(settings, options.public_url, session, stamp))
        if options.send_test and token is not None and settings.operations.admins:
            sent = await check_send(admin, token, sorted(settings.operations.admins))
            if sent.ok:  # accepted: each admin's 收到 will confirm it on the phone
                await record_admin_tests(settings, sorted(settings.operations.admins), now())
            checks.append(sent)
        alerts = await check_alerts(settings, session, send_test=options.send_test)
    return checks if alerts is None else [*checks, alerts]


def _padded(name: str) -> str:
    """`name` padded to NAME_WIDTH terminal columns (a CJK character takes two)."""
    width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in name)
    return name + " " * max(0, NAME_WIDTH - width)


def render(checks: list[Check]) -> str:
    """The table: one line per check, the fix indented under each ✗."""
    lines = []
    for check in checks:
        mark = "✓" if check.ok else "✗"
        lines.append(f"{mark} {_padded(check.name)} {check.detail}")
        lines += [f"  {'':<{NAME_WIDTH}} {line}" for line in check.more]
        if not check.ok and check.fix:
            lines.append(f"  {'':<{NAME_WIDTH}} fix: {check.fix}")
    failed = sum(not c.ok for c in checks)
    lines.append("all good" if not failed else f"{failed} problem(s): fix them, then run again")
    return "\n".join(lines)


async def run(
    options: Options,
    *,
    now: Callable[[], dt.datetime],
    environ: Mapping[str, str] | None = None,
) -> tuple[int, str]:
    """The exit status (0 all ✓, 1 any ✗) and the table to print.

    `now` is the real clock in production: scheduler ticks are compared with it.
    """
    checks = await diagnose(environ, options, now)
    return (0 if all(c.ok for c in checks) else 1), render(checks)
