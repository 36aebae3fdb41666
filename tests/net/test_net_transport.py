"""UDP on loopback: the addresses bound, inputs delivered once each in frame order over a bad
link, states back to the client, and malformed datagrams counted and dropped."""

from __future__ import annotations

import asyncio
import random
import socket
from collections.abc import Awaitable, Callable

import pytest

from statetree.errors import UsageError
from statetree.net import (
    Address,
    LinkConditioner,
    LinkProfile,
    PacketError,
    StateClient,
    StateMessage,
    StateServer,
    encode_message,
)


def parse(data: bytes) -> int:
    if len(data) != 1:
        raise PacketError(f"an input is one byte, not {len(data)}", bit=0)
    return data[0]


async def until(done: Callable[[], bool], timeout: float = 2.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not done():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.002)


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())


def test_server_and_client_bind_only_the_address_given() -> None:
    async def scenario() -> None:
        server = await StateServer.open(parse, lambda client, ready: None)
        client = await StateClient.open(server.endpoint.address, lambda message: None)
        try:
            for endpoint in (server.endpoint, client.endpoint):
                host, port = endpoint.address
                assert host == "127.0.0.1"
                assert port > 0
        finally:
            client.close()
            server.close()

    run(scenario)


def test_inputs_arrive_once_each_in_frame_order_over_a_bad_link() -> None:
    async def scenario() -> None:
        delivered: list[tuple[Address, int, int]] = []

        def on_inputs(client: Address, ready: list[tuple[int, int]]) -> None:
            delivered.extend((client, frame, value) for frame, value in ready)

        server = await StateServer.open(parse, on_inputs)
        profile = LinkProfile(latency=0.001, jitter=0.002, loss=0.3, duplicate=0.3, reorder=0.3)
        link = LinkConditioner(profile, random.Random(5))
        client = await StateClient.open(server.endpoint.address, lambda m: None, conditioner=link)
        inputs = [bytes([frame % 256]) for frame in range(1, 41)]
        try:
            for last in range(1, 41):  # each datagram repeats up to four earlier inputs
                client.send_inputs(last, inputs[max(0, last - 5) : last])
                await asyncio.sleep(0.0005)
            while len(delivered) < 40:  # and whatever was lost is sent again
                done = len(delivered)
                client.send_inputs(min(done + 5, 40), inputs[done : done + 5])
                await asyncio.sleep(0.003)
        finally:
            client.close()
            server.close()
        assert [(frame, value) for _, frame, value in delivered] == [
            (frame, frame % 256) for frame in range(1, 41)
        ]
        assert {address for address, _, _ in delivered} == {client.endpoint.address}
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

        server = await StateServer.open(
            parse, lambda client, ready: server.send_state(client, StateMessage(1, b"\x40"))
        )
        client = await StateClient.open(server.endpoint.address, on_state)
        try:
            client.send_inputs(1, [b"\x00"])
            await until(lambda: len(received) == 1)
            server.send_state(client.endpoint.address, StateMessage(2, b"\xff"))
            await until(lambda: client.endpoint.stats.malformed == 1)
        finally:
            client.close()
            server.close()
        assert received == [StateMessage(1, b"\x40")]
        assert client.endpoint.stats.received == 1

    run(scenario)


def test_malformed_datagrams_are_counted_and_dropped() -> None:
    async def scenario() -> None:
        delivered: list[tuple[int, int]] = []
        server = await StateServer.open(parse, lambda client, ready: delivered.extend(ready))
        raw = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        raw.bind(("127.0.0.1", 0))
        try:
            for garbage in (
                b"hello",  # not a message
                encode_message(StateMessage(1, b"")),  # a server takes no states
                bytes.fromhex("5e 01 00 00 00 01 00 03 02 01 02"),  # an input parse refuses
            ):
                raw.sendto(garbage, server.endpoint.address)
            raw.sendto(bytes.fromhex("5e 01 00 00 00 01 00 02 01 07"), server.endpoint.address)
            await until(lambda: server.endpoint.stats.received == 1)
        finally:
            raw.close()
            server.close()
        assert server.endpoint.stats.malformed == 3
        assert delivered == [(1, 7)]

    run(scenario)


def test_clients_beyond_the_limit_are_refused() -> None:
    async def scenario() -> None:
        seen: list[Address] = []
        server = await StateServer.open(
            parse, lambda client, ready: seen.append(client), max_clients=1
        )
        first = await StateClient.open(server.endpoint.address, lambda m: None)
        second = await StateClient.open(server.endpoint.address, lambda m: None)
        try:
            first.send_inputs(1, [b"\x01"])
            await until(lambda: len(seen) == 1)
            second.send_inputs(1, [b"\x01"])
            await until(lambda: server.endpoint.stats.refused == 1)
        finally:
            first.close()
            second.close()
            server.close()
        assert server.clients == (first.endpoint.address,)
        second.send_inputs(2, [b"\x01"])  # after closing: silently nothing

    run(scenario)


def test_an_endpoint_not_opened_says_so() -> None:
    with pytest.raises(UsageError, match=r"^the server is not open: create it with StateServer"):
        _ = StateServer(parse, lambda client, ready: None).endpoint
    with pytest.raises(UsageError, match=r"^the client is not open: create it with StateClient"):
        StateClient(lambda message: None).send_inputs(1, [b"\x00"])
