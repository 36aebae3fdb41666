"""The authority's side of the transport: handshakes, inputs in, confirmed states out.

A client joins with a hello carrying its wire-schema fingerprint; the server welcomes it
when the fingerprint is its own, and refuses it (saying why, and logging it) when it is not
or when the table of clients is full. Clients that send nothing for ``client_timeout``
seconds are forgotten, so a table filled by one datagram from each of many ports empties
again. Inputs from an address that did not shake hands are refused before the game's
``parse`` sees them, and the sender is told (a forgotten client then says hello again).

Clients join in the order their first hello reaches the server: ``on_join`` is called in
that order, once per join, and ``clients`` lists them in it. A client forgotten and
welcomed again joins anew, after the others.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from statetree.errors import DecodeError, UsageError, require_callable
from statetree.net.conditioner import LinkConditioner
from statetree.net.errors import PacketError
from statetree.net.messages import (
    HandshakeMessage,
    InputMessage,
    Message,
    MessageKind,
    StateMessage,
)
from statetree.net.ordering import InputQueue
from statetree.net.transport import LOOPBACK, Address, Endpoint, open_endpoint, show

__all__ = ["StateServer"]

InputT = TypeVar("InputT")
LOG = logging.getLogger("statetree.net")
REFUSED_SCHEMA = "schema"
"""A refusal's reason: the client's wire-schema fingerprint is not the server's."""
REFUSED_FULL = "full"
"""A refusal's reason: the server has as many clients as it takes, none idle."""
REFUSED_UNKNOWN = "who"
"""A refusal's reason: inputs from an address that is not a client (forgotten, say): its
client says hello again."""


@dataclass(slots=True)
class _Client(Generic[InputT]):
    queue: InputQueue[InputT]
    seen: float


