"""Two players over the network: an authoritative server and two predicting clients.

The server runs the arena (both heroes and the whole crowd) and steps it as soon as both
players' inputs for the next frame are in; after every step it sends each client a snapshot
of every actor, packed in one bit stream (:mod:`game.snapshot`). A client predicts its own
hero from its inputs and sends them (each datagram repeats the ones not yet confirmed, so a
lost one costs nothing). When a snapshot shows the server saw something else (a hit only
the server knows about), the client rolls its hero back to the snapshot and re-simulates
the frames since. Everything else is drawn as the last snapshot shows it.

The link conditioner (``--loss``, ``--latency``, ``--jitter``, ``--duplicate``,
``--reorder``) makes the links as bad as wanted, from a seeded random source.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from game import config
from game.enemies import load_chart
from game.hero import HERO_CODEC, Hero
from game.inputs import IDLE, Input
from game.snapshot import Body, Snapshot, Snapshots
from game.world import STARTS, World
from statetree import StateMachine, net

PLAYERS = 2
MAX_AHEAD = 20
"""How many frames a client may predict past its last confirmed one."""
RESEND_TICKS = 8
"""A server with nothing new sends its last snapshot again every this many ticks."""


@dataclass(frozen=True)
class Settings:
    """A networked match: its length and size, the links, the seed of every random choice."""

    frames: int = 240
    enemies: int = 120
    tick: float = 0.004
    latency: float = 0.01
    jitter: float = 0.005
    loss: float = 0.1
    duplicate: float = 0.02
    reorder: float = 0.05
    seed: int = 7
    host: str = "127.0.0.1"
    port: int = 0
    timeout: float = 30.0

    def link(self, salt: int) -> net.LinkConditioner:
        profile = net.LinkProfile(
            self.latency, self.jitter, self.loss, self.duplicate, self.reorder
        )
        return net.LinkConditioner(profile, random.Random(self.seed * 31 + salt))


class Host:
    """The server's side: the authoritative world and the inputs waiting for it."""

    def __init__(self, settings: Settings, brains: str = "batch") -> None:
        chart = load_chart()
        self.frames = settings.frames
        self.world = World(PLAYERS, settings.enemies, chart=chart, brains=brains)
        self.snapshots = Snapshots(chart, PLAYERS, settings.enemies)
        self.waiting: list[dict[int, Input]] = [{} for _ in range(PLAYERS)]
        self.server: net.StateServer[Input] | None = None
        self.slots: dict[net.Address, int] = {}
        self.sizes: list[int] = []
        self._sent = (-1, 0)

    def on_inputs(self, client: net.Address, ready: list[tuple[int, Input]]) -> None:
        slot = self.slot_of(client)
        if slot is None:
            return
        for frame, value in ready:
            self.waiting[slot][frame] = value
        while self.world.frame < self.frames and all(
            self.world.frame + 1 in inputs for inputs in self.waiting
        ):
            frame = self.world.frame + 1
            self.world.step([inputs.pop(frame) for inputs in self.waiting])

    def on_join(self, client: net.Address) -> None:
        """Players are numbered in the order they join (a player back after a silence
        keeps its number); the ones after the first ``PLAYERS`` watch."""
        self.slots.setdefault(client, len(self.slots))

    def slot_of(self, client: net.Address) -> int | None:
        slot = self.slots.get(client)
        return slot if slot is not None and slot < PLAYERS else None

    def broadcast(self) -> None:
        """Send the snapshot of a new frame to everyone (and an old one now and then)."""
        frame, quiet = self._sent
        if self.server is None or (frame == self.world.frame and quiet < RESEND_TICKS):
            self._sent = (frame, quiet + 1)
            return
        state = self.snapshots.write(self.world)
        if frame != self.world.frame:
            self.sizes.append(len(state))
        for client in self.server.clients:
            message = net.StateMessage(
                self.world.frame, state, bytes([min(self.slots[client], PLAYERS)])
            )
            self.server.send_state(client, message)
        self._sent = (self.world.frame, 0)


InputSource = Callable[["Player"], Input]


