"""The listening socket the server is given, bound before it starts (so ``--port 0`` works)."""

from __future__ import annotations

import socket

__all__ = ["listening_socket"]


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port``.

    It is made with ``proto=IPPROTO_TCP``: asyncio turns Nagle's algorithm off (``TCP_NODELAY``)
    only on connections accepted from such a socket, and with Nagle on, every answer's body
    waits about 40 ms for the delayed acknowledgement of its headers.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock
