"""deploy/nginx.conf forwards every public route of `keeper serve` and no internal one.

The routes come from the application itself, built the way `keeper serve` builds it
(`create_app(settings, watchdog=True)`; nothing runs), and from the `/metrics`
listener (`bot.metrics.metrics_app`), which is internal as a whole. On the public
app everything is public except `INTERNAL`. The file is read the way nginx reads it
(tests/nginx_conf.py), and the checker is shown to fail on planted violations.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from aiohttp import web

from bot.app import create_app
from bot.metrics import metrics_app
from scheduler.clock import SystemClock
from storage.database import Database
from storage.engine import create_engine
from tests.conftest import TEST_SETTINGS
from tests.nginx_conf import Access, ConfError, parse, route_problems, servers

SHIPPED = (Path(__file__).parents[2] / "deploy" / "nginx.conf").read_text()

INTERNAL = {"/healthz": "for a monitor on the server itself; nginx allows only loopback"}
"""Routes of the public app that the internet must not reach, and why."""


def _paths(app: web.Application) -> list[str]:
    """One request path per route: `{placeholders}` filled in, a file under a static prefix."""
    paths = [re.sub(r"\{[^}]*\}", "x", resource.canonical) for resource in app.router.resources()]
    static = {r.canonical for r in app.router.resources() if isinstance(r, web.StaticResource)}
    return [path + "/x" if path in static else path for path in paths]


def keeper_routes() -> tuple[list[str], list[str]]:
    """(public, internal) request paths of everything `keeper serve` answers."""
    served = _paths(create_app(TEST_SETTINGS, watchdog=True))
    # Never opened: the metrics app reads the database per scrape, and nothing scrapes here.
    database = Database(create_engine("sqlite+aiosqlite:///never-opened.db"))
    internal = [*INTERNAL, *_paths(metrics_app(database, SystemClock()))]
    assert set(INTERNAL) <= set(served), "INTERNAL names a route keeper no longer has"
    return [p for p in served if p not in INTERNAL], internal


PUBLIC, PRIVATE = keeper_routes()


def test_the_route_table_is_read_whole() -> None:
    """The reader finds what a reader of bot/ would: the four families and /metrics."""
    assert {"/wecom/callback", "/web/link/x", "/web/static/x", "/api/mp/v1/login"} <= set(PUBLIC)
    assert "/api/mp/v1/x" in PUBLIC  # the API's own not-found answers in its JSON shape
    assert PRIVATE == ["/healthz", "/metrics"]


def test_the_shipped_proxy_forwards_every_public_route_and_no_internal_one() -> None:
    assert route_problems(SHIPPED, public=PUBLIC, internal=PRIVATE) == []


Plant = Callable[[str], str]


def _replace(old: str, new: str) -> Plant:
    def plant(text: str) -> str:
        assert text.count(old) == 1, f"the plant's anchor is not in the file once: {old!r}"
        return text.replace(old, new)

    return plant


def _before_catch_all(location: str) -> Plant:
    return _replace(CATCH_ALL, location + CATCH_ALL)


def _without_the_mp_location(text: str) -> str:
    start = text.index("    location ^~ /api/mp/")
    return text[:start] + text[text.index("    location", start + 1) :]


CATCH_ALL = "    location / {\n        return 404;\n    }\n}"
METRICS = "    location /metrics {\n        proxy_pass http://127.0.0.1:9180;\n    }\n"
STALE = "    location /admin/ {\n        proxy_pass http://127.0.0.1:8080;\n    }\n"
FORWARD_ALL = CATCH_ALL.replace("return 404;", "proxy_pass http://127.0.0.1:8080;")

PLANTED = [
    pytest.param(
        _without_the_mp_location, "public /api/mp/v1/login is not forwarded", id="no-mp-api"
    ),
    pytest.param(
        _before_catch_all(METRICS),
        "internal /metrics is forwarded to everyone by location /metrics",
        id="metrics-forwarded",
    ),
    pytest.param(
        _replace(CATCH_ALL, FORWARD_ALL),
        "internal /metrics is forwarded to everyone by location /",
        id="everything-forwarded",
    ),
    pytest.param(
        _replace("        deny all;\n", ""), "internal /healthz is forwarded", id="healthz-open"
    ),
    pytest.param(
        _replace("        deny all;\n", "        allow all;\n        deny all;\n"),
        "internal /healthz is forwarded",
        id="healthz-allow-all-first",
    ),
    pytest.param(_before_catch_all(STALE), "location /admin/ (line", id="stale-location"),
    pytest.param(
        _replace("location ^~ /web/", "location = /web/"),
        "public /web/me is not forwarded",
        id="web-exact",
    ),
    pytest.param(
        _replace(
            "    location = /wecom/callback {",
            "    location = /wecom/callback {\n        return 403;",
        ),
        "public /wecom/callback is not forwarded",
        id="callback-refused",
    ),
    pytest.param(
        lambda text: re.sub(r"(listen [^;]*) ssl", r"\1", text),
        "no server listens with ssl",
        id="no-https",
    ),
]


@pytest.mark.parametrize(("plant", "expected"), PLANTED)
def test_the_check_fails_on_a_planted_violation(plant: Plant, expected: str) -> None:
    problems = route_problems(plant(SHIPPED), public=PUBLIC, internal=PRIVATE)
    assert any(expected in problem for problem in problems), problems


LANDINGS = [
    # (path, the pattern nginx picks): exact first, then ^~ over regexes, regexes over
    # a plain prefix, the longest prefix otherwise.
    ("/wecom/callback", "/wecom/callback"),
    ("/wecom/callback/x", "/"),
    ("/healthz", "/healthz"),
    ("/web/", "/web/"),
    ("/web", "/"),
    ("/api/mp/v1/login", "/api/mp/"),
    ("/x.php", r"\.php$"),
    ("/web/x.php", "/web/"),
    ("/docs/x.php", r"\.php$"),
    ("/docs/x", "/docs/"),
    ("/", "/"),
]
LANDING_CONF = """
server { listen 443 ssl;
  location = /wecom/callback { proxy_pass http://k; }
  location ^~ /web/ { proxy_pass http://k; }
  location ^~ /api/mp/ { proxy_pass http://k; }
  location = /healthz { proxy_pass http://k; }
  location ~ \\.php$ { return 404; }
  location /docs/ { root /srv; }
  location / { return 404; }
}
"""


@pytest.mark.parametrize(("path", "pattern"), LANDINGS)
def test_a_path_lands_where_nginx_would_put_it(path: str, pattern: str) -> None:
    [server] = servers(LANDING_CONF)
    landed = server.landing(path)
    assert landed is not None
    assert landed.pattern == pattern


ACCESS = [
    ("proxy_pass http://k;", Access.FORWARDED),
    ("allow 127.0.0.1; deny all; proxy_pass http://k;", Access.RESTRICTED),
    ("allow 10.0.0.0/8; deny all; proxy_pass http://k;", Access.RESTRICTED),
    ("allow 0.0.0.0/0; deny all; proxy_pass http://k;", Access.FORWARDED),
    ("deny 10.0.0.0/8; proxy_pass http://k;", Access.FORWARDED),
    ("deny all;", Access.CLOSED),
    ("return 404;", Access.CLOSED),
    ("return 444; proxy_pass http://k;", Access.CLOSED),
    ("internal; proxy_pass http://k;", Access.CLOSED),
    ("return 301 https://$host$request_uri;", Access.OTHER),
    ("root /var/www/letsencrypt;", Access.OTHER),
]


@pytest.mark.parametrize(("body", "access"), ACCESS)
def test_a_location_is_read_as_nginx_treats_a_client_on_the_internet(
    body: str, access: Access
) -> None:
    [server] = servers(f"server {{ location /a {{ {body} }} }}")
    assert server.locations[0].access is access


def test_a_servers_allow_list_holds_for_locations_without_their_own() -> None:
    conf = "server { allow 127.0.0.1; deny all; location /a { proxy_pass http://k; } location /b { allow all; proxy_pass http://k; } }"
    [server] = servers(conf)
    assert [loc.access for loc in server.locations] == [Access.RESTRICTED, Access.FORWARDED]


def test_comments_and_quotes_are_read_as_nginx_reads_them() -> None:
    [server] = parse(
        'server { # a { comment\n  add_header X "a; b { c";  location /a#b { return 404; } }'
    )
    assert server.block is not None
    header, location = server.block
    assert (header.name, header.args, header.line) == ("add_header", ("X", "a; b { c"), 2)
    assert (location.args, location.line) == (("/a#b",), 2)


@pytest.mark.parametrize(
    "broken",
    [
        "server { listen 80 }",
        "server { listen 80;",
        "listen 80; }",
        "server { listen 80; } }",
        "{ }",
    ],
)
def test_text_nginx_would_refuse_is_refused(broken: str) -> None:
    with pytest.raises(ConfError):
        parse(broken)


def test_what_the_reader_does_not_model_is_refused_rather_than_guessed() -> None:
    for conf in ("server { include extra.conf; }", "server { location /a { location /a/b { } } }"):
        with pytest.raises(ConfError):
            servers(conf)
