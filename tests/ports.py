"""A loopback port nothing listens on: for a server a test starts, or for a send that
must find the door closed."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port the system just handed out and released (free for the next bind)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
