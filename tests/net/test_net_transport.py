"""UDP on loopback: the addresses bound, the handshake (and peers it refuses), inputs
delivered once each in frame order over a bad link, states back to the client, malformed
datagrams counted and dropped, and idle clients forgotten."""

from __future__ import annotations

import asyncio
import logging
import math
import random
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from net_samples import HERO, REUSE

from statetree.errors import UsageError
from statetree.net import (
    Address,
    Codec,
    EndpointStats,
    HandshakeError,
    HandshakeMessage,
    InputMessage,
    LinkConditioner,
    LinkProfile,
    MessageKind,
    PacketError,
    StateClient,
    StateMessage,
    StateServer,
    decode_message,
    encode_message,
)
from statetree.net.transport import show

SCHEMA = Codec.auto(HERO).fingerprint
OTHER = Codec.auto(REUSE).fingerprint


def parse(data: bytes) -> int:
    if len(data) != 1:
        raise PacketError(f"an input is one byte, not {len(data)}", bit=0)
    return data[0]


async def until(done: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.002)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())


async def server(**options: Any) -> StateServer[int]:
    on_inputs = options.pop("on_inputs", lambda client, ready: None)
    return await StateServer.open(parse, on_inputs, fingerprint=SCHEMA, **options)


async def client(address: Address, **options: Any) -> StateClient:
    on_state = options.pop("on_state", lambda message: None)
    fingerprint = options.pop("fingerprint", SCHEMA)
    return await StateClient.open(address, on_state, fingerprint=fingerprint, **options)


class Raw:
    """A bare UDP socket on loopback, to send what no well-behaved client would."""

    def __init__(self) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.setblocking(False)

    def send(self, data: bytes, to: Address) -> None:
        self.socket.sendto(data, to)

    async def receive(self) -> bytes:
        loop = asyncio.get_running_loop()
        return await asyncio.wait_for(loop.sock_recv(self.socket, 2048), 5.0)

    async def receive_from(self) -> tuple[bytes, Address]:
        """The next datagram and its sender, once the socket is readable (as
        ``loop.sock_recvfrom`` does, which CPython 3.10 lacks)."""
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()

        def ready() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(self.socket, ready)
        try:
            await asyncio.wait_for(readable, 5.0)
        finally:
            loop.remove_reader(self.socket)
        data, sender = self.socket.recvfrom(2048)
        return data, sender

    async def join(self, to: Address) -> None:
        self.send(encode_message(HandshakeMessage(MessageKind.HELLO, SCHEMA)), to)
        assert decode_message(await self.receive()) == HandshakeMessage(MessageKind.WELCOME, SCHEMA)

    def close(self) -> None:
        self.socket.close()


def test_server_and_client_bind_only_the_address_given() -> None:
    async def scenario() -> None:
        authority = await server()
        player = await client(authority.endpoint.address)
        try:
            for endpoint in (authority.endpoint, player.endpoint):
                host, port = endpoint.address
                assert host == "127.0.0.1"
                assert port > 0
            assert authority.clients == (player.endpoint.address,)
        finally:
            player.close()
            authority.close()

    run(scenario)


