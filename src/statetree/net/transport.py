"""UDP transport on asyncio: clients send inputs, the authority sends confirmed states.

An :class:`Endpoint` is one UDP socket bound to exactly the address it is given (loopback by
default). Every datagram is checked whole (:mod:`statetree.net.messages`); a malformed one,
or one whose content its handler refuses with a ``DecodeError``, is counted and dropped and
never reaches the game or stops the loop. Sending goes through an optional
:class:`LinkConditioner`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from functools import partial
from typing import Any, Generic, TypeVar, cast

from statetree.errors import DecodeError, UsageError
from statetree.net.conditioner import LinkConditioner
from statetree.net.errors import PacketError
from statetree.net.messages import (
    InputMessage,
    Message,
    StateMessage,
    decode_message,
    encode_message,
)
from statetree.net.ordering import InputQueue

__all__ = ["LOOPBACK", "Address", "Endpoint", "EndpointStats", "StateClient", "StateServer"]

Address = tuple[str, int]
LOOPBACK: Address = ("127.0.0.1", 0)
"""The default address: the IPv4 loopback, on a port the system picks."""

MessageHandler = Callable[[Message, Address], None]
InputT = TypeVar("InputT")
StateHandler = Callable[[StateMessage], None]


@dataclass(frozen=True, slots=True)
class EndpointStats:
    """What an endpoint sent and received.

    Attributes:
        sent: messages sent (before the conditioner drops or duplicates any).
        received: valid messages handled.
        malformed: datagrams dropped because they, or their content, did not decode.
        refused: valid datagrams dropped for another reason (too many peers).
        errors: socket errors reported (an unreachable peer, say).
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
            counts the datagram as malformed.
        conditioner: delays, drops, duplicates or reorders what this endpoint sends.
    """

    def __init__(self, handler: MessageHandler, conditioner: LinkConditioner | None = None) -> None:
        self._handler = handler
        self._conditioner = conditioner
        self._transport: asyncio.DatagramTransport | None = None
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

    def datagram_received(self, data: bytes, addr: tuple[str | Any, int]) -> None:
        try:
            self._handler(decode_message(data), (str(addr[0]), addr[1]))
        except DecodeError:
            self.count("malformed")
            return
        self.count("received")

    def error_received(self, exc: Exception) -> None:
        self.count("errors")

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None

    # -- sending ---------------------------------------------------------------------------

    def send(self, message: Message, address: Address | None = None) -> None:
        """Send ``message`` to ``address`` (the connected peer when ``None``)."""
        data = encode_message(message)
        self.count("sent")
        deliver = partial(self._deliver, address)
        if self._conditioner is None:
            deliver(data)
        else:
            self._conditioner.send(data, deliver)

    def _deliver(self, address: Address | None, data: bytes) -> None:
        transport = self._transport
        if transport is not None and not transport.is_closing():
            transport.sendto(data, address)

    def close(self) -> None:
        """Drop what the conditioner still holds and close the socket."""
        if self._conditioner is not None:
            self._conditioner.cancel()
        if self._transport is not None:
            self._transport.close()


async def open_endpoint(
    handler: MessageHandler,
    *,
    address: Address = LOOPBACK,
    peer: Address | None = None,
    conditioner: LinkConditioner | None = None,
) -> Endpoint:
    """Bind a UDP socket to ``address`` (and connect it to ``peer``, if given)."""
    loop = asyncio.get_running_loop()
    _, endpoint = await loop.create_datagram_endpoint(
        lambda: Endpoint(handler, conditioner), local_addr=address, remote_addr=peer
    )
    return endpoint


class StateServer(Generic[InputT]):
    """The authority's side: inputs in, confirmed states out.

    Each client's inputs are parsed (a whole datagram is refused if one input does not
    parse), then handed to ``on_inputs`` once each, in frame order (an :class:`InputQueue`
    per client), even when datagrams are lost, repeated or reordered. Open one with
    :meth:`open`.
    """

    def __init__(
        self,
        parse: Callable[[bytes], InputT],
        on_inputs: Callable[[Address, list[tuple[int, InputT]]], None],
        *,
        max_clients: int = 64,
    ) -> None:
        self._parse = parse
        self._on_inputs = on_inputs
        self._max_clients = max_clients
        self._queues: dict[Address, InputQueue[InputT]] = {}
        self._endpoint: Endpoint | None = None

    @classmethod
    async def open(
        cls,
        parse: Callable[[bytes], InputT],
        on_inputs: Callable[[Address, list[tuple[int, InputT]]], None],
        *,
        address: Address = LOOPBACK,
        conditioner: LinkConditioner | None = None,
        max_clients: int = 64,
    ) -> StateServer[InputT]:
        """Listen on ``address`` (only there).

        Args:
            parse: turns an input's bytes into an input; raises ``DecodeError`` if they are
                not one.
            on_inputs: ``on_inputs(client, [(frame, input), ...])`` with the inputs that
                became ready, in order (possibly none: a repeat, for instance).
            address: where to listen; the IPv4 loopback by default.
            conditioner: what the link does to the states sent.
            max_clients: datagrams from further addresses are refused.
        """
        server = cls(parse, on_inputs, max_clients=max_clients)
        server._endpoint = await open_endpoint(
            server._receive, address=address, conditioner=conditioner
        )
        return server

    @property
    def endpoint(self) -> Endpoint:
        """The server's socket."""
        if self._endpoint is None:
            raise UsageError("the server is not open: create it with StateServer.open(...)")
        return self._endpoint

    @property
    def clients(self) -> tuple[Address, ...]:
        """The addresses inputs came from, in order of arrival."""
        return tuple(self._queues)

    def send_state(self, client: Address, message: StateMessage) -> None:
        """Send a confirmed state to ``client``."""
        self.endpoint.send(message, client)

    def close(self) -> None:
        """Stop listening."""
        self.endpoint.close()

    def _receive(self, message: Message, sender: Address) -> None:
        if not isinstance(message, InputMessage):
            raise PacketError("a server only receives inputs", bit=8)
        parsed = [(frame, self._parse(data)) for frame, data in message.frames()]
        queue = self._queues.get(sender)
        if queue is None:
            if len(self._queues) >= self._max_clients:
                self.endpoint.count("refused")
                return
            queue = self._queues[sender] = InputQueue()
        for frame, value in parsed:
            queue.push(frame, value)
        self._on_inputs(sender, queue.pop_ready())


