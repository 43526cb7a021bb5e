"""The client's address, read behind a trusted reverse proxy. Pure, no I/O.

keeper listens on 127.0.0.1 behind nginx (`deploy/nginx.conf`), so every request's
peer is the proxy; the client is in `X-Forwarded-For`, which nginx's
`$proxy_add_x_forwarded_for` writes as whatever the client sent, then the address
nginx saw. So the header is read only when the peer is a trusted proxy
(KEEPER_TRUSTED_PROXIES, loopback by default), and from the right: each hop a
trusted proxy appended is believed, and the first address that is not a trusted
proxy is the client. Anything left of it was written by the client and proves
nothing. `X-Real-IP` is never read: nginx passes a client's own copy through
unless a location overwrites it, and nothing here can tell which it is.

Used for the mini-program's per-address login limit (`bot.mp.limits`); nothing
else decides on the address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

LOOPBACK: tuple[Network, ...] = (
    ipaddress.IPv4Network("127.0.0.0/8"),
    ipaddress.IPv6Network("::1/128"),
)
"""The default trusted proxies: nginx on the same host, as `deploy/` sets it up."""


def client_address(
    peer: str | None, forwarded_for: Iterable[str], trusted: Sequence[Network]
) -> str:
    """The address the request came from: the peer, or behind trusted proxies the
    right-most `X-Forwarded-For` hop that is not one ("unknown" without a peer).

    A hop that is not an address stops the walk at the proxy that passed it on: the
    proxy's address is the best the request proves.
    """
    current = _address(peer or "")
    if current is None:
        return "unknown"
    hops = [hop.strip() for value in forwarded_for for hop in value.split(",")]
    for hop in reversed(hops):
        if not any(current in network for network in trusted):
            break
        before = _address(hop)
        if before is None:
            break
        current = before
    return str(current)


def _address(text: str) -> Address | None:
    try:
        found = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped  # ::ffff:127.0.0.1 from a dual-stack socket is 127.0.0.1
    return found