def test_a_client_with_another_wire_schema_is_refused_naming_both(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def scenario() -> None:
        authority = await server()
        port = authority.endpoint.address[1]
        try:
            with pytest.raises(HandshakeError) as refused:
                await client(authority.endpoint.address, fingerprint=OTHER)
        finally:
            authority.close()
        error = refused.value
        assert (error.peer, error.ours, error.theirs) == (f"127.0.0.1:{port}", OTHER, SCHEMA)
        assert str(error) == (
            f"handshake with the server at 127.0.0.1:{port} failed: it refused this client's "
            f"wire schema: the server's fingerprint is {SCHEMA}, this client's is {OTHER}; "
            "the two programs encode machines differently (compare their schema files: "
            "statetree net schema --check)"
        )
        assert authority.clients == ()
        assert authority.endpoint.stats.refused == 1

    with caplog.at_level(logging.WARNING, "statetree.net"):
        run(scenario)
    assert any(
        f"its wire schema is {OTHER}, this server's is {SCHEMA}" in record.getMessage()
        for record in caplog.records
    )


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (
            HandshakeMessage(MessageKind.WELCOME, OTHER),
            f"it welcomed this client with another wire schema: the server's fingerprint is "
            f"{OTHER}, this client's is {SCHEMA}; the two programs encode machines "
            "differently (compare their schema files: statetree net schema --check), and a "
            "statetree server would have refused the client",
        ),
        (
            HandshakeMessage(MessageKind.REFUSED, SCHEMA, "maintenance"),
            "it refused this client (maintenance)",
        ),
        (HandshakeMessage(MessageKind.REFUSED, SCHEMA), "it refused this client (no reason given)"),
    ],
    ids=["welcome with another schema", "refusal with a reason", "refusal without one"],
)
def test_a_rogue_servers_answer_is_reported_as_it_was(
    answer: HandshakeMessage, reason: str
) -> None:
    async def scenario() -> None:
        rogue = Raw()
        address = rogue.socket.getsockname()

        async def answer_the_hello() -> None:
            data, sender = await rogue.receive_from()
            assert decode_message(data) == HandshakeMessage(MessageKind.HELLO, SCHEMA)
            rogue.send(encode_message(answer), sender)

        answering = asyncio.create_task(answer_the_hello())
        try:
            with pytest.raises(HandshakeError) as error:
                await client(address, timeout=5.0, retry=5.0)
            await answering
        finally:
            rogue.close()
        assert str(error.value) == (
            f"handshake with the server at 127.0.0.1:{address[1]} failed: {reason}"
        )
        assert (error.value.ours, error.value.theirs) == (SCHEMA, answer.fingerprint)

    run(scenario)


def test_a_client_nobody_answers_gives_up_after_its_timeout() -> None:
    async def scenario() -> None:
        silent = Raw()  # bound, so the port is taken, but it never answers
        try:
            address = silent.socket.getsockname()
            with pytest.raises(HandshakeError) as error:
                await client(address, timeout=0.05, retry=0.01)
        finally:
            silent.close()
        assert str(error.value) == (
            f"handshake with the server at 127.0.0.1:{address[1]} failed: no answer within "
            "0.05 s (is a server listening there?)"
        )
        assert error.value.theirs is None

    run(scenario)


def test_inputs_arrive_once_each_in_frame_order_over_a_bad_link() -> None:
    async def scenario() -> None:
        delivered: list[tuple[Address, int, int]] = []

        def on_inputs(sender: Address, ready: list[tuple[int, int]]) -> None:
            delivered.extend((sender, frame, value) for frame, value in ready)

        authority = await server(on_inputs=on_inputs)
        profile = LinkProfile(latency=0.001, jitter=0.002, loss=0.3, duplicate=0.3, reorder=0.3)
        link = LinkConditioner(profile, random.Random(5))
        # Hellos are lost too: the client sends them again until the server answers.
        player = await client(authority.endpoint.address, conditioner=link, retry=0.01)
        inputs = [bytes([frame % 256]) for frame in range(1, 41)]
        try:
            for last in range(1, 41):  # each datagram repeats up to four earlier inputs
                player.send_inputs(last, inputs[max(0, last - 5) : last])
                await asyncio.sleep(0.0005)
            while len(delivered) < 40:  # and whatever was lost is sent again
                done = len(delivered)
                player.send_inputs(min(done + 5, 40), inputs[done : done + 5])
                await asyncio.sleep(0.003)
        finally:
            player.close()
            authority.close()
        assert [(frame, value) for _, frame, value in delivered] == [
            (frame, frame % 256) for frame in range(1, 41)
        ]
        assert {address for address, _, _ in delivered} == {player.endpoint.address}
        assert link.stats.dropped > 0
        assert link.stats.duplicated > 0

    run(scenario)


def test_states_reach_the_client_and_bad_ones_are_dropped() -> None:
    async def scenario() -> None:
        received: list[StateMessage] = []

        def on_state(message: StateMessage) -> None:
            if message.state == b"\xff":
                raise PacketError("the codec refuses it", bit=0)
            received.append(message)

        authority = await server(
            on_inputs=lambda sender, ready: authority.send_state(sender, StateMessage(1, b"\x40"))
        )
        player = await client(authority.endpoint.address, on_state=on_state)
        try:
            player.send_inputs(1, [b"\x00"])
            await until(lambda: len(received) == 1)
            authority.send_state(player.endpoint.address, StateMessage(2, b"\xff"))
            await until(lambda: player.endpoint.stats.malformed == 1)
        finally:
            player.close()
            authority.close()
        assert received == [StateMessage(1, b"\x40")]
        assert player.endpoint.stats.received == 2  # the welcome, then the good state

    run(scenario)