class StateClient:
    """A client's side: inputs out, confirmed states in. Open one with :meth:`open`."""

    def __init__(self, on_state: StateHandler) -> None:
        self._on_state = on_state
        self._endpoint: Endpoint | None = None

    @classmethod
    async def open(
        cls,
        server: Address,
        on_state: StateHandler,
        *,
        address: Address = LOOPBACK,
        conditioner: LinkConditioner | None = None,
    ) -> StateClient:
        """Bind to ``address`` and talk to ``server`` only.

        Args:
            server: the authority's address.
            on_state: called with each state message; raising ``DecodeError`` (a packet the
                codec refuses) counts it as malformed.
            address: where to bind; the IPv4 loopback by default.
            conditioner: what the link does to the inputs sent.
        """
        client = cls(on_state)
        client._endpoint = await open_endpoint(
            client._receive, address=address, peer=server, conditioner=conditioner
        )
        return client

    @property
    def endpoint(self) -> Endpoint:
        """The client's socket."""
        if self._endpoint is None:
            raise UsageError("the client is not open: create it with StateClient.open(...)")
        return self._endpoint

    def send_inputs(self, last_frame: int, inputs: Sequence[bytes]) -> None:
        """Send the inputs of the frames ending at ``last_frame``, oldest first."""
        self.endpoint.send(InputMessage(last_frame, tuple(inputs)))

    def close(self) -> None:
        """Close the socket."""
        self.endpoint.close()

    def _receive(self, message: Message, sender: Address) -> None:
        if not isinstance(message, StateMessage):
            raise PacketError("a client only receives states", bit=8)
        self._on_state(message)
