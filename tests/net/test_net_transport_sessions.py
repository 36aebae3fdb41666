"""Sessions over loopback UDP: late joiners, forgotten clients that come back, states before
the welcome, closed sockets, addresses and options a socket cannot take, and one conditioner
shared by several endpoints."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from typing import Any

import pytest
from test_net_transport import SCHEMA, Raw, client, parse, run, server, until

from statetree.errors import UsageError
from statetree.net import (
    Address,
    EndpointStats,
    HandshakeMessage,
    LinkConditioner,
    LinkProfile,
    MessageKind,
    StateClient,
    StateMessage,
    StateServer,
    encode_message,
)


def test_a_late_joiner_gets_its_inputs_from_its_first_frame() -> None:
    async def scenario() -> None:
        delivered: list[tuple[int, int]] = []
        authority = await server(on_inputs=lambda sender, ready: delivered.extend(ready))
        player = await client(authority.endpoint.address)
        try:
            player.send_inputs(300, [b"\x01", b"\x02"])  # frames 299 and 300
            player.send_inputs(302, [b"\x03", b"\x04"])  # 301 was lost: 302 waits for it
            player.send_inputs(302, [b"\x02", b"\x03", b"\x04"])  # repeated from 300
            await until(lambda: len(delivered) == 4)
        finally:
            player.close()
            authority.close()
        assert delivered == [(299, 1), (300, 2), (301, 3), (302, 4)]

    run(scenario)


def test_a_forgotten_client_says_hello_again_and_goes_on_from_its_frame() -> None:
    async def scenario() -> None:
        now = [0.0]
        joins: list[Address] = []
        left: list[Address] = []
        delivered: list[tuple[int, int]] = []
        authority = await server(
            on_inputs=lambda sender, ready: delivered.extend(ready),
            client_timeout=3.0,
            clock=lambda: now[0],
            on_join=joins.append,
            on_leave=left.append,
        )
        player = await client(authority.endpoint.address)
        try:
            player.send_inputs(2, [b"\x01", b"\x02"])
            await until(lambda: delivered == [(1, 1), (2, 2)])
            now[0] = 10.0  # silent past the timeout: the next datagram finds it forgotten
            player.send_inputs(40, [b"\x28"])
            await until(lambda: len(joins) == 2)  # told, it said hello: joined anew
            assert (player.rejoins, left) == (1, [player.endpoint.address])
            player.send_inputs(41, [b"\x28", b"\x29"])  # its unconfirmed inputs, as ever
            await until(lambda: len(delivered) == 4)
        finally:
            player.close()
            authority.close()
        assert delivered == [(1, 1), (2, 2), (40, 40), (41, 41)]
        assert joins == [player.endpoint.address] * 2

    run(scenario)


def test_states_before_the_welcome_never_reach_the_game() -> None:
    async def scenario() -> None:
        received: list[StateMessage] = []
        impostor = Raw()  # a "server" that sends a state before it answers the hello
        address = impostor.socket.getsockname()
        opening = asyncio.ensure_future(
            StateClient.open(address, received.append, fingerprint=SCHEMA, timeout=5.0)
        )
        try:
            _, player_address = await impostor.receive_from()
            state = encode_message(StateMessage(7, b"\x40"))
            impostor.send(state, player_address)
            impostor.send(
                encode_message(HandshakeMessage(MessageKind.WELCOME, SCHEMA)), player_address
            )
            player = await opening
            try:
                await until(lambda: player.endpoint.stats.refused >= 1)
                impostor.send(state, player_address)
                await until(lambda: len(received) == 1)
            finally:
                player.close()
        finally:
            impostor.close()
        assert received == [StateMessage(7, b"\x40")]  # the one after the welcome only

    run(scenario)


def test_a_closed_client_or_server_refuses_to_send() -> None:
    async def scenario() -> None:
        authority = await server()
        player = await client(authority.endpoint.address)
        address = player.endpoint.address
        player.close()
        authority.close()
        for sending in (
            lambda: player.send_inputs(1, [b"\x01"]),
            lambda: authority.send_state(address, StateMessage(1, b"\x40")),
        ):
            with pytest.raises(UsageError) as refused:
                sending()
            assert str(refused.value) == "the endpoint's socket is closed (or was never opened)"
        assert player.endpoint.stats.sent == 1  # its hello; nothing counted after the close
        assert player.endpoint.closed and authority.endpoint.closed

    run(scenario)


@pytest.mark.parametrize(
    "address",
    [
        ("127.0.0.1", 70000),
        ("127.0.0.1", -1),
        ("127.0.0.1", 0),
        ("127.0.0.1", 9, 0, 0),
        ("127.0.\x000.1", 9),
        ("", 9),
        "127.0.0.1:9",
        ("127.0.0.1", True),
    ],
)
def test_an_address_no_socket_takes_is_refused_and_the_server_goes_on(address: Any) -> None:
    async def scenario() -> None:
        received: list[StateMessage] = []
        authority = await server()
        player = await client(authority.endpoint.address, on_state=received.append)
        try:
            with pytest.raises(UsageError) as refused:
                authority.send_state(address, StateMessage(1, b"\x40"))
            assert str(refused.value) == (
                "an address is a (host, port) tuple, a port of 1 to 65535, as received from a "
                f"client; got {address!r}"
            )
            authority.send_state(player.endpoint.address, StateMessage(2, b"\x40"))
            await until(lambda: len(received) == 1)  # the socket is still open
        finally:
            player.close()
            authority.close()
        assert authority.endpoint.stats.sent == 2  # the welcome and the state

    run(scenario)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda player: player.send_inputs(1, [b"x" * 256]),
            "an input message needs 1 to 255 inputs of one size, 1 to 255 bytes each",
        ),
        (
            lambda player: player.send_inputs(1, None),
            "inputs are a list of bytes, one per frame, got None (send_inputs(frame, [data]) "
            "for one)",
        ),
    ],
)
def test_inputs_a_message_cannot_carry_are_refused(call: Any, message: str) -> None:
    async def scenario() -> None:
        authority = await server()
        player = await client(authority.endpoint.address)
        try:
            with pytest.raises(UsageError) as refused:
                call(player)
            assert str(refused.value) == message
            assert player.endpoint.stats.sent == 1  # only its hello
        finally:
            player.close()
            authority.close()

    run(scenario)


def test_send_state_sends_a_state_message() -> None:
    async def scenario() -> None:
        authority = await server()
        try:
            with pytest.raises(UsageError) as refused:
                authority.send_state(("127.0.0.1", 9), b"\x40")  # type: ignore[arg-type]
            assert str(refused.value) == (
                "send_state() sends a StateMessage(frame, codec.encode(machine)), got bytes"
            )
        finally:
            authority.close()

    run(scenario)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_clients": "64"}, "max_clients must be a whole number of at least 1, not '64'"),
        ({"max_clients": 0}, "max_clients must be a whole number of at least 1, not 0"),
        ({"client_timeout": "10"}, "client_timeout must be a positive number, not '10'"),
        ({"parse": None}, "parse must be callable, got None (NoneType)"),
        ({"on_inputs": 5}, "on_inputs must be callable, got 5 (int)"),
        ({"on_join": "seat"}, "on_join must be callable, got 'seat' (str)"),
        ({"fingerprint": 5}, "a fingerprint is 16 hex digits, not 5"),
        ({"conditioner": "lossy"}, "a conditioner is a LinkConditioner, got 'lossy'"),
        (
            {"address": "127.0.0.1:0"},
            "the address to bind is a (host, port) tuple, a port of 0 to 65535, as received "
            "from a client; got '127.0.0.1:0'",
        ),
    ],
)
def test_server_options_are_checked_before_anything_opens(
    options: dict[str, Any], message: str
) -> None:
    async def scenario() -> None:
        given: dict[str, Any] = {
            "parse": parse,
            "on_inputs": lambda sender, ready: None,
            "fingerprint": SCHEMA,
            **options,
        }
        with pytest.raises(UsageError) as refused:
            await StateServer.open(given.pop("parse"), given.pop("on_inputs"), **given)
        assert str(refused.value) == message

    run(scenario)


def test_client_options_are_checked_before_anything_opens() -> None:
    async def scenario() -> None:
        with pytest.raises(UsageError, match=r"^on_state must be callable, got None"):
            await StateClient.open(("127.0.0.1", 9), None, fingerprint=SCHEMA)  # type: ignore[arg-type]
        with pytest.raises(UsageError, match=r"^the server's address is a \(host, port\) tuple"):
            await StateClient.open(("127.0.0.1", 0), print, fingerprint=SCHEMA)

    run(scenario)


def test_one_conditioner_serves_several_endpoints_and_a_close_drops_only_its_own() -> None:
    async def scenario() -> None:
        link = LinkConditioner(LinkProfile(latency=0.05), random.Random(1))
        states: dict[str, list[StateMessage]] = {"a": [], "b": []}
        authority = await server(conditioner=link)
        first = await client(
            authority.endpoint.address, on_state=states["a"].append, conditioner=link
        )
        second = await client(
            authority.endpoint.address, on_state=states["b"].append, conditioner=link
        )
        try:
            authority.send_state(first.endpoint.address, StateMessage(1, b"\x40"))
            authority.send_state(second.endpoint.address, StateMessage(1, b"\x40"))
            waiting = link.waiting
            first.close()  # its client closes; the server's datagrams are still in flight
            assert link.waiting == waiting
            await until(lambda: len(states["b"]) == 1)
        finally:
            second.close()
            authority.close()
        assert link.waiting == 0

    run(scenario)


def test_an_on_leave_that_raises_loses_no_other_clients_datagram(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def leaving(client_address: Address) -> None:
        raise RuntimeError("the game's on_leave failed")

    async def scenario() -> None:
        now = [0.0]
        delivered: list[tuple[Address, int]] = []
        authority = await server(
            on_inputs=lambda sender, ready: delivered.extend((sender, f) for f, _ in ready),
            client_timeout=3.0,
            clock=lambda: now[0],
            on_leave=leaving,
        )
        idle = await client(authority.endpoint.address)
        now[0] = 2.0
        busy = await client(authority.endpoint.address)
        try:
            now[0] = 4.0  # idle is forgotten when busy's inputs arrive
            busy.send_inputs(1, [b"\x01"])
            await until(lambda: delivered == [(busy.endpoint.address, 1)])
        finally:
            idle.close()
            busy.close()
            authority.close()
        assert authority.endpoint.stats == EndpointStats(sent=2, received=3)

    with caplog.at_level(logging.ERROR, logger="statetree.net"):
        run(scenario)
    (record,) = caplog.records
    assert record.getMessage().startswith("on_leave(127.0.0.1:")
    assert record.getMessage().endswith(") raised")
    assert record.exc_info is not None and str(record.exc_info[1]) == "the game's on_leave failed"


def test_an_endpoint_sends_from_its_own_loops_thread_only() -> None:
    async def scenario() -> None:
        authority = await server()
        player = await client(authority.endpoint.address)
        failures: list[BaseException] = []

        def elsewhere() -> None:
            try:
                player.send_inputs(1, [b"\x01"])
            except BaseException as error:
                failures.append(error)

        try:
            worker = threading.Thread(target=elsewhere)
            worker.start()
            await asyncio.to_thread(worker.join)
        finally:
            player.close()
            authority.close()
        (failure,) = failures
        assert isinstance(failure, UsageError)
        assert str(failure) == (
            "an endpoint sends from the thread running its event loop; from another thread, "
            "hand the call over with loop.call_soon_threadsafe"
        )
        assert player.endpoint.stats.sent == 1  # its hello only

    run(scenario)
