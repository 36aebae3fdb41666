"""A server-authoritative character and two predicting clients, over UDP on 127.0.0.1.

Run ``python examples/net_character.py [--frames N] [--loss P] [--seed S]``. The character is
the book's controller: Alive{Locomotion{Stand, Move}, Jump} and Dead. Move carries its
direction, Jump the frame it started and Dead the frame it respawns: those payloads are the
states' ``on_enter`` arguments, so a received packet re-enters them as they were.

Each client predicts its own character from its inputs and sends them to the server (every
datagram repeats the inputs not yet confirmed). The server runs each client's character on
those inputs, plus hazards only it knows about (damage from a seeded random source), and
sends back the confirmed state of every frame. A client whose prediction was wrong rolls
back to the confirmed state and re-simulates the frames since. The jump sound plays when a
jump is predicted, never again when it is re-simulated or received. Links drop, duplicate,
delay and reorder datagrams.
"""

from __future__ import annotations

import argparse
import asyncio
import enum
import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

from extras import at_least, fraction

import statetree as st
from statetree import net
from statetree.structure import children, derive, outermost

SPEED = 0.25
JUMP_FRAMES = 12
RESPAWN_FRAMES = 20
DAMAGE = 60
WRAP = 1 << 16
"""Frame stamps in payloads are 16-bit: frames are compared modulo WRAP."""
UNCONFIRMED_SENT = 32
"""At most this many unconfirmed inputs go in one datagram (oldest first)."""


class Direction(enum.Enum):
    LEFT = -1
    RIGHT = 1


@dataclass(frozen=True)
class Inputs:
    """What a player holds during one frame; one byte on the wire."""

    left: bool = False
    right: bool = False
    jump: bool = False

    @property
    def direction(self) -> Direction | None:
        if self.left == self.right:
            return None
        return Direction.LEFT if self.left else Direction.RIGHT

    def pack(self) -> bytes:
        return bytes([self.left | self.right << 1 | self.jump << 2])

    @classmethod
    def unpack(cls, data: bytes) -> Inputs:
        """Raises ``PacketError`` for anything but one byte with only the three low bits."""
        if len(data) != 1 or data[0] > 0b111:
            raise net.PacketError(f"{data!r} is not one input byte", bit=0)
        bits = data[0]
        return cls(bool(bits & 1), bool(bits & 2), bool(bits & 4))


@dataclass(frozen=True)
class Body:
    """The owner's data the states do not hold: sent with the state, compared by value."""

    x: float
    y: float
    health: int

    _FORMAT = struct.Struct(">ddh")

    def pack(self) -> bytes:
        return self._FORMAT.pack(self.x, self.y, self.health)

    @classmethod
    def unpack(cls, data: bytes) -> Body:
        if len(data) != cls._FORMAT.size:
            raise net.PacketError(f"body data of {len(data)} bytes", bit=0)
        return cls(*cls._FORMAT.unpack(data))


class Character:
    """The owner: inputs and body, the sounds played, and the machine."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.frame = 0
        self.inputs = Inputs()
        self.x = self.y = 0.0
        self.health = 100
        self.sounds: list[tuple[int, st.Cause]] = []
        self.machine = st.StateMachine(CharacterStates.Alive, self, name=name)
        self.machine.process_state_transitions()

    def step(self, frame: int, inputs: Inputs) -> None:
        """One frame, the same on the server and the clients."""
        self.frame = frame
        self.inputs = inputs
        self.machine.process_state_transitions()
        self.machine.update_states()

    def snapshot(self) -> Body:
        return Body(self.x, self.y, self.health)

    def restore(self, body: Body) -> None:
        self.x, self.y, self.health = body.x, body.y, body.health


def since(frame: int, stamp: int) -> int:
    """Frames from the 16-bit ``stamp`` to ``frame``."""
    return (frame - stamp) % WRAP


class CharacterStates:
    # The order of the states inside each parent numbers them on the wire: declared, it
    # stays put when the code is refactored (statetree check warns where it is not).
    @outermost("Alive", "Dead")
    @children("Locomotion", "Jump")
    class Alive(st.State[Character]):
        def on_enter(self) -> None:
            self.owner.health = 100

        def transition(self) -> st.Transition | None:
            if self.owner.health <= 0:
                return st.sibling(CharacterStates.Dead, (self.owner.frame + RESPAWN_FRAMES) % WRAP)
            return st.inner_entry(CharacterStates.Locomotion)

    class Dead(st.State[Character]):
        net_fields = (net.UInt(16),)

        def on_enter(self, respawn_at: int) -> None:
            self.respawn_at = respawn_at

        def net_payload(self) -> tuple[int]:
            return (self.respawn_at,)

        def transition(self) -> st.Transition | None:
            if since(self.owner.frame, self.respawn_at) < WRAP // 2:
                return st.sibling(CharacterStates.Alive)
            return None

    @children("Stand", "Move")
    class Locomotion(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.inputs.jump:
                return st.sibling(CharacterStates.Jump, self.owner.frame % WRAP)
            return st.inner_entry(CharacterStates.Stand)

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            direction = self.owner.inputs.direction
            return None if direction is None else st.sibling(CharacterStates.Move, direction)

    class Move(st.State[Character]):
        net_fields = (net.Enum(Direction),)

        def on_enter(self, direction: Direction) -> None:
            self.direction = direction

        def net_payload(self) -> tuple[Direction]:
            return (self.direction,)

        def transition(self) -> st.Transition | None:
            direction = self.owner.inputs.direction
            if direction is None:
                return st.sibling(CharacterStates.Stand)
            if direction is not self.direction:
                return st.sibling(CharacterStates.Move, direction)
            return None

        def update(self) -> None:
            self.owner.x += self.direction.value * SPEED

    class Jump(st.State[Character]):
        net_fields = (net.UInt(16),)

        def on_enter(self, started: int) -> None:
            self.started = started
            # Played when the jump happens, predicted or not; a re-simulated or received
            # jump was already heard (or is too late to be).
            if self.cause in (st.Cause.TRANSITION, st.Cause.PREDICTION):
                self.owner.sounds.append((started, self.cause))

        def on_exit(self) -> None:
            self.owner.y = 0.0

        def net_payload(self) -> tuple[int]:
            return (self.started,)

        def transition(self) -> st.Transition | None:
            if since(self.owner.frame, self.started) >= JUMP_FRAMES:
                return st.sibling(CharacterStates.Locomotion)
            return None

        def update(self) -> None:
            elapsed = since(self.owner.frame, self.started)
            self.owner.y = elapsed * (JUMP_FRAMES - elapsed) * 0.125


CODEC = net.Codec.auto(derive(CharacterStates.Alive))


def script(seed: int, frames: int) -> list[Inputs]:
    """A player's inputs: keys held for a few frames at a time, from a seeded source."""
    rng = random.Random(seed)
    inputs: list[Inputs] = []
    while len(inputs) < frames:
        held = Inputs(rng.random() < 0.3, rng.random() < 0.4, rng.random() < 0.15)
        inputs += [held] * rng.randint(2, 8)
    return inputs[:frames]


