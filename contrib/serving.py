"""How ``storycore serve`` serves (docs/decisions.md#serving, docs/decisions.md#command-line): on
one socket bound here, in
this process or in ``--workers`` processes of uvicorn's supervisor that share it, each worker
composing its service from the environment this process hands it (``worker_app``).
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys

from storycore.adapters import in_memory
from storycore.errors import (
    ConfigurationError,
    MissingDependencyError,
    StorycoreError,
    Unavailable,
)
from storycore.extras import require
from storycore.service import Service

from .asgi import StorycoreASGI, from_environment
from .compose import compose, listed
from .demo import load_demo
from .listen import host_and_port, listening_socket

__all__ = ["configure_logging", "serve", "worker_app"]

#: How long each worker may take to start serving before the supervisor gives up saying so.
_WORKER_START_SECONDS = 60


def _providers(args: argparse.Namespace) -> tuple[str, ...]:
    given = args.delegation_provider
    if given is None:
        return tuple(listed(os.environ.get("STORYCORE_DELEGATION_PROVIDERS", "")))
    providers = tuple(p.strip() for p in given)
    if any("," in provider for provider in providers):  # the workers read them comma-separated
        raise ConfigurationError(
            "--delegation-provider: a provider URL may not hold ',', which separates them in"
            " STORYCORE_DELEGATION_PROVIDERS"
        )
    return providers


def serve(args: argparse.Namespace) -> None:
    """Serve on one socket, bound here: in this process (one worker), or in ``--workers``
    processes that share it (docs/decisions.md#serving). The store is opened here first either way,
    so that it is migrated, reindexed and given the demo data once, and a wrong URL is one
    line here rather than a traceback in every worker. Without the ``serve`` extra it is one
    line naming it, before anything is opened."""
    require("serve")
    workers = args.workers or (1 if in_memory(args.db) else os.cpu_count() or 1)
    if workers > 1 and in_memory(args.db):
        raise ConfigurationError(
            f"--workers {workers}: {args.db} lives in one process's memory; serve it with"
            " --workers 1, or use a SQLite file or a database server"
        )
    sock = listening_socket(args.host, args.port)
    address = f"http://{host_and_port(args.host, sock.getsockname()[1])}"
    providers = _providers(args)
    origins = args.cors_origin or listed(os.environ.get("STORYCORE_CORS_ORIGINS", "")) or ["*"]
    resolver = args.resolve or os.environ.get("STORYCORE_RESOLVER") or "offline"
    allowed = args.resolve_allow_host or listed(
        os.environ.get("STORYCORE_RESOLVER_ALLOWED_HOSTS", "")
    )
    service = compose(
        args.db,
        web_url=args.web_url,
        site_name=args.site_name,
        providers=providers,
        cors_origins=origins,
        resolver=resolver,
        resolver_allowed_hosts=allowed,
        webhook_key=os.environ.get("STORYCORE_WEBHOOK_KEY") or None,
    )
    if args.demo and not service.store.users.find(0, 1):
        # its pictures are served here: without --web-url, at the address listened on
        load_demo(service, web_url=args.web_url or address)
    if workers == 1:
        _serve_here(service, sock, address, args.log_level, args.log_format)
        return
    os.environ.update(
        STORYCORE_LOG_LEVEL=args.log_level,
        STORYCORE_LOG_FORMAT=args.log_format,
        STORYCORE_DB=args.db,
        STORYCORE_WEB_URL=args.web_url or "",
        STORYCORE_SITE_NAME=args.site_name or "",
        STORYCORE_DELEGATION_PROVIDERS=",".join(providers),
        STORYCORE_CORS_ORIGINS=",".join(origins),
        STORYCORE_RESOLVER=resolver,
        STORYCORE_RESOLVER_ALLOWED_HOSTS=",".join(allowed),
    )
    try:
        _serve_in_workers(workers, sock, address, args.log_level, args.log_format, service)
    finally:
        service.close()


def configure_logging(level: str, log_format: str) -> None:
    """storycore's own loggers at ``level`` on standard error, as uvicorn's are, in
    ``log_format`` (``text`` or ``json``)."""
    from ._logs import root_handler

    logging.basicConfig(level=level.upper(), handlers=[root_handler(log_format)])


def _serve_here(
    service: Service, sock: socket.socket, address: str, log_level: str, log_format: str
) -> None:
    import uvicorn

    from ._logs import uvicorn_log_config

    class Server(uvicorn.Server):
        unheard: OSError | None = None  # saying it listens failed: no one reads the output

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                try:
                    print(f"listening on {address}", flush=True)
                except OSError as exc:  # a closed pipe: shut down, then say so in one line
                    self.unheard, self.should_exit = exc, True

    # the app closes the service as its lifespan shuts down (the views counted are written
    # then): after a SIGTERM, uvicorn raises the signal again once it is down, which ends the
    # process before ``run`` returns
    app = StorycoreASGI(service, owns_service=True, compress=True)
    configure_logging(log_level, log_format)
    log_config = uvicorn_log_config(log_format)
    server = Server(uvicorn.Config(app, log_level=log_level, log_config=log_config, lifespan="on"))
    try:
        server.run(sockets=[sock])
    finally:
        if not server.started:  # no lifespan ran to close it
            service.close()
    if server.unheard is not None:
        raise _unheard(server.unheard)


def _serve_in_workers(
    workers: int,
    sock: socket.socket,
    address: str,
    log_level: str,
    log_format: str,
    service: Service,
) -> None:
    """``workers`` processes (uvicorn's supervisor) accepting on ``sock``, each with the app of
    ``storycore.contrib.asgi:from_environment``; it says it listens once every one serves.

    The supervisor, which answers no request, delivers the webhooks' events (``service``'s
    deliverer, docs/webhooks.md), and the workers do not: deliveries then never share a
    process, and its interpreter lock, with the requests (docs/decisions.md#serving;
    benchmarks/README.md measured a story read's latency doubling when they did)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from ._logs import uvicorn_log_config

    class Supervisor(Multiprocess):
        failure: Exception | None = None  # why it stopped by itself, said once it has

        def init_processes(self) -> None:
            super().init_processes()
            stop = self.should_exit
            if not all([p.wait_until_ready(_WORKER_START_SECONDS, stop) for p in self.processes]):
                self.failure = Unavailable("a worker did not start serving (said above); stopped")
                stop.set()  # no worker is started again and again
                return
            try:
                print(f"listening on {address}", flush=True)
            except OSError as exc:  # a closed pipe: stop the workers, then say so
                self.failure = _unheard(exc)
                stop.set()
                return
            configure_logging(log_level, log_format)  # the deliverer's warnings
            service.deliverer.start()

    config = uvicorn.Config(
        "storycore.contrib.serving:worker_app",
        factory=True,
        workers=workers,
        log_level=log_level,
        log_config=uvicorn_log_config(log_format),
        lifespan="on",
    )
    sock.listen(config.backlog)
    supervisor = Supervisor(config, sockets=[sock])
    supervisor.run()
    if supervisor.failure is not None:
        raise supervisor.failure


def _unheard(exc: OSError) -> OSError:
    """Why ``serve`` stopped when it could not say it listens: unlike a command whose reader
    closed the pipe once it had what it wanted, which ends quietly, a server that stops by
    itself says so."""
    if isinstance(exc, BrokenPipeError):
        return OSError("the output was closed before serve said it listens (broken pipe); stopped")
    return exc


def worker_app() -> StorycoreASGI:
    """A worker's app (``asgi.from_environment``). A store the worker cannot open (a server
    that refuses one more connection) is one line, and uvicorn's start-up failure status, on
    which the supervisor stops instead of starting the worker again."""
    from uvicorn.config import STARTUP_FAILURE

    configure_logging(
        os.environ.get("STORYCORE_LOG_LEVEL", "warning"),
        os.environ.get("STORYCORE_LOG_FORMAT", "text"),
    )
    try:
        return from_environment(deliver=False)  # the supervisor delivers
    except (StorycoreError, ConfigurationError, MissingDependencyError) as exc:
        # one write of the whole line: workers failing together share stderr, and ``print``
        # writes the text and its newline apart, which interleaves their lines
        sys.stderr.write(f"storycore: worker {os.getpid()}: {exc}\n")
        sys.stderr.flush()
        sys.exit(STARTUP_FAILURE)