def test_an_address_that_is_no_tuple_is_refused_and_the_socket_stays_open() -> None:
    async def scenario() -> None:
        received: list[StateMessage] = []
        authority = await server()
        player = await client(authority.endpoint.address, on_state=received.append)
        try:
            host, port = player.endpoint.address[:2]
            sent = authority.endpoint.stats.sent
            with pytest.raises(UsageError, match=r"^an address is a \(host, port\) tuple"):
                authority.send_state([host, port], StateMessage(1, b"\x40"))  # type: ignore[arg-type]
            assert authority.endpoint.stats.sent == sent  # nothing was counted as sent
            authority.send_state((host, port), StateMessage(1, b"\x40"))
            await until(lambda: len(received) == 1)
        finally:
            player.close()
            authority.close()
        assert received == [StateMessage(1, b"\x40")]

    run(scenario)


def test_malformed_datagrams_are_counted_and_dropped() -> None:
    async def scenario() -> None:
        delivered: list[tuple[int, int]] = []
        authority = await server(on_inputs=lambda sender, ready: delivered.extend(ready))
        raw = Raw()
        try:
            await raw.join(authority.endpoint.address)
            for garbage in (
                b"hello",  # not a message
                encode_message(StateMessage(1, b"")),  # a server takes no states
                bytes.fromhex("5e 01 00 00 00 01 00 03 02 01 02"),  # an input parse refuses
            ):
                raw.send(garbage, authority.endpoint.address)
            raw.send(bytes.fromhex("5e 01 00 00 00 01 00 02 01 07"), authority.endpoint.address)
            await until(lambda: authority.endpoint.stats.received == 2)
        finally:
            raw.close()
            authority.close()
        assert authority.endpoint.stats.malformed == 3
        assert delivered == [(1, 7)]

    run(scenario)


def test_inputs_without_a_handshake_are_refused() -> None:
    async def scenario() -> None:
        delivered: list[tuple[int, int]] = []
        authority = await server(on_inputs=lambda sender, ready: delivered.extend(ready))
        raw = Raw()
        try:
            raw.send(encode_message(InputMessage(1, (b"\x07",))), authority.endpoint.address)
            await until(lambda: authority.endpoint.stats.refused == 1)
        finally:
            raw.close()
            authority.close()
        assert delivered == []
        assert authority.clients == ()

    run(scenario)


def test_inputs_from_an_unknown_sender_are_refused_without_parsing() -> None:
    parsed: list[bytes] = []

    def recording(data: bytes) -> int:
        parsed.append(data)
        return 10 // data[0]  # a ZeroDivisionError for 0x00

    async def scenario() -> None:
        delivered: list[tuple[int, int]] = []
        authority = await StateServer.open(
            recording, lambda sender, ready: delivered.extend(ready), fingerprint=SCHEMA
        )
        raw = Raw()
        try:
            for value in (0, 5):  # one parse would fail on, one it would accept
                message = InputMessage(1, (bytes([value]),))
                raw.send(encode_message(message), authority.endpoint.address)
            await until(lambda: authority.endpoint.stats.refused == 2)
            assert parsed == []
            # Each is answered "who are you?", for a client the server forgot.
            assert authority.endpoint.stats == EndpointStats(sent=2, refused=2)
            for _ in range(2):
                answer = decode_message(await raw.receive())
                assert answer == HandshakeMessage(MessageKind.REFUSED, SCHEMA, "who")
            await raw.join(authority.endpoint.address)
            raw.send(encode_message(InputMessage(1, (b"\x05",))), authority.endpoint.address)
            await until(lambda: delivered == [(1, 2)])
        finally:
            raw.close()
            authority.close()
        assert parsed == [b"\x05"]
        assert authority.endpoint.stats == EndpointStats(sent=3, received=2, refused=2)

    run(scenario)


def counted(stats: EndpointStats) -> int:
    """How many datagrams an endpoint received and counted, whatever their fate."""
    return stats.received + stats.malformed + stats.refused