# -- the server -----------------------------------------------------------------------------


@dataclass
class Hosted:
    """A client's character on the server, with the hazards only the server knows."""

    character: Character
    hazards: random.Random
    state_bytes: list[int] = field(default_factory=list)


class Authority:
    """Runs each client's character on its inputs and confirms every frame."""

    def __init__(self, seed: int, damage_chance: float) -> None:
        self.seed = seed
        self.damage_chance = damage_chance
        self.hosted: dict[net.Address, Hosted] = {}
        self.server: net.StateServer[Inputs] | None = None

    def on_inputs(self, client: net.Address, ready: list[tuple[int, Inputs]]) -> None:
        hosted = self.hosted.get(client)
        if hosted is None:
            rng = random.Random(self.seed * 1000 + len(self.hosted))
            hosted = self.hosted[client] = Hosted(Character(f"server-{client[1]}"), rng)
        character = hosted.character
        for frame, inputs in ready:
            if hosted.hazards.random() < self.damage_chance:
                character.health -= DAMAGE
            character.step(frame, inputs)
        if character.frame and self.server is not None:
            state = CODEC.encode(character.machine)
            hosted.state_bytes.append(len(state))
            message = net.StateMessage(character.frame, state, character.snapshot().pack())
            self.server.send_state(client, message)


# -- a client -------------------------------------------------------------------------------


class Player:
    """A client: predicts its character, sends inputs, corrects from confirmed states."""

    def __init__(self, name: str, inputs: list[Inputs]) -> None:
        self.name = name
        self.script = inputs
        self.character = Character(name)
        self.rollback = net.Rollback(
            self.character.machine,
            CODEC,
            self.character.step,
            snapshot=self.character.snapshot,
            restore=self.character.restore,
        )
        self.client: net.StateClient | None = None

    @property
    def done(self) -> bool:
        rollback = self.rollback
        return rollback.frame == len(self.script) and rollback.confirmed_frame == rollback.frame

    def tick(self) -> None:
        """One client frame: predict the next one (if any is left), send what is unconfirmed."""
        rollback = self.rollback
        if rollback.frame < len(self.script):
            rollback.advance(self.script[rollback.frame])
        waiting = rollback.unconfirmed_inputs()[:UNCONFIRMED_SENT]
        if waiting and self.client is not None:
            self.client.send_inputs(waiting[-1][0], [inputs.pack() for _, inputs in waiting])

    def on_state(self, message: net.StateMessage) -> None:
        # Both decodes come first: a bad datagram raises before anything changes.
        configuration = CODEC.decode(message.state)
        body = Body.unpack(message.data)
        self.rollback.confirm(message.frame, configuration, body)


# -- running it -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """One run: how long, how bad the links are, and the seed of every random choice."""

    frames: int = 120
    tick: float = 0.004
    latency: float = 0.012
    jitter: float = 0.008
    loss: float = 0.1
    duplicate: float = 0.05
    reorder: float = 0.1
    damage_chance: float = 0.02
    seed: int = 7
    host: str = "127.0.0.1"
    timeout: float = 5.0

    def link(self, salt: int) -> net.LinkConditioner:
        profile = net.LinkProfile(
            self.latency, self.jitter, self.loss, self.duplicate, self.reorder
        )
        return net.LinkConditioner(profile, random.Random(self.seed * 31 + salt))


@dataclass(frozen=True)
class ClientReport:
    """How one client did."""

    name: str
    frames: int
    confirmed_frame: int
    mispredictions: int
    resimulated: int
    sounds: tuple[tuple[int, st.Cause], ...]
    configuration: str
    converged: bool
    malformed: int


@dataclass(frozen=True)
class Report:
    """A run: the clients, the bytes of the encoded states, and the server's address."""

    clients: tuple[ClientReport, ...]
    state_bytes: tuple[int, ...]
    datagram_bytes: float
    server_address: net.Address
    server_malformed: int

    @property
    def converged(self) -> bool:
        return all(client.converged for client in self.clients)


async def run(settings: Settings) -> Report:
    """Run the server and two clients on ``settings.host`` until both are confirmed."""
    authority = Authority(settings.seed, settings.damage_chance)
    server = await net.StateServer.open(
        Inputs.unpack,
        authority.on_inputs,
        fingerprint=CODEC.fingerprint,
        address=(settings.host, 0),
        conditioner=settings.link(0),
    )
    authority.server = server
    players = [
        Player(name, script(settings.seed + i, settings.frames))
        for i, name in enumerate(("ann", "bob"), 1)
    ]
    try:
        for i, player in enumerate(players, 1):
            player.client = await net.StateClient.open(  # refused if its schema differed
                server.endpoint.address,
                player.on_state,
                fingerprint=CODEC.fingerprint,
                address=(settings.host, 0),
                conditioner=settings.link(i),
                retry=0.02,
            )
        playing = asyncio.gather(*(_play(player, settings.tick) for player in players))
        await asyncio.wait_for(playing, settings.timeout)
        return _report(authority, players, server)
    finally:
        for player in players:
            if player.client is not None:
                player.client.close()
        server.close()


async def _play(player: Player, tick: float) -> None:
    while not player.done:
        player.tick()
        await asyncio.sleep(tick)


def _client_report(player: Player, hosted: Hosted, malformed: int) -> ClientReport:
    """How ``player`` did, compared with its character on the server."""
    truth = (CODEC.capture(hosted.character.machine), hosted.character.snapshot())
    mine = (CODEC.capture(player.character.machine), player.character.snapshot())
    rollback = player.rollback
    return ClientReport(
        player.name,
        rollback.frame,
        rollback.confirmed_frame,
        rollback.stats.mispredictions,
        rollback.stats.resimulated,
        tuple(player.character.sounds),
        str(mine[0]),
        mine == truth and rollback.frame == hosted.character.frame,
        malformed,
    )


def _report(authority: Authority, players: list[Player], server: net.StateServer[Inputs]) -> Report:
    clients, state_bytes = [], []
    for player in players:
        assert player.client is not None
        endpoint = player.client.endpoint
        hosted = authority.hosted[endpoint.address]
        state_bytes += hosted.state_bytes
        clients.append(_client_report(player, hosted, endpoint.stats.malformed))
    framing = len(net.encode_message(net.StateMessage(1, b"", Body(0, 0, 0).pack())))
    mean = sum(state_bytes) / max(len(state_bytes), 1)
    endpoint = server.endpoint
    return Report(
        tuple(clients),
        tuple(state_bytes),
        framing + mean,
        endpoint.address,
        endpoint.stats.malformed,
    )


def describe(report: Report) -> list[str]:
    """The lines ``main`` prints."""
    sizes = report.state_bytes
    lines = [
        f"codec: {CODEC.header_mode.value} header of {CODEC.header_bits} bits for "
        f"{CODEC.configurations} configurations; server on {report.server_address[0]}",
        f"state: {sum(sizes) / max(len(sizes), 1):.2f} bytes per update on average "
        f"({min(sizes, default=0)} to {max(sizes, default=0)}); "
        f"datagram {report.datagram_bytes:.1f} bytes with the body and framing",
    ]
    for client in report.clients:
        lines.append(
            f"{client.name}: {client.frames} frames, confirmed {client.confirmed_frame}, "
            f"{client.mispredictions} mispredictions, {client.resimulated} frames "
            f"re-simulated, {len(client.sounds)} jump sounds, "
            f"{'converged' if client.converged else 'DIVERGED'} at {client.configuration}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, run, print the report; the exit status is 1 if a client diverged."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=at_least(1), default=Settings.frames)
    parser.add_argument("--loss", type=fraction, default=Settings.loss)
    parser.add_argument("--seed", type=int, default=Settings.seed)
    options = parser.parse_args(argv)
    settings = Settings(frames=options.frames, loss=options.loss, seed=options.seed)
    report = asyncio.run(run(settings))
    for line in describe(report):
        print(line)
    return 0 if report.converged else 1


if __name__ == "__main__":
    raise SystemExit(main())
