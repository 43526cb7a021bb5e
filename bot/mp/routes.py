"""The water mini-program's HTTP API: thin routes over `services.mp_water`.

The contract, as implemented (shared with the client in `miniprogram/`):

Base path `/api/mp/v1`, on the `keeper serve` app. JSON in, JSON out, UTF-8. Every
error: HTTP 4xx/5xx with `{"error": "<snake_case_code>", "message": "<短句>"}`
(sentences in `handlers.texts.miniprogram`). A body is read only as `Content-Type:
application/json` (any other type: 415 `unsupported_media_type`, before it is read);
JSON that is not UTF-8, not JSON, nested past what the parser takes, or over 64 KiB
is 400 `bad_request`.

- `POST /login {"js_code"}` -> 200 `{"token", "expires_at"}` (ISO 8601 with offset;
  the token lasts 7 days, `bot.mp.auth`). Errors: missing/empty js_code 400
  `bad_request`; keeper's own limits (10 a minute per client address, 60 a minute in
  all: `bot.mp.limits`) 429 `rate_limited` with `Retry-After`, before WeChat is
  asked; WeChat 40029 401 `invalid_code`; 45011 429 `rate_limited`; 40226 403
  `code_blocked`; -1, 5xx, timeout, malformed 502 `wechat_unavailable`;
  KEEPER_MP_APPID/SECRET unset 503 `not_configured` (every endpoint says so then).
- Every other endpoint needs `Authorization: Bearer <token>`; missing, malformed, bad
  signature or expired -> 401 `unauthorized`.
- `GET /water` -> 200 status `{"state", "needs_grant", "next_due_at", "today_count",
  "daily_goal", "interval_minutes", "wake", "sleep", "template_id"}`.
- `POST /water/grants {"request_id", "template_id", "result"}` -> 200 status; unique
  on (openid, request_id): a retry changes nothing and gets the current status; the
  same request_id with another result changes nothing and is 409 `conflict`, its
  `answer` the current status. Wrong template_id or result 400 `bad_request`.
- `POST /water/actions {"action_id", "grant_request_id", "subscription_status",
  "occurred_at", "current_count", "daily_goal"}` -> 200 status; unique on
  action_id: a replay changes nothing and gets the same answer (the stored one); the
  same action_id with any other field (the time compared as an instant) changes
  nothing and is 409 `conflict`, its `answer` the stored one.
  `occurred_at` > 10 min ahead or > 48 h behind: 422 `occurred_at_out_of_range`;
  malformed 400 `bad_request`. One action is one glass; `current_count` and
  `daily_goal` are the client's view, checked (0..1000) but not stored: the goal
  changes through `/water/plan`, the count is the server's `today_count`.
- `POST /water/plan {"action": "enable|close|update", "interval_minutes"?,
  "wake"?, "sleep"?, "daily_goal"?}` -> 200 status; invalid values 400
  `bad_request` with the chat's own hint as the message. `wake` and `sleep` come
  together.

Extensions of the shared contract (this module adds them):

- `POST /link {"code": "123456"}` -> 200 status of the linked member's plan. The
  code comes from `绑定 小程序` in chat (6 digits, 10 minutes, single use). Errors:
  a wrong, used or expired code 400 `link_code_invalid` (five wrong tries in an
  hour: 429 `rate_limited`; 30 wrong tries an hour from all openids together: 429
  `rate_limited` with `Retry-After`, `bot.mp.limits`); the openid already linked 409
  `already_linked`. The
  same token keeps working: a token names the openid, and the user it acts as is
  read on every request.
- Any other path or method under the base: 404 `not_found`; any other failure: 500
  `server_error`, never a stack trace.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import aiohttp
from aiohttp import web

import services.mp_water as mpw
from bot import keys, metrics
from bot.forwarded import client_address
from bot.mp import auth, validate
from bot.mp.limits import MpLimits
from bot.mp.replies import body, conflict, error, guarded, json_text, too_many
from bot.mp.wechat import code2session
from services import mp_link
from storage.database import Session
from storage.repos import mp
from storage.retry import retrying

BASE = "/api/mp/v1"
HTTP = web.AppKey("mp_http", aiohttp.ClientSession)
"""The client session that calls WeChat's code2Session."""
LIMITS = web.AppKey("mp_limits", MpLimits)
"""keeper's own rate limits on `/login` and `/link` (`bot.mp.limits`)."""


