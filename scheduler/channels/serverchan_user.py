"""Server酱 with the user's own SendKey: the channel of `绑定 Server酱 SCT...`.

The operator's `serverchan` channel (KEEPER_SERVERCHAN_SENDKEY) carries admin alerts
and stays as it is. This one sends each message with the SendKey of the user the
job names (`recipient` is `user:<id>`, never the key: the jobs table is plain text).
The key is looked up and opened (`resolve`) just before the call, outside any
transaction of the tick's, and lives only for that call: a one-key `ServerChanChannel`
makes the request, classifies the answer and redacts that key from its error text
exactly as the operator's channel does.

No key bound (unbound meanwhile) is a permanent failure, and so is a key that no
longer opens (its data key removed before `keeper rekey` moved it): it is this one user's
receiver, told in 设置 渠道 ("bind again"), not keeper's channel, so it must not hold
Server酱 for every other user (a `config` result would). Neither raises.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import aiohttp

from scheduler.channels.errors import Verdict
from scheduler.channels.serverchan import ServerChanChannel, ServerChanConfig
from scheduler.channels.webhook import Reply, Timeouts
from scheduler.core.channel import OutboundMessage, SendResult
from scheduler.core.redact import mask_user
from scheduler.core.texts.channels import SERVERCHAN
from storage.secret_box import Unreadable
from storage.vocabulary import AttemptOutcome, ErrorClass

__all__ = ["NO_KEY", "UNREADABLE", "UserServerChanChannel"]

log = logging.getLogger(__name__)

NO_KEY = f"no {SERVERCHAN} SendKey bound for this user"
UNREADABLE = "the bound SendKey opens with no data key here (key removed too soon?): bind it again"


class _OneKey(ServerChanChannel):
    """The operator's channel class, named as this channel in its log lines.

    What the operator's table calls a configuration error (bad key, the key's daily
    quota used up) is one user's receiver here, not keeper's channel: permanent for
    this message, so one user's typo never holds everyone's Server酱 (it still goes to
    their fallback). Only HTTP 429, keeper's own IP over the limit, stays config.
    """

    name = "serverchan_user"

    def classify(self, reply: Reply, recipient: str) -> Verdict:
        verdict = super().classify(reply, recipient)
        if verdict.rule.error_class != ErrorClass.CONFIG or verdict.signal == "http_429":
            return verdict
        return dataclasses.replace(
            verdict, rule=dataclasses.replace(verdict.rule, error_class=ErrorClass.PERMANENT)
        )


def _utc_now() -> datetime:
    return datetime.now(UTC)


class UserServerChanChannel:
    """`Channel` over Server酱 Turbo with a per-recipient SendKey (see the module note)."""

    name = "serverchan_user"

    def __init__(
        self,
        *,
        api_base: str,
        resolve: Callable[[str], Awaitable[str | None]],
        session: aiohttp.ClientSession,
        timeouts: Timeouts | None = None,
        now: Callable[[], datetime] = _utc_now,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api_base, self._resolve, self._session = api_base, resolve, session
        self._timeouts = timeouts or Timeouts()
        self._now, self._monotonic = now, monotonic

    async def send(self, recipient: str, message: OutboundMessage) -> SendResult:
        """Resolve the recipient's SendKey, then send as Server酱 with it."""
        try:
            key = await self._resolve(recipient)
        except Unreadable:
            return self._refused(UNREADABLE, recipient)
        if key is None:
            return self._refused(NO_KEY, recipient)
        config = ServerChanConfig(api_base=self.api_base, sendkey=key, timeouts=self._timeouts)
        channel = _OneKey(config, session=self._session, now=self._now, monotonic=self._monotonic)
        return await channel.send(recipient, message)

    def _refused(self, why: str, recipient: str) -> SendResult:
        log.warning(
            "%s send failed: %s",
            self.name,
            why,
            extra={"channel": self.name, "recipient": mask_user(recipient)},
        )
        return SendResult(
            outcome=AttemptOutcome.FAILED, error_class=ErrorClass.PERMANENT, error=why
        )
