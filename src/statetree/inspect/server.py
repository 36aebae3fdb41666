"""The inspector's web server: a Starlette app served by uvicorn on one address.

Starlette and uvicorn are imported here only; ``import statetree.inspect`` never needs
them. Every request must name the server's own address in its ``Host`` header, and every
websocket must come from a page of that address (its ``Origin``), so that another web site
open in the same browser cannot reach the inspector, even through DNS rebinding.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Iterable
from importlib import resources

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from statetree.inspect.connection import GONE, Connection
from statetree.inspect.hub import Hub
from statetree.inspect.protocol import MAX_MESSAGE_BYTES
from statetree.inspect.views import Views

__all__ = ["RunningServer", "create_app", "start"]

logger = logging.getLogger("statetree.inspect")

_SCRIPT = "text/javascript; charset=utf-8"
_ASSETS = {
    "index.html": "text/html; charset=utf-8",
    "inspector.css": "text/css; charset=utf-8",
    **{
        f"{module}.js": _SCRIPT
        for module in (
            "inspector",
            "dom",
            "notices",
            "diagram",
            "cards",
            "timeline",
            "packets",
            "editor",
            "controls",
            "patterns",
            "population",
        )
    },
}


def _asset(name: str) -> bytes:
    return (resources.files("statetree.inspect") / "static" / name).read_bytes()


class _Site:
    """The server's own names, and the checks of requests against them."""

    def __init__(self, hosts: Iterable[str]) -> None:
        self.hosts = frozenset(hosts)
        self.origins = frozenset(f"http://{host}" for host in self.hosts)
        self.names = " or ".join(sorted(self.hosts))

    def headers(self) -> dict[str, str]:
        connect = " ".join(f"ws://{host}" for host in sorted(self.hosts))
        return {
            "Content-Security-Policy": (
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                f"connect-src {connect}; base-uri 'none'; form-action 'none'; "
                "frame-ancestors 'none'"
            ),
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
        }


class _HostCheck:
    """ASGI middleware: refuse HTTP requests whose ``Host`` is not the server's address."""

    def __init__(self, app: ASGIApp, site: _Site) -> None:
        self.app = app
        self.site = site

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if host not in self.site.hosts:
                message = f"unknown host {host!r}: this inspector answers to {self.site.names}"
                response = PlainTextResponse(message, status_code=400)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


class _Sender:
    """Flushes the hub at a fixed rate and wakes every connected page."""

    def __init__(self, hub: Hub, rate: float) -> None:
        self.hub = hub
        self.period = 1.0 / rate
        self.connections: set[Connection] = set()

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            if not self.connections:
                continue
            try:
                rows = self.hub.flush()
            except Exception:  # an adapter failed; the pages keep their last state
                logger.exception("the inspector could not read the watched machines")
                continue
            for connection in self.connections:
                connection.watcher.offer(rows)
                connection.wake.set()


def create_app(hub: Hub, hosts: Iterable[str], *, rate: float = 10.0) -> ASGIApp:
    """The inspector's ASGI application.

    Args:
        hub: the machines to serve.
        hosts: the ``host:port`` names requests may use (the server's own address).
        rate: how many batches per second pages receive at most.
    """
    site = _Site(hosts)
    views = Views(hub)
    sender = _Sender(hub, rate)
    assets = {name: _asset(name) for name in _ASSETS}

    async def page(request: Request) -> Response:
        name = request.path_params.get("name", "index.html")
        if name not in _ASSETS:
            return PlainTextResponse("not found", status_code=404, headers=site.headers())
        return Response(assets[name], media_type=_ASSETS[name], headers=site.headers())

    async def socket_endpoint(websocket: WebSocket) -> None:
        host = websocket.headers.get("host", "")
        origin = websocket.headers.get("origin", "")
        try:
            if host not in site.hosts or origin not in site.origins:
                await websocket.close(code=1008, reason="unknown host or origin")
                return
            await websocket.accept()
        except GONE:  # the page left before it was let in
            return
        connection = Connection(websocket, hub, views, rate)
        sender.connections.add(connection)
        try:
            await connection.run()
        finally:
            sender.connections.discard(connection)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(sender.run())
        try:
            yield
        finally:
            task.cancel()

    routes = [
        Route("/", page),
        Route("/static/{name}", page),
        WebSocketRoute("/ws", socket_endpoint),
    ]
    return _HostCheck(Starlette(routes=routes, lifespan=lifespan), site)


class RunningServer:
    """A uvicorn server running the app in a background thread."""

    def __init__(self, app: ASGIApp, sock: socket.socket) -> None:
        config = uvicorn.Config(
            app,
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="on",
            # Above the protocol's limit, so that a message over it is answered with the
            # protocol's error; only a far larger one closes the connection.
            ws_max_size=16 * MAX_MESSAGE_BYTES,
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._socket = sock
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [sock]},
            name="statetree-inspector",
            daemon=True,
        )

    def start(self, timeout: float) -> bool:
        """Start serving; returns whether the server is up within ``timeout`` seconds."""
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started and self._thread.is_alive():
            if time.monotonic() > deadline:
                break
            time.sleep(0.01)
        return bool(self._server.started)

    def stop(self, timeout: float) -> None:
        """Close the connections and stop the thread (waits up to ``timeout`` seconds)."""
        self._server.should_exit = True
        self._thread.join(timeout)
        self._socket.close()


def start(hub: Hub, sock: socket.socket, hosts: Iterable[str], rate: float) -> RunningServer:
    """Serve ``hub`` on the listening socket ``sock`` from a background thread."""
    return RunningServer(create_app(hub, hosts, rate=rate), sock)
