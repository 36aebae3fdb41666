"""Starting the inspector from a running program: :func:`serve` and its handle."""

from __future__ import annotations

import importlib
import ipaddress
import os
import socket
from collections.abc import Iterable
from types import ModuleType, TracebackType
from typing import Any

from statetree.errors import StateTreeError
from statetree.inspect.adapters import InspectError
from statetree.inspect.hub import Hub

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "Inspector", "ServeError", "check_port", "serve"]

DEFAULT_HOST = "127.0.0.1"
"""The inspector listens on the loopback only, by default: this computer's browsers."""
DEFAULT_PORT = 8765
"""The inspector's port by default (``port=0``: any free one)."""
INSTALL_HINT = "pip install 'statetree[inspect]'"


class ServeError(StateTreeError):
    """The inspector could not serve: its port is taken, or its server did not start."""


def _server_module() -> ModuleType:
    try:
        return importlib.import_module("statetree.inspect.server")
    except ImportError as error:
        raise InspectError(
            f"the inspector's web server needs Starlette and uvicorn: {INSTALL_HINT} ({error})"
        ) from error


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The IP address ``host`` names ("localhost" is 127.0.0.1)."""
    try:
        address = ipaddress.ip_address("127.0.0.1" if host == "localhost" else host)
    except ValueError:
        raise InspectError(
            f"host {host!r} is not an IP address; give the address to serve on, such as "
            f"{DEFAULT_HOST} (the default, this computer only)"
        ) from None
    if address.is_unspecified:
        raise InspectError(
            f"host {host!r} would listen on every network interface; the inspector serves "
            "one address: give it, e.g. 127.0.0.1 or this computer's LAN address"
        )
    return address


def check_port(port: object) -> None:
    """Refuse a port number no socket can have.

    Raises:
        InspectError: ``port`` is not an integer from 0 to 65535.
    """
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise InspectError(f"port must be from 0 (any free port) to 65535; got {port!r}")


def check_rate(rate: object) -> None:
    """Refuse an update rate pages cannot be sent at.

    Raises:
        InspectError: ``rate`` is not a number of updates per second from 0.5 to 120.
    """
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.5 <= rate <= 120:
        raise InspectError(f"rate must be from 0.5 to 120 updates per second, got {rate!r}")


def _listen(address: ipaddress.IPv4Address | ipaddress.IPv6Address, port: int) -> socket.socket:
    check_port(port)
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        return socket.create_server((str(address), port), family=family)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise ServeError(f"cannot listen on {address}:{port}: {reason}") from error


def _names(address: ipaddress.IPv4Address | ipaddress.IPv6Address, port: int) -> list[str]:
    """The ``host:port`` names that pages may use to reach the server."""
    shown = f"[{address}]" if address.version == 6 else str(address)
    names = [f"{shown}:{port}"]
    if address.is_loopback:
        names.append(f"localhost:{port}")
    return names


class Inspector:
    """A running inspector: its address, the frame gate and the way to stop it.

    Made by :func:`serve`. Use it as a context manager, or call :meth:`stop`.
    """

    def __init__(self, hub: Hub, server: Any, url: str) -> None:
        self.hub = hub
        self._server = server
        self.url = url
        """The page's address, e.g. ``http://127.0.0.1:8765/``."""

    def frame(self) -> bool:
        """Call once before each frame of the program: whether to run it.

        Returns False while a page has paused the program (a step from the page lets one
        frame through). Listeners that pages asked for are attached here, on the program's
        thread. Programs that never call it still work, but cannot be paused.
        """
        return self.hub.frame()

    def packet(self, machine: object, data: bytes) -> None:
        """Show ``data`` as the last serialised update of ``machine``, decoded.

        Costs one lookup while no page watches ``machine``.

        Raises:
            InspectError: ``machine`` is not inspected.
        """
        self.hub.packet(machine, data)

    def add(self, machine: object) -> str:
        """Inspect one more machine (pages that connect from now on list it); returns its
        id on the page. A machine already inspected keeps its id and is listed once."""
        return self.hub.add(machine)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving, close the pages' connections and remove every listener."""
        self._server.stop(timeout)
        self.hub.close()

    def __enter__(self) -> Inspector:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def serve(
    machines: Iterable[object],
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    rate: float = 10.0,
    timeout: float = 10.0,
) -> Inspector:
    """Serve the inspector's page for ``machines`` from a background thread.

    Args:
        machines: state machines, bitmask machines, chart machines or adapters.
        host: the IP address to listen on; only this one (the default: this computer only).
        port: the port; 0 picks a free one (see ``Inspector.url``).
        rate: how many updates per second pages receive at most.
        timeout: how long to wait for the server to start.

    Returns:
        the running inspector; the server is up when this returns.

    Raises:
        InspectError: an object cannot be inspected, the address is not a single IP
            address, the port or rate is out of range, or the ``inspect`` extra is not
            installed.
        ServeError: the port is taken, or the server did not start in time.
    """
    check_rate(rate)
    hub = Hub(machines)
    module = _server_module()
    address = _address(host)
    sock = _listen(address, port)
    names = _names(address, sock.getsockname()[1])
    server = module.start(hub, sock, names, rate)
    if not server.start(timeout):
        server.stop(1.0)
        raise ServeError(f"the inspector did not start within {timeout} seconds")
    return Inspector(hub, server, f"http://{names[0]}/")