class StateServer(Generic[InputT]):
    """The authority's side: inputs in, confirmed states out.

    Each client's inputs are parsed (a whole datagram is counted as malformed if one input
    does not parse), then handed to ``on_inputs`` once each, in frame order (an
    :class:`InputQueue` per client), even when datagrams are lost, repeated or reordered.
    Inputs from an address that is not a client (no hello, or forgotten) are counted as
    refused and never parsed. Open one with :meth:`open`.
    """

    def __init__(
        self,
        parse: Callable[[bytes], InputT],
        on_inputs: Callable[[Address, list[tuple[int, InputT]]], None],
        *,
        fingerprint: str,
        max_clients: int = 64,
        client_timeout: float = 10.0,
        clock: Callable[[], float] | None = None,
        on_leave: Callable[[Address], None] | None = None,
        on_join: Callable[[Address], None] | None = None,
    ) -> None:
        if (
            isinstance(client_timeout, bool)
            or not isinstance(client_timeout, (int, float))
            or not 0 < client_timeout < math.inf
        ):
            raise UsageError(f"client_timeout must be a positive number, not {client_timeout!r}")
        if type(max_clients) is not int or max_clients < 1:
            raise UsageError(
                f"max_clients must be a whole number of at least 1, not {max_clients!r}"
            )
        require_callable(parse, "parse")
        require_callable(on_inputs, "on_inputs")
        for name, callback in (("on_leave", on_leave), ("on_join", on_join), ("clock", clock)):
            if callback is not None:
                require_callable(callback, name)
        HandshakeMessage(MessageKind.WELCOME, fingerprint)  # checks the fingerprint
        self.fingerprint = fingerprint
        self._parse = parse
        self._on_inputs = on_inputs
        self._on_leave = on_leave
        self._on_join = on_join
        self._max_clients = max_clients
        self._timeout = client_timeout
        self._clock = clock
        # Least recently heard from first, to forget the idle ones cheaply; and join order.
        self._clients: OrderedDict[Address, _Client[InputT]] = OrderedDict()
        self._joined: dict[Address, None] = {}
        self._endpoint: Endpoint | None = None
        self._noted: set[str] = set()
        self._quiet_until = -float("inf")
        self._unlogged = 0
        self._told = 0  # strangers told this second (see _tell_stranger)
        self._told_since = -float("inf")

    @classmethod
    async def open(
        cls,
        parse: Callable[[bytes], InputT],
        on_inputs: Callable[[Address, list[tuple[int, InputT]]], None],
        *,
        fingerprint: str,
        address: Address = LOOPBACK,
        conditioner: LinkConditioner | None = None,
        max_clients: int = 64,
        client_timeout: float = 10.0,
        clock: Callable[[], float] | None = None,
        on_leave: Callable[[Address], None] | None = None,
        on_join: Callable[[Address], None] | None = None,
    ) -> StateServer[InputT]:
        """Listen on ``address`` (only there).

        Args:
            parse: turns an input's bytes into an input; raises ``DecodeError`` if they are
                not one (any other exception it raises counts the datagram as malformed too).
                Only the inputs of clients that shook hands are parsed.
            on_inputs: ``on_inputs(client, [(frame, input), ...])`` with the inputs that
                became ready, in order (possibly none: a repeat, for instance).
            fingerprint: the wire-schema fingerprint of what this server sends (a codec's
                ``fingerprint``, or :func:`stream_fingerprint` of several): clients with
                another one are refused.
            address: where to listen; the IPv4 loopback by default.
            conditioner: what the link does to the states sent.
            max_clients: hellos from further addresses are refused while this many clients
                are known.
            client_timeout: seconds without a datagram after which a client is forgotten.
            clock: the time in seconds (the event loop's clock by default).
            on_leave: called with each client forgotten for being idle.
            on_join: called with each client welcomed, once per join (not for the hellos
                it repeats), in join order, just after the welcome is sent.

        Raises:
            UsageError: ``fingerprint`` is not 16 hex digits, ``client_timeout`` is not
                positive, ``max_clients`` is not a whole number of at least 1, a function
                is not callable, or ``address`` or ``conditioner`` is wrong.
        """
        server = cls(
            parse,
            on_inputs,
            fingerprint=fingerprint,
            max_clients=max_clients,
            client_timeout=client_timeout,
            clock=clock or asyncio.get_running_loop().time,
            on_leave=on_leave,
            on_join=on_join,
        )
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
        """The clients known now, in join order (the idle ones are forgotten first, as when
        a datagram arrives: ``on_leave`` runs for them)."""
        self._expire()
        return tuple(self._joined)

    def send_state(self, client: Address, message: StateMessage) -> None:
        """Send a confirmed state to ``client``.

        Raises:
            UsageError: ``message`` is no :class:`StateMessage`, ``client`` no address, or
                the server is closed.
        """
        if not isinstance(message, StateMessage):
            raise UsageError(
                f"send_state() sends a StateMessage(frame, codec.encode(machine)), got "
                f"{type(message).__name__}"
            )
        self.endpoint.send(message, client)

    def close(self) -> None:
        """Stop listening (``clients`` then lists those known when it closed; sending
        raises)."""
        self.endpoint.close()

    # -- receiving ---------------------------------------------------------------------------

    def _now(self) -> float:
        return self._clock() if self._clock is not None else 0.0

    def _expire(self) -> None:
        """Forget the clients idle for ``client_timeout`` (they are kept least recent first).

        ``on_leave`` raising is logged: it must not lose the datagram being received, which
        may be another client's.
        """
        now = self._now()
        while self._clients:
            address, client = next(iter(self._clients.items()))
            if now - client.seen < self._timeout:
                return
            del self._clients[address]
            del self._joined[address]
            LOG.info("forgot client %s: idle for %.1f s", show(address), now - client.seen)
            if self._on_leave is not None:
                try:
                    self._on_leave(address)
                except Exception:
                    LOG.exception("on_leave(%s) raised", show(address))

    def _receive(self, message: Message, sender: Address) -> None:
        self._expire()
        if isinstance(message, HandshakeMessage) and message.kind is MessageKind.HELLO:
            self._hello(message, sender)
            return
        if not isinstance(message, InputMessage):
            raise PacketError("a server only receives inputs and hellos", bit=8)
        client = self._clients.get(sender)
        if client is None:  # no hello, or forgotten (its next hello rejoins): not parsed
            self.endpoint.count("refused")
            self._tell_stranger(sender)
            return
        parsed = [(frame, self._parsed(data)) for frame, data in message.frames()]
        self._heard(sender, client)
        for frame, value in parsed:
            client.queue.push(frame, value)
        self._on_inputs(sender, client.queue.pop_ready())

    def _parsed(self, data: bytes) -> InputT:
        try:
            return self._parse(data)
        except DecodeError:
            raise
        except Exception as error:  # the game's parser met hostile bytes: count, not crash
            kind = type(error).__name__
            if kind not in self._noted:
                self._noted.add(kind)
                LOG.warning(
                    "parse raised %s (%s); datagrams it fails on count as malformed", kind, error
                )
            raise PacketError(f"parse raised {kind}: {error}", bit=64) from error

    def _hello(self, hello: HandshakeMessage, sender: Address) -> None:
        if hello.fingerprint != self.fingerprint:
            detail = f"its wire schema is {hello.fingerprint}, this server's is {self.fingerprint}"
            self._refuse(sender, REFUSED_SCHEMA, detail)
            return
        new = sender not in self._clients  # else a repeated hello: welcomed again, no join
        if new and len(self._clients) >= self._max_clients:
            detail = (
                f"the server is full: {self._max_clients} clients, none idle for "
                f"{self._timeout:g} s"
            )
            self._refuse(sender, REFUSED_FULL, detail)
            return
        if new:  # its inputs start where its first datagram's do: it may join late
            self._clients[sender] = _Client(InputQueue(next_frame=None), self._now())
            self._joined[sender] = None
            LOG.info("welcomed client %s", show(sender))
        self._heard(sender, self._clients[sender])
        self.endpoint.send(HandshakeMessage(MessageKind.WELCOME, self.fingerprint), sender)
        if new and self._on_join is not None:
            self._on_join(sender)

    def _heard(self, sender: Address, client: _Client[InputT]) -> None:
        client.seen = self._now()
        self._clients.move_to_end(sender)

    def _tell_stranger(self, sender: Address) -> None:
        """Tell an address sending inputs without being a client (one forgotten while it
        was silent, say) to say hello again: at most ``max_clients`` such answers a second,
        each smaller than twice the smallest datagram of inputs, so forged senders cannot
        turn the server into an amplifier."""
        now = self._now()
        if now - self._told_since >= 1.0:
            self._told, self._told_since = 0, now
        if self._told < self._max_clients:
            self._told += 1
            refusal = HandshakeMessage(MessageKind.REFUSED, self.fingerprint, REFUSED_UNKNOWN)
            self.endpoint.send(refusal, sender)

    def _refuse(self, sender: Address, code: str, detail: str) -> None:
        """Count, log and answer a refused hello (a short code: the answer must not be much
        larger than the hello, or a forged sender address would amplify it)."""
        self.endpoint.count("refused")
        self.endpoint.send(HandshakeMessage(MessageKind.REFUSED, self.fingerprint, code), sender)
        now = self._now()
        if now < self._quiet_until:  # a flood of hellos is logged once a second
            self._unlogged += 1
            return
        more = f" ({self._unlogged} more refused since the last report)" if self._unlogged else ""
        LOG.warning("refused client %s: %s%s", show(sender), detail, more)
        self._unlogged = 0
        self._quiet_until = now + 1.0