def test_each_datagram_counts_once_as_received_malformed_or_refused() -> None:
    async def scenario() -> None:
        authority = await server(max_clients=1)
        address = authority.endpoint.address
        member, stranger, outsider = Raw(), Raw(), Raw()
        try:
            await member.join(address)
            stranger.send(encode_message(HandshakeMessage(MessageKind.HELLO, SCHEMA)), address)
            refusal = decode_message(await stranger.receive())  # full
            assert refusal == HandshakeMessage(MessageKind.REFUSED, SCHEMA, "full")
            outsider.send(encode_message(HandshakeMessage(MessageKind.HELLO, OTHER)), address)
            refusal = decode_message(await outsider.receive())  # another wire schema
            assert refusal == HandshakeMessage(MessageKind.REFUSED, SCHEMA, "schema")
            stranger.send(encode_message(InputMessage(1, (b"\x01",))), address)  # no hello
            member.send(b"garbage", address)
            member.send(encode_message(InputMessage(1, (b"\x01",))), address)
            await until(lambda: counted(authority.endpoint.stats) == 6)
        finally:
            for socket_ in (member, stranger, outsider):
                socket_.close()
            authority.close()
        assert authority.endpoint.stats == EndpointStats(
            sent=4, received=2, malformed=1, refused=3, errors=0
        )

    run(scenario)


def test_a_parse_that_raises_anything_counts_the_datagram_as_malformed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def fragile(data: bytes) -> int:
        return {1: 10}[data[0]]  # a KeyError for anything but 0x01

    async def scenario() -> None:
        loop_errors: list[dict[str, Any]] = []
        asyncio.get_running_loop().set_exception_handler(lambda loop, ctx: loop_errors.append(ctx))
        delivered: list[tuple[int, int]] = []
        authority = await StateServer.open(
            fragile, lambda sender, ready: delivered.extend(ready), fingerprint=SCHEMA
        )
        raw = Raw()
        try:
            await raw.join(authority.endpoint.address)
            for value in (5, 6, 1):
                message = InputMessage(1, (bytes([value]),))
                raw.send(encode_message(message), authority.endpoint.address)
            await until(lambda: authority.endpoint.stats.received == 2)
        finally:
            raw.close()
            authority.close()
        assert authority.endpoint.stats.malformed == 2
        assert delivered == [(1, 10)]
        assert loop_errors == []

    with caplog.at_level(logging.WARNING, "statetree.net"):
        run(scenario)
    warnings = [r.getMessage() for r in caplog.records if "parse raised" in r.getMessage()]
    assert warnings == ["parse raised KeyError (5); datagrams it fails on count as malformed"]