def _session(request: web.Request) -> auth.MpSession:
    settings = request.app[keys.SETTINGS]
    key = auth.token_key(settings.web_key())
    previous = [auth.token_key(k) for k in settings.previous_web_keys()]
    token = auth.bearer(request.headers.get("Authorization"))
    found = auth.verify(key, token, request.app[keys.CLOCK].now(), previous=previous)
    if found is None:
        raise validate.Bad("unauthorized")
    return found


async def _user(session: Session, who: auth.MpSession) -> int:
    """The user the openid acts as now, its row locked. The identity row is locked
    first (FOR UPDATE on MariaDB), so a request racing a `/link` waits for it and then
    reads the identity as the link left it: a glass lands on the user it names after
    the link, never on the one before. Every API request takes identity then user."""
    identity = await mp.identity(session, who.openid, lock=True)
    if identity is None:
        raise validate.Bad("unauthorized")
    await mp.lock_user(session, identity.user_id)
    return identity.user_id


@guarded
async def login(request: web.Request) -> web.StreamResponse:
    settings, now = request.app[keys.SETTINGS], request.app[keys.CLOCK].now()
    js_code = validate.js_code(await body(request))
    address = client_address(
        request.remote, request.headers.getall("X-Forwarded-For", []), settings.web.trusted_proxies
    )
    if refused := request.app[LIMITS].login(address, now):
        return too_many(refused)
    openid, failure = await code2session(
        request.app[HTTP],
        api_base=settings.mp.api_base,
        appid=settings.mp.appid,
        secret=settings.mp.secret,
        js_code=js_code,
    )
    if openid is None:
        return error(failure or "wechat_unavailable")

    async def unit() -> int:
        async with request.app[keys.DATABASE].transaction() as session:
            return await mpw.login(session, openid, settings.operations.timezone.key, now)

    user_id = await retrying(unit)
    token, expires = auth.issue(auth.token_key(settings.web_key()), user_id, openid, now)
    local = expires.astimezone(settings.operations.timezone).isoformat()
    return web.json_response({"token": token, "expires_at": local})


async def _status(request: web.Request, session: Session, user_id: int) -> web.Response:
    return json_text(await _status_json(request, session, user_id))


async def _status_json(request: web.Request, session: Session, user_id: int) -> str:
    now, template = request.app[keys.CLOCK].now(), request.app[keys.SETTINGS].mp.template_id
    return (await mpw.status(session, user_id, now, template)).as_json()


Work = Callable[[Session, int], Awaitable[web.Response]]


async def _as_user(request: web.Request, who: auth.MpSession, work: Work) -> web.Response:
    """`work` in one transaction, as the user the openid acts as (row locked), retried
    on a deadlock or a busy database like every unit of work; what it answers."""

    async def unit() -> web.Response:
        async with request.app[keys.DATABASE].transaction() as session:
            return await work(session, await _user(session, who))

    return await retrying(unit)


@guarded
async def get_water(request: web.Request) -> web.StreamResponse:
    return await _as_user(request, _session(request), lambda s, u: _status(request, s, u))


@guarded
async def post_grant(request: web.Request) -> web.StreamResponse:
    who = _session(request)
    settings, now = request.app[keys.SETTINGS], request.app[keys.CLOCK].now()
    answer = validate.grant(await body(request), settings.mp.template_id)

    async def work(session: Session, user_id: int) -> web.Response:
        try:
            await mpw.answer(session, user_id, who.openid, answer.request_id, answer.result, now)
        except mpw.Conflict:
            return conflict(await _status_json(request, session, user_id))
        return await _status(request, session, user_id)

    return await _as_user(request, who, work)


