"""UDP endpoints on asyncio, the sockets under :class:`StateServer` and :class:`StateClient`.

An :class:`Endpoint` is one UDP socket bound to exactly the address it is given (loopback by
default). Every datagram is checked whole (:mod:`statetree.net.messages`); a malformed one,
or one whose content its handler refuses with a ``DecodeError``, is counted and dropped and
never reaches the game or stops the loop. Sending goes through an optional
:class:`LinkConditioner`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import partial
from typing import Any, cast

from statetree.errors import DecodeError, UsageError
from statetree.net.conditioner import LinkConditioner
from statetree.net.messages import Message, decode_message, encode_message

__all__ = [
    "LOOPBACK",
    "Address",
    "Endpoint",
    "EndpointStats",
    "check_address",
    "open_endpoint",
    "show",
]

Address = tuple[str, int]
"""A peer's address: host and port, as the socket gives it."""
LOOPBACK: Address = ("127.0.0.1", 0)
"""The default address: the IPv4 loopback, on a port the system picks."""

MessageHandler = Callable[[Message, Address], None]


def check_address(address: object, what: str, *, any_port: bool = False) -> Address:
    """``address``, checked to be a ``(host, port)`` pair a socket takes: a host name or
    number, and a port of 1 to 65535 (0 too, the system's pick, with ``any_port``).

    Raises:
        UsageError: it is not (asyncio would close the socket, for every client, on one
            it cannot send to).
    """
    if (
        isinstance(address, tuple)
        and len(address) == 2
        and isinstance(address[0], str)
        and address[0]
        and "\x00" not in address[0]
        and type(address[1]) is int
        and (0 if any_port else 1) <= address[1] <= 65535
    ):
        return address[0], address[1]
    ports = "0 to 65535" if any_port else "1 to 65535"
    raise UsageError(
        f"{what} is a (host, port) tuple, a port of {ports}, as received from a client; got "
        f"{address!r}"
    )


def show(address: Address) -> str:
    """``host:port`` (``[host]:port`` for an IPv6 host, as URLs write it)."""
    host, port = address[0], address[1]
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


@dataclass(frozen=True, slots=True)
class EndpointStats:
    """What an endpoint sent and received.

    Attributes:
        sent: messages sent (before the conditioner drops or duplicates any).
        received: valid messages handled.
        malformed: datagrams dropped because they, or their content, did not decode.
        refused: valid datagrams dropped for another reason: a hello to a server full or
            with another wire schema, inputs from a client that did not shake hands.
        errors: socket errors reported (an unreachable peer, say).

    Each datagram received counts once, in ``received``, ``malformed`` or ``refused``.
    """

    sent: int = 0
    received: int = 0
    malformed: int = 0
    refused: int = 0
    errors: int = 0


class Endpoint(asyncio.DatagramProtocol):
    """One UDP socket speaking the framed messages.

    Args:
        handler: called with each valid message and its sender; a ``DecodeError`` it raises
            counts the datagram as malformed, and one it counts as refused
            (``endpoint.count("refused")``) is not counted as received.
        conditioner: delays, drops, duplicates or reorders what this endpoint sends.
    """

    def __init__(self, handler: MessageHandler, conditioner: LinkConditioner | None = None) -> None:
        self._handler = handler
        self._conditioner = conditioner
        self._transport: asyncio.DatagramTransport | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._counts = dict.fromkeys((f.name for f in fields(EndpointStats)), 0)

    @property
    def stats(self) -> EndpointStats:
        """The counts so far."""
        return EndpointStats(**self._counts)

    @property
    def address(self) -> Address:
        """The address the socket is bound to."""
        if self._transport is None:
            raise UsageError("the endpoint's socket is closed (or was never opened)")
        host, port = self._transport.get_extra_info("sockname")[:2]
        return host, port

    def count(self, name: str) -> None:
        """Add one to the counter ``name`` (a field of :class:`EndpointStats`)."""
        self._counts[name] += 1

    # -- asyncio protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # The selector loop's datagram transport does not subclass DatagramTransport on
        # every Python version, though it provides its methods.
        self._transport = cast(asyncio.DatagramTransport, transport)
        self._loop = asyncio.get_running_loop()

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        refused = self._counts["refused"]
        try:
            self._handler(decode_message(data), (str(addr[0]), addr[1]))
        except DecodeError:
            if self._counts["refused"] == refused:
                self.count("malformed")
            return
        if self._counts["refused"] == refused:  # each datagram counts once: refused, or handled
            self.count("received")

    def error_received(self, exc: Exception) -> None:
        self.count("errors")

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None

    # -- sending ---------------------------------------------------------------------------

    def send(self, message: Message, address: Address | None = None) -> None:
        """Send ``message`` to ``address`` (the connected peer when ``None``).

        Raises:
            UsageError: the socket is closed, ``address`` is not a ``(host, port)`` tuple
                (see :func:`check_address`), or the call is not made on the thread of the
                endpoint's event loop (asyncio's transports are not thread-safe).
        """
        if address is not None:
            address = check_address(address, "an address")
        if self._closed or self._transport is None:
            raise UsageError("the endpoint's socket is closed (or was never opened)")
        if _running_loop() is not self._loop:
            raise UsageError(
                "an endpoint sends from the thread running its event loop; from another "
                "thread, hand the call over with loop.call_soon_threadsafe"
            )
        data = encode_message(message)
        self.count("sent")
        deliver = partial(self._deliver, address)
        if self._conditioner is None:
            deliver(data)
        else:
            self._conditioner.send(data, deliver, owner=self)

    def _deliver(self, address: Address | None, data: bytes) -> None:
        transport = self._transport
        if transport is not None and not transport.is_closing():
            transport.sendto(data, address)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called (sending then raises)."""
        return self._closed

    def close(self) -> None:
        """Drop what the conditioner still holds for this socket and close it."""
        self._closed = True
        if self._conditioner is not None:
            self._conditioner.cancel(owner=self)
        if self._transport is not None:
            self._transport.close()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running on this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


async def open_endpoint(
    handler: MessageHandler,
    *,
    address: Address = LOOPBACK,
    peer: Address | None = None,
    conditioner: LinkConditioner | None = None,
) -> Endpoint:
    """Bind a UDP socket to ``address`` (and connect it to ``peer``, if given).

    Raises:
        UsageError: ``address`` or ``peer`` is no address (see :func:`check_address`), or
            ``conditioner`` is no :class:`LinkConditioner`.
    """
    address = check_address(address, "the address to bind", any_port=True)
    if peer is not None:
        peer = check_address(peer, "the server's address")
    if conditioner is not None and not isinstance(conditioner, LinkConditioner):
        raise UsageError(f"a conditioner is a LinkConditioner, got {conditioner!r}")
    loop = asyncio.get_running_loop()
    _, endpoint = await loop.create_datagram_endpoint(
        lambda: Endpoint(handler, conditioner), local_addr=address, remote_addr=peer
    )
    return endpoint
