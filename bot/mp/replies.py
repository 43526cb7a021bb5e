"""How the mini-program API reads and answers: a JSON body, the error shape and its
status table, and the guard every route wears (contract: `bot.mp.routes`)."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot import keys, metrics
from bot.mp import validate
from bot.mp.limits import Refused
from handlers import texts

log = logging.getLogger(__name__)
Route = Callable[[web.Request], Awaitable[web.StreamResponse]]
STATUS: dict[str, int] = {
    "bad_request": 400,
    "link_code_invalid": 400,
    "invalid_code": 401,
    "unauthorized": 401,
    "code_blocked": 403,
    "not_found": 404,
    "already_linked": 409,
    "conflict": 409,
    "unsupported_media_type": 415,
    "occurred_at_out_of_range": 422,
    "rate_limited": 429,
    "server_error": 500,
    "wechat_unavailable": 502,
    "not_configured": 503,
}


def error(code: str, message: str = "") -> web.Response:
    """The contract's error: its status, `{"error": code, "message": sentence}`."""
    body = {"error": code, "message": message or texts.MP_MESSAGES[code]}
    return web.json_response(body, status=STATUS[code], dumps=dumps)


def conflict(answer: str) -> web.Response:
    """409 `conflict`: the same id came back with another body; `answer` (JSON text) is
    what the first one was answered, under the key "answer"."""
    body = {
        "error": "conflict",
        "message": texts.MP_MESSAGES["conflict"],
        "answer": json.loads(answer),
    }
    return web.json_response(body, status=STATUS["conflict"], dumps=dumps)


def too_many(refused: Refused) -> web.Response:
    """429 `rate_limited` with `Retry-After`, counted by the limit that refused."""
    metrics.MP_RATE_LIMITED.labels(refused.limit).inc()
    response = error("rate_limited")
    response.headers["Retry-After"] = str(refused.retry_after)
    return response


def dumps(value: object) -> str:
    """JSON with Chinese as is (the messages are read by people)."""
    return json.dumps(value, ensure_ascii=False)


def json_text(text: str) -> web.Response:
    """A 200 whose body is JSON text already (a stored answer, a status)."""
    return web.Response(text=text, content_type="application/json")


def guarded(route: Route) -> Route:
    """Not configured -> 503; a `Bad` -> its error; anything else -> 500, logged."""

    async def wrapper(request: web.Request) -> web.StreamResponse:
        if not request.app[keys.SETTINGS].mp.configured:
            return error("not_configured")
        try:
            return await route(request)
        except validate.Bad as bad:
            return error(bad.code, bad.message)
        except Exception:
            log.exception("mini-program API failed on %s", request.path)
            return error("server_error")

    return wrapper


async def body(request: web.Request) -> object:
    """The request's JSON value, or a `Bad`. Decoded as UTF-8 whatever `charset` says
    (RFC 8259: JSON is UTF-8; an unknown charset must not become a 500). Deep nesting
    stops the parser with a RecursionError: a refusal like any other bad body."""
    if request.content_type != "application/json":
        raise validate.Bad("unsupported_media_type")
    try:
        return json.loads((await request.read()).decode("utf-8"))
    except (ValueError, RecursionError, web.HTTPRequestEntityTooLarge):  # over 64 KiB
        raise validate.Bad("bad_request") from None
