"""The listening socket the server is given, bound before it starts (so ``--port 0`` works)."""

from __future__ import annotations

import socket

__all__ = ["host_and_port", "listening_socket"]


def host_and_port(host: str, port: int) -> str:
    """``host:port`` as an address writes it: an IPv6 address in brackets."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port``; an ``OSError`` that says which address cannot be
    listened on and why, in one line (``cannot listen on 127.0.0.1:8000: address already in
    use``), when it cannot be bound.

    It is made with ``proto=IPPROTO_TCP``: asyncio turns Nagle's algorithm off (``TCP_NODELAY``)
    only on connections accepted from such a socket, and with Nagle on, every answer's body
    waits about 40 ms for the delayed acknowledgement of its headers.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        reason = exc.strerror or str(exc)
        reason = reason[:1].lower() + reason[1:]
        raise OSError(f"cannot listen on {host_and_port(host, port)}: {reason}") from exc
    return sock
