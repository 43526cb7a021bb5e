"""The WeCom callback endpoint: verify -> decrypt -> read -> handle -> encrypt.

Every bad input gets a precise status and changes nothing: a missing parameter or a
malformed body -> 400, a body over the limit -> 413, a bad signature, a stale
timestamp or a foreign receive id -> 403. Trouble while handling a good message
(the database is down, a bug) is answered with an encrypted apology and a 200, so
WeCom does not retry a request that cannot succeed and the user is told plainly.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from sqlalchemy.exc import DBAPIError

from bot import keys, metrics
from bot.crypto import (
    BadCiphertext,
    BadSignature,
    CryptoError,
    EnvelopeTooLarge,
    ForeignReceiveId,
    MalformedEnvelope,
    parse_envelope,
)
from bot.incoming import Incoming, MalformedMessage, loggable_key, read_message
from bot.passive_reply import fit_reply, reply_xml
from handlers import texts
from scheduler.core.redact import mask_user
from storage.database import CommitWatch

log = logging.getLogger(__name__)
QUERY = ("msg_signature", "timestamp", "nonce")
CALLBACK_PATH = "/wecom/callback"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _query(request: web.Request, *names: str) -> dict[str, str]:
    values = {name: request.query.get(name, "") for name in names}
    missing = [name for name, value in values.items() if not value]
    if missing:
        raise web.HTTPBadRequest(text=f"missing query parameter: {missing[0]}")
    return values


def _check_fresh(request: web.Request, timestamp: str) -> None:
    """Refuse replays: the signed timestamp must be within the configured window."""
    settings = request.app[keys.SETTINGS]
    now = request.app[keys.CLOCK].now().timestamp()
    # ASCII digits only: str.isdigit() also takes "²" and "١", which int() refuses or reads.
    if not (timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= 12):
        raise web.HTTPForbidden(text="stale or invalid timestamp")
    if abs(now - int(timestamp)) > settings.wecom.callback_window_seconds:
        raise web.HTTPForbidden(text="stale or invalid timestamp")


def _crypto_error(exc: CryptoError) -> web.HTTPException:
    if isinstance(exc, EnvelopeTooLarge):
        return web.HTTPRequestEntityTooLarge(max_size=0, actual_size=0, text="body too large")
    if isinstance(exc, BadSignature | ForeignReceiveId):
        return web.HTTPForbidden(text="signature or receive id rejected")
    if isinstance(exc, BadCiphertext | MalformedEnvelope):
        return web.HTTPBadRequest(text="malformed message")
    return web.HTTPBadRequest(text="malformed message")


@web.middleware
async def log_rejections(request: web.Request, handler: Handler) -> web.StreamResponse:
    """One warning line per refused callback, with the status and the reason given."""
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if request.path == CALLBACK_PATH and exc.status >= 400:
            metrics.CALLBACKS.labels("rejected").inc()
            log.warning(
                "callback rejected",
                extra={"status": exc.status, "reason": exc.text, "method": request.method},
            )
        raise


async def verify_url(request: web.Request) -> web.Response:
    """GET: WeCom checks the URL; answer the decrypted echostr as plain text."""
    q = _query(request, *QUERY, "echostr")
    _check_fresh(request, q["timestamp"])
    crypto = request.app[keys.CRYPTO]
    try:
        echo = crypto.verify_url(q["msg_signature"], q["timestamp"], q["nonce"], q["echostr"])
    except CryptoError as exc:
        raise _crypto_error(exc) from None
    log.info("callback URL verified")
    return web.Response(text=echo)


async def receive(request: web.Request) -> web.Response:
    """POST: one message or event; answer with an encrypted passive reply or empty 200."""
    q = _query(request, *QUERY)
    _check_fresh(request, q["timestamp"])
    body = await request.read()  # over client_max_size -> 413 from aiohttp
    crypto = request.app[keys.CRYPTO]
    try:
        envelope = parse_envelope(body)
        crypto.verify(q["msg_signature"], q["timestamp"], q["nonce"], envelope.encrypt)
        msg = read_message(crypto.decrypt(envelope.encrypt))
    except CryptoError as exc:
        raise _crypto_error(exc) from None
    except MalformedMessage:
        raise web.HTTPBadRequest(text="malformed message") from None
    started = time.perf_counter()
    reply, outcome = await _answer(request, msg)
    metrics.CALLBACKS.labels(outcome).inc()
    metrics.CALLBACK_SECONDS.observe(time.perf_counter() - started)
    log.info(
        "message handled",
        extra={
            "dedup_key": loggable_key(msg),
            "user": mask_user(msg.from_user),
            "kind": msg.event or msg.msg_type,
            "replied": bool(reply),
            "duration_ms": round((time.perf_counter() - started) * 1000, 1),
        },
    )
    if not reply:
        return web.Response(text="")
    return _encrypted(request, msg, reply)


async def _answer(request: web.Request, msg: Incoming) -> tuple[str, str]:
    """The reply, within `REPLY_DEADLINE_S` whatever the database does.

    The handling runs as a task of its own: past the deadline it is cancelled (its
    transaction closes its connection, so nothing half-done is committed) and left to
    finish in the background, while WeCom gets an honest answer now. Before COMMIT was
    sent nothing was recorded; after it, we cannot know, and say so.
    """
    watch = CommitWatch()
    task = asyncio.create_task(_handle(request, msg, watch))
    done, _ = await asyncio.wait({task}, timeout=request.app[keys.REPLY_DEADLINE_S])
    if task in done:
        return task.result()
    task.cancel()
    background = request.app[keys.BACKGROUND]
    background.add(task)
    task.add_done_callback(background.discard)
    maybe = watch.commit_sent
    log.warning(
        "message handling passed its deadline",
        extra={"dedup_key": loggable_key(msg), "commit_sent": maybe},
    )
    return (texts.MAYBE_RECORDED if maybe else texts.STORAGE_SLOW), "deadline"


async def _handle(request: web.Request, msg: Incoming, watch: CommitWatch) -> tuple[str, str]:
    conversation = request.app[keys.CONVERSATION]
    now = request.app[keys.CLOCK].now()
    try:
        return await conversation.handle(msg, now=now, watch=watch), "ok"
    except DBAPIError:
        log.exception(
            "database error while handling a message", extra={"dedup_key": loggable_key(msg)}
        )
        # Lost after COMMIT was sent (the server may have applied it): say so, never
        # "not recorded" for what may be a record.
        return (texts.MAYBE_RECORDED if watch.commit_sent else texts.STORAGE_DOWN), "error"
    except Exception:
        log.exception("error while handling a message", extra={"dedup_key": loggable_key(msg)})
        return texts.INTERNAL_ERROR, "error"


def _encrypted(request: web.Request, msg: Incoming, reply: str) -> web.Response:
    settings = request.app[keys.SETTINGS]
    now = int(request.app[keys.CLOCK].now().timestamp())
    plain = reply_xml(
        to_user=msg.from_user,
        from_corp=settings.wecom.corp_id,
        create_time=now,
        text=fit_reply(reply, note=texts.REPLY_CUT),
    )
    body = request.app[keys.CRYPTO].encrypt_reply(
        plain, timestamp=str(now), nonce=str(secrets.randbelow(10**10))
    )
    return web.Response(text=body, content_type="application/xml")
