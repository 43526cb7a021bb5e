"""deploy/nginx.conf read the way nginx reads it, to check it against keeper's routes.

`parse` turns the text into directives (comments dropped, quotes honoured, braces
checked); `servers` finds the `server` blocks; `Server.landing(path)` is the location
nginx picks for a request path (an exact `=` match, else the longest prefix, where
`^~` ends the search, else the first regex that matches, else that longest prefix);
`Location.access` says what that location does for a client on the internet (an
address no `allow` names). `route_problems` puts them together for keeper: every
public route reaches keeper over HTTPS, no internal one is forwarded to everyone,
and nothing is forwarded that keeper does not serve. Used by
tests/unit/test_nginx_routes.py; tests/nginx.py runs the real nginx on the same file.
"""

from __future__ import annotations

import enum
import ipaddress
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

PUBLIC_CLIENT = ipaddress.ip_address("203.0.113.7")  # TEST-NET-3: any address out there

_TOKEN = re.compile(
    r"""(?P<space>\s+)|(?P<comment>\#[^\n]*)
    |"(?P<dq>(?:\\.|[^"\\])*)"|'(?P<sq>(?:\\.|[^'\\])*)'
    |(?P<punct>[{};])
    |(?P<word>(?:\$\{[^}]*\}|\\.|[^\s{};"'\#])(?:\$\{[^}]*\}|\\.|[^\s{};])*)""",
    re.VERBOSE | re.DOTALL,
)


class ConfError(ValueError):
    """The text is not something nginx would read, or uses what this reader does not model."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Directive:
    name: str
    args: tuple[str, ...]
    block: tuple[Directive, ...] | None
    line: int


def _tokens(text: str) -> Iterator[tuple[str, bool, int]]:
    """(token, is_punctuation, line) for every token; comments and space skipped."""
    pos = 0
    while pos < len(text):
        found = _TOKEN.match(text, pos)
        if found is None:
            raise ConfError(f"line {text.count(chr(10), 0, pos) + 1}: unreadable")
        kind = found.lastgroup
        if kind not in ("space", "comment"):
            value = found.group(kind or "word")
            yield value, kind == "punct", text.count("\n", 0, pos) + 1
        pos = found.end()


def parse(text: str) -> tuple[Directive, ...]:
    """The directives of `text`, nested as nginx nests them."""
    stack: list[tuple[list[Directive], list[str], int]] = [([], [], 0)]
    words: list[tuple[str, int]] = []
    for token, punct, line in _tokens(text):
        if not punct:
            words.append((token, line))
        elif token == "{":
            if not words:
                raise ConfError(f"line {line}: a block without a name")
            stack.append(([], [w for w, _ in words], words[0][1]))
            words = []
        else:
            _close(stack, words, token, line)
            words = []
    if words or len(stack) != 1:
        raise ConfError("unexpected end of file: a `;` or `}` is missing")
    return tuple(stack[0][0])


def _close(
    stack: list[tuple[list[Directive], list[str], int]],
    words: list[tuple[str, int]],
    token: str,
    line: int,
) -> None:
    """Handle `;` (ends a simple directive) or `}` (ends the innermost block)."""
    if token == ";":
        if not words:
            raise ConfError(f"line {line}: an empty directive")
        names = [w for w, _ in words]
        stack[-1][0].append(
            Directive(name=names[0], args=tuple(names[1:]), block=None, line=words[0][1])
        )
        return
    if words:
        raise ConfError(f"line {words[0][1]}: `{words[0][0]}` lacks its `;`")
    if len(stack) == 1:
        raise ConfError(f"line {line}: a `}}` without its `{{`")
    body, head, start = stack.pop()
    stack[-1][0].append(
        Directive(name=head[0], args=tuple(head[1:]), block=tuple(body), line=start)
    )


class Access(enum.StrEnum):
    """What a location does for a client on the internet."""

    FORWARDED = "forwarded"  # proxied to the upstream, for anyone
    RESTRICTED = "restricted"  # proxied, but only for the addresses `allow` names
    CLOSED = "closed"  # an error status, `deny`, or `internal`
    OTHER = "other"  # files from disk (ACME) or a redirect


@dataclass(frozen=True, kw_only=True, slots=True)
class Location:
    modifier: str  # "", "=", "^~", "~" or "~*"
    pattern: str
    access: Access
    line: int

    def __str__(self) -> str:
        return f"location {self.modifier} {self.pattern} (line {self.line})".replace("  ", " ")


def _denies_the_public(rules: Iterable[Directive]) -> bool:
    """nginx's access rules: the first `allow`/`deny` that covers the client decides."""
    for rule in rules:
        target = rule.args[0] if rule.args else ""
        if target == "all" or (
            not target.startswith("unix:")
            and PUBLIC_CLIENT in ipaddress.ip_network(target, strict=False)
        ):
            return rule.name == "deny"
    return False