@guarded
async def post_action(request: web.Request) -> web.StreamResponse:
    who = _session(request)
    settings, now = request.app[keys.SETTINGS], request.app[keys.CLOCK].now()
    action = validate.action(await body(request))
    digest = validate.digest(action)

    async def glass(session: Session, user_id: int) -> web.Response:
        if not await mpw.known(session, who.openid, action.action_id):
            validate.occurred(action, now)  # a replay's glass counted: never refused
        try:
            answer = await mpw.record(session, user_id, who.openid, action, now, digest=digest)
        except mpw.Conflict as first:  # unsettled: no answer yet, so the status now
            return conflict(first.answer or await _status_json(request, session, user_id))
        return json_text(answer)

    async def plan(session: Session, user_id: int) -> web.Response:
        reply = await mpw.settle(session, user_id, who.openid, action, now, template)
        return json_text(reply)

    template = settings.mp.template_id
    recorded = await _as_user(request, who, glass)  # committed: the glass is safe now
    if recorded.status != 200 or recorded.text:
        return recorded
    return await _as_user(request, who, plan)


@guarded
async def post_plan(request: web.Request) -> web.StreamResponse:
    who = _session(request)
    now = request.app[keys.CLOCK].now()
    change = validate.plan(await body(request))

    async def work(session: Session, user_id: int) -> web.Response:
        await mpw.change_plan(session, user_id, change.action, now, _habit(change))
        return await _status(request, session, user_id)

    return await _as_user(request, who, work)


def _habit(change: validate.PlanChange) -> dict[str, object]:
    values: dict[str, object | None] = {
        "water_interval_minutes": change.interval_minutes,
        "water_goal": change.daily_goal,
        "wake_at": change.wake,
        "sleep_at": change.sleep,
    }
    return {name: value for name, value in values.items() if value is not None}


@guarded
async def post_link(request: web.Request) -> web.StreamResponse:
    """A refused code still commits (the wrong try is counted), so it is an answer,
    not an exception."""
    who = _session(request)
    now, limits = request.app[keys.CLOCK].now(), request.app[LIMITS]
    key = request.app[keys.CONVERSATION].deployment.mp_link_key  # derived once, at start-up
    previous = [auth.link_code_key(k) for k in request.app[keys.SETTINGS].previous_web_keys()]
    code = validate.link_code(await body(request))
    if refused := limits.link(now):
        return too_many(refused)
    outcome = ""

    async def work(session: Session, user_id: int) -> web.Response:
        nonlocal outcome
        linked = await mp_link.link(session, who.openid, code, now, key=key, previous=previous)
        outcome = linked if isinstance(linked, str) else "linked"
        return error(linked) if isinstance(linked, str) else await _status(request, session, linked)

    try:
        return await _as_user(request, who, work)
    finally:
        if outcome != "link_code_invalid":  # right, locked out, or never tried: no guess
            limits.not_a_wrong_guess(now)
        if outcome == "rate_limited":
            metrics.MP_RATE_LIMITED.labels("link_openid").inc()


def add_routes(app: web.Application) -> None:
    app.router.add_post(f"{BASE}/login", login)
    app.router.add_get(f"{BASE}/water", get_water, allow_head=False)
    app.router.add_post(f"{BASE}/water/grants", post_grant)
    app.router.add_post(f"{BASE}/water/actions", post_action)
    app.router.add_post(f"{BASE}/water/plan", post_plan)
    app.router.add_post(f"{BASE}/link", post_link)
    app.router.add_route("*", BASE + "/{tail:.*}", not_found)


async def not_found(request: web.Request) -> web.StreamResponse:
    """Any other path or method under the base: the contract's error shape, not a page."""
    return error("not_found")