class Player:
    """A client: predicts its own hero, sends its inputs, corrects from the snapshots."""

    def __init__(self, name: str, source: InputSource, snapshots: Snapshots, frames: int) -> None:
        self.name = name
        self.source = source
        self.snapshots = snapshots
        self.frames = frames
        self.slot = -1
        self.hero: Hero | None = None
        self.rollback: net.Rollback[StateMachine[Hero], net.Configuration, Input, Body] | None = (
            None
        )
        self.view: Snapshot | None = None
        self.others: dict[int, Hero] = {}
        """The other players' heroes, mirrored from the snapshots to be drawn."""
        self.client: net.StateClient | None = None

    @property
    def done(self) -> bool:
        rollback = self.rollback
        return rollback is not None and rollback.confirmed_frame == rollback.frame == self.frames

    def on_state(self, message: net.StateMessage) -> None:
        # Everything is read and checked before anything changes: a bad datagram raises.
        snapshot = self.snapshots.read(message.frame, message.state)
        if len(message.data) != 1 or message.data[0] > PLAYERS:
            raise net.PacketError(f"bad player slot {message.data!r}", bit=0)
        if self.rollback is None:
            self._join(message.data[0], snapshot)
        if self.view is None or snapshot.frame > self.view.frame:
            self.view = snapshot
            self._mirror(snapshot)
        if self.rollback is not None:
            mine = snapshot.heroes[self.slot]
            self.rollback.confirm(snapshot.frame, mine.configuration, mine.body)

    def _join(self, slot: int, snapshot: Snapshot) -> None:
        if slot >= PLAYERS:
            return  # a watcher: it only draws the snapshots
        self.slot = slot
        hero = self.hero = _hero(slot)
        mine = snapshot.heroes[slot]
        HERO_CODEC.apply(hero.machine, mine.configuration)
        mine.body.restore(hero)
        self.rollback = net.Rollback(
            hero.machine,
            HERO_CODEC,
            hero.step,
            snapshot=lambda: Body.of(hero),
            restore=lambda body: body.restore(hero),
            frame=snapshot.frame,
        )

    def _mirror(self, snapshot: Snapshot) -> None:
        for slot, state in enumerate(snapshot.heroes):
            if slot != self.slot:
                hero = self.others.get(slot) or self.others.setdefault(slot, _hero(slot))
                HERO_CODEC.apply(hero.machine, state.configuration)
                state.body.restore(hero)

    def tick(self) -> None:
        """Predict the next frame (if not too far ahead), send what is unconfirmed."""
        rollback = self.rollback
        if rollback is None or self.client is None:
            return
        ahead = rollback.frame - rollback.confirmed_frame
        if rollback.frame < self.frames and ahead < MAX_AHEAD:
            rollback.advance(self.source(self))
        waiting = rollback.unconfirmed_inputs()
        if waiting:
            self.client.send_inputs(waiting[-1][0], [value.pack() for _, value in waiting])


def _hero(slot: int) -> Hero:
    hero = Hero(f"Hero{slot + 1}", *STARTS[slot])
    hero.machine.process_state_transitions()
    return hero


def scripted(inputs: list[Input]) -> InputSource:
    """A player who presses ``inputs[frame]`` on each frame."""
    return lambda player: inputs[player.rollback.frame] if player.rollback else IDLE


async def open_host(settings: Settings, host: Host) -> net.StateServer[Input]:
    server = await net.StateServer.open(
        Input.unpack,
        host.on_inputs,
        fingerprint=host.snapshots.fingerprint,
        address=(settings.host, settings.port),
        conditioner=settings.link(0),
        on_join=host.on_join,
    )
    host.server = server
    return server


async def join(settings: Settings, player: Player, server: net.Address, salt: int) -> None:
    player.client = await net.StateClient.open(
        server,
        player.on_state,
        fingerprint=player.snapshots.fingerprint,
        address=(settings.host, 0),
        conditioner=settings.link(salt),
    )


def frames_per_second(settings: Settings) -> float:
    return 1.0 / settings.tick if settings.tick else float(config.FPS)