def _access(body: tuple[Directive, ...], inherited: tuple[Directive, ...]) -> Access:
    own = tuple(d for d in body if d.name in ("allow", "deny"))
    # nginx inherits the server's allow/deny list only into a location without one.
    denied = _denies_the_public(own or inherited)
    names = {d.name for d in body}
    returned = next((d.args for d in body if d.name == "return"), None)
    if "internal" in names or (returned and returned[0].isdigit() and int(returned[0]) >= 400):
        return Access.CLOSED
    if "proxy_pass" in names and not returned:
        return Access.RESTRICTED if denied else Access.FORWARDED
    return Access.CLOSED if denied else Access.OTHER


@dataclass(frozen=True, kw_only=True, slots=True)
class Server:
    listens: tuple[tuple[str, ...], ...]
    locations: tuple[Location, ...]

    @property
    def https(self) -> bool:
        return any("ssl" in listen[1:] for listen in self.listens)

    def landing(self, path: str) -> Location | None:
        """The location nginx picks for `path` (None: none matches, nginx serves its root)."""
        for loc in self.locations:
            if loc.modifier == "=" and loc.pattern == path:
                return loc
        prefixes = [
            loc
            for loc in self.locations
            if loc.modifier in ("", "^~") and path.startswith(loc.pattern)
        ]
        longest = max(prefixes, key=lambda loc: len(loc.pattern), default=None)
        if longest is not None and longest.modifier == "^~":
            return longest
        for loc in self.locations:
            flags = re.IGNORECASE if loc.modifier == "~*" else 0
            if loc.modifier in ("~", "~*") and re.search(loc.pattern, path, flags):
                return loc
        return longest


def _server(block: tuple[Directive, ...]) -> Server:
    inherited = tuple(d for d in block if d.name in ("allow", "deny"))
    locations = []
    for d in block:
        if d.name == "include":
            raise ConfError(f"line {d.line}: `include` in a server is not modelled here")
        if d.name != "location" or d.args[0].startswith("@"):  # named: no path lands there
            continue
        assert d.block is not None
        if any(inner.name == "location" for inner in d.block):
            raise ConfError(f"line {d.line}: nested locations are not modelled here")
        modifier, pattern = d.args if len(d.args) == 2 else ("", d.args[0])
        locations.append(
            Location(
                modifier=modifier, pattern=pattern, access=_access(d.block, inherited), line=d.line
            )
        )
    listens = tuple(d.args for d in block if d.name == "listen")
    return Server(listens=listens, locations=tuple(locations))


def servers(text: str) -> list[Server]:
    """The `server` blocks of `text`: at the top (a conf.d file) or inside `http`."""
    top = parse(text)
    found = [d for d in top if d.name == "server"]
    for http in (d for d in top if d.name == "http"):
        found += [d for d in http.block or () if d.name == "server"]
    return [_server(d.block or ()) for d in found]


def route_problems(text: str, *, public: Iterable[str], internal: Iterable[str]) -> list[str]:
    """Everything wrong with `text` as keeper's proxy, one sentence each (empty: none).

    `public` and `internal` are request paths, one per route of keeper's: a public
    path must land in a forwarded location of every HTTPS server; an internal one
    must land in no location of any server that forwards it to everyone; and every
    proxying location must be where some route of keeper's lands.
    """
    all_servers = servers(text)
    https = [s for s in all_servers if s.https]
    problems = [] if https else ["no server listens with ssl"]
    paths = [*public, *internal]
    for server in https:
        for path in public:
            loc = server.landing(path)
            if loc is None or loc.access is not Access.FORWARDED:
                problems.append(f"public {path} is not forwarded: it lands in {loc}")
    for server in all_servers:
        for path in internal:
            loc = server.landing(path)
            if loc is not None and loc.access is Access.FORWARDED:
                problems.append(f"internal {path} is forwarded to everyone by {loc}")
        for loc in server.locations:
            if loc.access in (Access.FORWARDED, Access.RESTRICTED) and all(
                server.landing(path) != loc for path in paths
            ):
                problems.append(f"{loc} forwards what keeper does not serve")
    return problems