def test_a_full_server_refuses_with_a_logged_reason(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        authority = await server(max_clients=1)
        first = await client(authority.endpoint.address)
        try:
            with pytest.raises(HandshakeError, match=r"failed: it is full \(it has as many"):
                await client(authority.endpoint.address)
        finally:
            first.close()
            authority.close()
        assert authority.clients == (first.endpoint.address,)
        assert authority.endpoint.stats.refused == 1

    with caplog.at_level(logging.WARNING, "statetree.net"):
        run(scenario)
    assert [r.getMessage().split(": ", 1)[1] for r in caplog.records] == [
        "the server is full: 1 clients, none idle for 10 s"
    ]


def test_idle_clients_are_forgotten_after_the_timeout() -> None:
    async def scenario() -> None:
        now = [0.0]
        left: list[Address] = []
        delivered: list[tuple[int, int]] = []
        authority = await server(
            on_inputs=lambda sender, ready: delivered.extend(ready),
            max_clients=1,
            client_timeout=3.0,
            clock=lambda: now[0],
            on_leave=left.append,
        )
        first = await client(authority.endpoint.address)
        try:
            now[0] = 2.0
            first.send_inputs(1, [b"\x01"])  # heard from at 2.0: idle until 5.0
            await until(lambda: delivered == [(1, 1)])
            now[0] = 4.9
            assert authority.clients == (first.endpoint.address,)
            with pytest.raises(HandshakeError, match="it is full"):
                await client(authority.endpoint.address)
            now[0] = 5.0  # now first has been idle for the whole timeout
            second = await client(authority.endpoint.address)
            joined = second.endpoint.address
            second.close()
            # Forgotten: refused, and told; it says hello again, and the server is full.
            first.send_inputs(2, [b"\x02"])
            await until(lambda: authority.endpoint.stats.refused == 3)
            assert first.rejoins == 1
            assert left == [first.endpoint.address]
        finally:
            first.close()
            authority.close()
        assert authority.clients == (joined,)
        assert delivered == [(1, 1)]

    run(scenario)


def test_clients_join_once_each_in_the_order_their_hellos_arrive() -> None:
    async def scenario() -> None:
        now = [0.0]
        joins: list[Address] = []
        leaves: list[Address] = []
        delivered: list[tuple[Address, list[tuple[int, int]]]] = []
        authority = await server(
            on_inputs=lambda sender, ready: delivered.append((sender, ready)),
            client_timeout=3.0,
            clock=lambda: now[0],
            on_join=joins.append,
            on_leave=leaves.append,
        )
        to = authority.endpoint.address
        raws = [Raw() for _ in range(3)]
        first, second, third = (raw.socket.getsockname() for raw in raws)
        try:
            for raw in raws:
                await raw.join(to)  # the welcome is sent, then on_join runs at once
            assert joins == [first, second, third]
            now[0] = 1.0
            await raws[1].join(to)  # a repeated hello is welcomed again, not a new join
            raws[0].send(encode_message(InputMessage(1, (b"\x07",))), to)
            await until(lambda: delivered == [(first, [(1, 7)])])
            assert joins == [first, second, third]
            assert authority.clients == (first, second, third)  # join order, not recency
            now[0] = 3.5  # the third has been idle for 3.5 s, the others for 2.5 s
            assert authority.clients == (first, second)
            await raws[2].join(to)
            assert (joins, leaves) == ([first, second, third, third], [third])
            assert authority.clients == (first, second, third)
        finally:
            for raw in raws:
                raw.close()
            authority.close()

    run(scenario)


def test_one_datagram_from_each_of_many_ports_no_longer_fills_the_table_for_good() -> None:
    async def scenario() -> None:
        now = [0.0]
        authority = await server(max_clients=4, client_timeout=1.0, clock=lambda: now[0])
        raws = [Raw() for _ in range(4)]
        try:
            for raw in raws:
                await raw.join(authority.endpoint.address)
            assert len(authority.clients) == 4
            now[0] = 1.0
            player = await client(authority.endpoint.address)
            joined = player.endpoint.address
            player.close()
        finally:
            for raw in raws:
                raw.close()
            authority.close()
        assert authority.clients == (joined,)

    run(scenario)


def test_endpoints_not_opened_and_bad_options_say_so() -> None:
    with pytest.raises(UsageError, match=r"^the server is not open: create it with StateServer"):
        _ = StateServer(parse, lambda sender, ready: None, fingerprint=SCHEMA).endpoint
    with pytest.raises(UsageError, match=r"^the client is not open: create it with StateClient"):
        StateClient(lambda message: None, fingerprint=SCHEMA).send_inputs(1, [b"\x00"])
    with pytest.raises(UsageError, match=r"^a fingerprint is 16 hex digits, not 'v1'$"):
        StateServer(parse, lambda sender, ready: None, fingerprint="v1")
    with pytest.raises(UsageError, match=r"^client_timeout must be a positive number, not 0$"):
        StateServer(parse, lambda sender, ready: None, fingerprint=SCHEMA, client_timeout=0)


def test_an_address_is_shown_as_it_is_written_to_reach_it() -> None:
    assert show(("127.0.0.1", 7777)) == "127.0.0.1:7777"
    assert show(("::1", 7777)) == "[::1]:7777"
    assert show(("fe80::1%eth0", 9000, 0, 2)) == "[fe80::1%eth0]:9000"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"timeout": math.nan}, "timeout is a number of seconds above 0, got nan"),
        ({"retry": 0}, "retry is a number of seconds above 0, got 0"),
        ({"timeout": "5"}, "timeout is a number of seconds, got '5'"),
    ],
)
def test_a_client_waits_a_number_of_seconds(options: dict[str, Any], message: str) -> None:
    async def scenario() -> None:
        with pytest.raises(UsageError) as refused:
            await client(("127.0.0.1", 9), **options)
        assert str(refused.value) == message

    run(scenario)
