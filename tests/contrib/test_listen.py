"""The server's listening socket gives connections without Nagle's algorithm."""

from __future__ import annotations

import asyncio
import socket

from storycore.contrib.listen import listening_socket


def test_accepted_connections_have_tcp_nodelay() -> None:
    async def accepted_nodelay() -> int:
        sock = listening_socket("127.0.0.1", 0)
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            conn = writer.get_extra_info("socket")
            seen.set_result(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(connected, sock=sock)
        _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
        result = await asyncio.wait_for(seen, 5)
        writer.close()
        await writer.wait_closed()
        server.close()
        await server.wait_closed()
        return result

    assert asyncio.run(accepted_nodelay()) == 1
