"""A client's side of the transport: a handshake, then inputs out and confirmed states in.

:meth:`StateClient.open` sends a hello with the client's wire-schema fingerprint, again every
``retry`` seconds until the server answers (a hello can be lost), and returns once the server
welcomes it. A refusal, or no answer within ``timeout`` seconds, raises
:class:`HandshakeError` naming both fingerprints or the reason, and closes the socket: a
client built from other code never decodes the server's packets into wrong states (states
that arrive before the welcome are refused). A server that forgot the client (silent too
long) says so when its inputs arrive, and the client says hello again by itself.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from typing import Any, cast

from statetree.errors import UsageError, require_callable
from statetree.net.conditioner import LinkConditioner
from statetree.net.errors import HandshakeError, PacketError
from statetree.net.messages import (
    HandshakeMessage,
    InputMessage,
    Message,
    MessageKind,
    StateMessage,
)
from statetree.net.server import LOG, REFUSED_FULL, REFUSED_SCHEMA, REFUSED_UNKNOWN
from statetree.net.transport import LOOPBACK, Address, Endpoint, open_endpoint, show

__all__ = ["StateClient"]

StateHandler = Callable[[StateMessage], None]


class StateClient:
    """A client's side: inputs out, confirmed states in. Open one with :meth:`open`."""

    def __init__(self, on_state: StateHandler, *, fingerprint: str) -> None:
        HandshakeMessage(MessageKind.HELLO, fingerprint)  # checks the fingerprint
        require_callable(on_state, "on_state")
        self.fingerprint = fingerprint
        self._on_state = on_state
        self._endpoint: Endpoint | None = None
        self._answer: asyncio.Future[HandshakeMessage] | None = None
        self._welcomed = False
        self.rejoins = 0
        """How many times the server forgot this client and it said hello again."""

    @classmethod
    async def open(
        cls,
        server: Address,
        on_state: StateHandler,
        *,
        fingerprint: str,
        address: Address = LOOPBACK,
        conditioner: LinkConditioner | None = None,
        timeout: float = 5.0,
        retry: float = 0.25,
    ) -> StateClient:
        """Bind to ``address``, talk to ``server`` only, and shake hands with it.

        Args:
            server: the authority's address.
            on_state: called with each state message; raising ``DecodeError`` (a packet the
                codec refuses) counts it as malformed.
            fingerprint: the wire-schema fingerprint of the codecs that decode the server's
                states (as the server's ``fingerprint``).
            address: where to bind; the IPv4 loopback by default.
            conditioner: what the link does to the hellos and inputs sent.
            timeout: seconds to wait for the server's answer.
            retry: seconds between hellos while no answer came.

        Raises:
            HandshakeError: the server refused (another wire schema, or full) or did not
                answer in time; the socket is closed.
            UsageError: ``fingerprint`` is not 16 hex digits, ``timeout`` or ``retry`` is
                not a number of seconds above 0, ``on_state`` is not callable, or
                ``server``, ``address`` or ``conditioner`` is wrong (nothing was opened).
        """
        for name, seconds in (("timeout", timeout), ("retry", retry)):
            if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
                raise UsageError(f"{name} is a number of seconds, got {seconds!r}")
            if not 0 < seconds < math.inf:  # NaN too: it would wait for ever
                raise UsageError(f"{name} is a number of seconds above 0, got {seconds!r}")
        client = cls(on_state, fingerprint=fingerprint)
        client._endpoint = await open_endpoint(
            client._receive, address=address, peer=server, conditioner=conditioner
        )
        try:
            await client._handshake(server, timeout, retry)
        except BaseException:
            client.close()
            raise
        return client

    @property
    def endpoint(self) -> Endpoint:
        """The client's socket."""
        if self._endpoint is None:
            raise UsageError("the client is not open: create it with StateClient.open(...)")
        return self._endpoint

    def send_inputs(self, last_frame: int, inputs: Sequence[bytes]) -> None:
        """Send the inputs of the frames ending at ``last_frame``, oldest first.

        Raises:
            UsageError: the inputs are not 1 to 255 ``bytes`` of one size (1 to 255 bytes),
                ``last_frame`` is no frame, or the client is closed.
        """
        # Anything but a list or tuple goes to InputMessage as it is, which refuses it.
        given = tuple(inputs) if isinstance(inputs, (list, tuple)) else cast(Any, inputs)
        self.endpoint.send(InputMessage(last_frame, given))

    def close(self) -> None:
        """Close the socket (sending then raises)."""
        self.endpoint.close()

    async def _handshake(self, server: Address, timeout: float, retry: float) -> None:
        loop = asyncio.get_running_loop()
        self._answer = answer = loop.create_future()
        deadline = loop.time() + timeout
        hello = HandshakeMessage(MessageKind.HELLO, self.fingerprint)
        while not answer.done():
            left = deadline - loop.time()
            if left <= 0:
                raise HandshakeError(
                    f"no answer within {timeout:g} s (is a server listening there?)",
                    peer=show(server),
                    ours=self.fingerprint,
                )
            self.endpoint.send(hello)
            await asyncio.wait([answer], timeout=min(retry, left))
        reply = answer.result()
        if reply.kind is MessageKind.REFUSED or reply.fingerprint != self.fingerprint:
            raise HandshakeError(
                _refusal(reply, self.fingerprint),
                peer=show(server),
                ours=self.fingerprint,
                theirs=reply.fingerprint,
            )
        self._welcomed = True

    def _receive(self, message: Message, sender: Address) -> None:
        if isinstance(message, HandshakeMessage):
            if message.kind is MessageKind.HELLO:
                raise PacketError("a client receives no hellos", bit=8)
            if self._answer is not None and not self._answer.done():
                self._answer.set_result(message)
            elif self._welcomed and message.reason == REFUSED_UNKNOWN:
                self._rejoin()
            return
        if not isinstance(message, StateMessage):
            raise PacketError("a client only receives states and handshake answers", bit=8)
        if not self._welcomed:  # no state is decoded before the schemas are known to match
            self.endpoint.count("refused")
            return
        self._on_state(message)

    def _rejoin(self) -> None:
        """The server forgot this client (it was silent too long): say hello again; the
        welcome joins it anew, and its next inputs are handed on from their oldest."""
        self.rejoins += 1
        LOG.info("the server forgot this client: saying hello again")
        self.endpoint.send(HandshakeMessage(MessageKind.HELLO, self.fingerprint))


def _refusal(reply: HandshakeMessage, ours: str) -> str:
    """What the server's answer (a refusal, or a welcome with another schema) means."""
    differ = (
        f"the server's fingerprint is {reply.fingerprint}, this client's is {ours}; the two "
        "programs encode machines differently (compare their schema files: statetree net "
        "schema --check)"
    )
    if reply.kind is MessageKind.WELCOME:  # no statetree server welcomes another schema
        return (
            f"it welcomed this client with another wire schema: {differ}, and a statetree "
            "server would have refused the client"
        )
    if reply.reason == REFUSED_SCHEMA:
        return f"it refused this client's wire schema: {differ}"
    if reply.reason == REFUSED_FULL:
        return "it is full (it has as many clients as it takes, none idle)"
    return f"it refused this client ({reply.reason or 'no reason given'})"
