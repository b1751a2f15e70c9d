"""How ``storycore serve`` serves (docs/decisions.md#serving, docs/decisions.md#command-line): on
one socket bound here, in
this process or in ``--workers`` processes of uvicorn's supervisor that share it, each worker
composing its service from the environment this process hands it (``worker_app``) and stopping
when this process ends, however it ends.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import replace
from multiprocessing.process import BaseProcess

from storycore.adapters import in_memory
from storycore.errors import (
    ConfigurationError,
    MissingDependencyError,
    StorycoreError,
    Unavailable,
)
from storycore.extras import require
from storycore.service import Service

from ._options import composition
from .asgi import EDITOR_VARIABLE, StorycoreASGI, editor_wanted, from_environment
from .demo import SITE_NAME as DEMO_SITE_NAME
from .demo import load_demo
from .listen import host_and_port, listening_socket

__all__ = ["configure_logging", "serve", "worker_app"]

#: How long each worker may take to start serving before the supervisor gives up saying so.
_WORKER_START_SECONDS = 60
#: How long a worker whose ``serve`` is gone may take to stop as it does on SIGTERM (answering
#: the requests it holds, writing the views it counted) before it ends at once: its address is
#: free for the next ``serve`` within 2 s (docs/decisions.md#serving).
_ORPHAN_STOP_SECONDS = 1.5

logger = logging.getLogger("storycore.serve")


def serve(args: argparse.Namespace) -> None:
    """Serve on one socket, bound here: in this process (one worker), or in ``--workers``
    processes that share it (docs/decisions.md#serving). The service is composed here first
    either way, from the settings every command reads (``_options.composition``), so that the
    store is migrated, brought up to date and given the demo data once, and a wrong URL is one
    line here rather than a traceback in every worker; the workers compose theirs from the same
    settings, handed over in their environment. With ``--demo`` and no site name given, the
    site is the demo's (``demo.SITE_NAME``). Without the ``serve`` extra it is one line
    naming it, before anything is opened."""
    require("serve")
    workers = args.workers or (1 if in_memory(args.db) else os.cpu_count() or 1)
    if workers > 1 and in_memory(args.db):
        raise ConfigurationError(
            f"--workers {workers}: {args.db} lives in one process's memory; serve it with"
            " --workers 1, or use a SQLite file or a database server"
        )
    given = composition(args)
    if args.demo and given.site_name is None:  # the demo's site has a name of its own
        given = replace(given, site_name=DEMO_SITE_NAME)
    sock = listening_socket(args.host, args.port)
    address = f"http://{host_and_port(args.host, sock.getsockname()[1])}"
    # without a web address, the scheduler's events name where it listens, as requests do
    composed = replace(given, listening_url=address)
    try:
        service = composed.service()  # the store brought up to date here, once
    except BaseException:
        sock.close()
        raise
    if args.demo and not service.store.users.find(0, 1):
        # under the web address, else the address listened on: the API's addresses load there,
        # and pages show them from wherever the store is served later (rules.own_files)
        load_demo(service, web_url=composed.web_url or address)
    if not args.editor:
        os.environ[EDITOR_VARIABLE] = "off"
    if workers == 1:
        _serve_here(service, sock, address, args.log_level, args.log_format)
        return
    os.environ.update(
        STORYCORE_LOG_LEVEL=args.log_level,
        STORYCORE_LOG_FORMAT=args.log_format,
        **composed.environment(),
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
    app = StorycoreASGI(service, owns_service=True, compress=True, editor=editor_wanted())
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
    deliverer, docs/webhooks.md) and keeps pictures (its keeper, docs/media.md), and the
    workers do not: deliveries then never share a
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
            service.keeper.start()  # keeping pictures takes CPU: not in a worker either

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
    _stop_with_serve()
    try:
        # the supervisor delivers, and brought the store up to date before it started them
        return from_environment(deliver=False, up_to_date=False)
    except (StorycoreError, ConfigurationError, MissingDependencyError) as exc:
        # one write of the whole line: workers failing together share stderr, and ``print``
        # writes the text and its newline apart, which interleaves their lines
        sys.stderr.write(f"storycore: worker {os.getpid()}: {exc}\n")
        sys.stderr.flush()
        sys.exit(STARTUP_FAILURE)


def _stop_with_serve() -> None:
    """Stop this worker once the ``serve`` that started it has ended, however it ended: a
    SIGKILL runs none of its code, and a worker left behind would keep its address from the
    next ``serve`` and log events that no process delivers (docs/decisions.md#serving).

    multiprocessing hands each process it spawns, as uvicorn starts its workers, the read end
    of a pipe whose write end only the parent holds (``parent_process().sentinel``): the
    kernel closes it as the parent ends, so it reads end-of-file then, on every POSIX system,
    with nothing to poll. A thread waits on it, then stops the worker as SIGTERM does."""
    parent = multiprocessing.parent_process()
    if parent is not None:  # none when the app is built outside ``serve --workers``
        watch = threading.Thread(target=_stop_when_gone, args=(parent,), daemon=True)
        watch.start()


def _stop_when_gone(parent: BaseProcess) -> None:
    """Wait for ``parent`` to end; then SIGTERM this process (uvicorn closes its connections
    and the app's lifespan writes the views it counted), and end it at once if that takes
    more than ``_ORPHAN_STOP_SECONDS`` (a request that runs on)."""
    parent.join()
    worker = os.getpid()
    logger.warning("serve is gone (process %d): worker %d stops", parent.pid, worker)
    os.kill(worker, signal.SIGTERM)
    time.sleep(_ORPHAN_STOP_SECONDS)  # a deadline: the process normally ends before it
    logger.warning(
        "worker %d had not stopped %g s after serve was gone: ended at once, what it held"
        " unanswered and the views it counted since it last wrote them unwritten",
        worker,
        _ORPHAN_STOP_SECONDS,
    )
    for handler in logging.getLogger().handlers:
        handler.flush()
    os._exit(1)
