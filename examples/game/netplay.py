"""Two players over the network: an authoritative server and two predicting clients.

The server runs the arena (both heroes and the whole crowd) and steps it as soon as both
players' inputs for the next frame are in; after every step it sends each client a snapshot
of every actor, packed in one bit stream (:mod:`game.snapshot`). A client predicts its own
hero from its inputs and sends them (each datagram repeats the ones not yet confirmed, so a
lost one costs nothing). When a snapshot shows the server saw something else (a hit only
the server knows about), the client rolls its hero back to the snapshot and re-simulates
the frames since. Everything else is drawn as the last snapshot shows it, the match's
banners and result included: the match's machine travels in every snapshot.

A player who leaves (quits, or goes silent for ``CLIENT_TIMEOUT`` seconds) is replaced by
the bot, so the other plays on. The link conditioner is off unless asked for: ``--bad-link``
(or ``--loss``, ``--latency``, ``--jitter``, ``--duplicate``, ``--reorder``) makes the links
as bad as wanted, from a seeded random source.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from game import bot, config
from game.enemies import load_chart
from game.hero import HERO_CODEC, Hero
from game.inputs import IDLE, Input
from game.match import DEFAULT_RULES, MATCH_CODEC, Match, Rules
from game.snapshot import Body, Snapshot, Snapshots
from game.world import STARTS, World
from statetree import StateMachine, net

PLAYERS = 2
MAX_AHEAD = 20
"""How many frames a client may predict past its last confirmed one."""
RESEND_TICKS = 8
"""A server with nothing new sends its last snapshot again every this many ticks."""
CLIENT_TIMEOUT = 3.0
"""Seconds of silence after which the server lets the bot play for a player."""
BAD_LINK = net.LinkProfile(latency=0.01, jitter=0.005, loss=0.1, duplicate=0.02, reorder=0.05)
"""``--bad-link``: a poor connection, for trying prediction and rollback out."""


@dataclass(frozen=True)
class Settings:
    """A networked match: its length and size, the links, the seed of every random choice.

    ``frames`` caps the match (a headless one plays that many frames); ``link`` is what the
    simulated link does to every datagram (``None``: nothing, the network as it is).
    """

    frames: int = 900
    enemies: int = config.ENEMIES
    rules: Rules = DEFAULT_RULES
    tick: float = 0.004
    link: net.LinkProfile | None = None
    seed: int = 7
    host: str = "127.0.0.1"
    port: int = 0
    timeout: float = 30.0

    def conditioner(self, salt: int) -> net.LinkConditioner | None:
        if self.link is None:
            return None
        return net.LinkConditioner(self.link, random.Random(self.seed * 31 + salt))


class Host:
    """The server's side: the authoritative world and the inputs waiting for it."""

    def __init__(self, settings: Settings, brains: str = "batch") -> None:
        chart = load_chart()
        self.frames = settings.frames
        self.world = World(
            PLAYERS, settings.enemies, chart=chart, brains=brains, rules=settings.rules
        )
        self.snapshots = Snapshots(chart, PLAYERS)
        self.waiting: list[dict[int, Input]] = [{} for _ in range(PLAYERS)]
        self.server: net.StateServer[Input] | None = None
        self.slots: dict[net.Address, int] = {}
        self.left: set[int] = set()
        """The slots of the players who left: the bot plays them."""
        self.announce: Callable[[str], None] = lambda line: None
        """Told when a player joins or leaves (a server's command line prints it)."""
        self.sizes: list[int] = []
        self._sent = (-1, 0)

    @property
    def finished(self) -> bool:
        """The match is over, played to its last frame, or every player left."""
        world = self.world
        return world.over or world.frame >= self.frames or len(self.left) == PLAYERS

    def on_inputs(self, client: net.Address, ready: list[tuple[int, Input]]) -> None:
        slot = self.slot_of(client)
        if slot is None or slot in self.left:
            return
        for frame, value in ready:
            self.waiting[slot][frame] = value
        self._step()

    def _step(self) -> None:
        """Step the world for as long as every player's input for the next frame is in."""
        world = self.world
        while not self.finished:
            frame = world.frame + 1
            for slot in self.left:  # the bot plays for a player who left
                self.waiting[slot][frame] = bot.decide(world.heroes[slot], world.crowd)
            if not all(frame in inputs for inputs in self.waiting):
                return
            world.step([inputs.pop(frame) for inputs in self.waiting])

    def on_join(self, client: net.Address) -> None:
        """Players are numbered in the order they join; the ones after the first
        ``PLAYERS`` watch."""
        slot = self.slots.setdefault(client, len(self.slots))
        who = f"Hero{slot + 1}" if slot < PLAYERS else "a watcher"
        self.announce(f"{who} joined from {show(client)}")

    def on_leave(self, client: net.Address) -> None:
        """A player gone silent (or who quit): the bot plays for it to the end, unless no
        player is left."""
        slot = self.slot_of(client)
        if slot is None or self.finished:
            return
        self.left.add(slot)
        self.waiting[slot].clear()  # what it sent for frames ahead is dropped
        alone = len(self.left) == PLAYERS
        self.announce(
            f"Hero{slot + 1} left: " + ("the match ends" if alone else "the bot plays on")
        )
        self._step()

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
        self.mirrors: dict[int, Hero] = {}
        """Every hero as the last snapshot shows it (to draw the others, and everyone once
        the match is over)."""
        self.match: Match | None = None
        """The match, mirrored from the snapshots: its wave, banners and result."""
        self.client: net.StateClient | None = None

    @property
    def over(self) -> bool:
        """The last snapshot shows the match won or lost."""
        return self.match is not None and self.match.over

    @property
    def done(self) -> bool:
        """The match is over, or every frame was played and confirmed."""
        rollback = self.rollback
        played = rollback is not None and rollback.confirmed_frame == rollback.frame == self.frames
        return self.over or played

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
        match = self.match
        if match is None or match.waves != snapshot.waves:
            match = self.match = Match.mirror(snapshot.waves)
        match.frame, match.score = snapshot.frame, snapshot.score
        MATCH_CODEC.apply(match.machine, snapshot.match)
        for slot, state in enumerate(snapshot.heroes):
            hero = self.mirrors.get(slot) or self.mirrors.setdefault(slot, _hero(slot))
            HERO_CODEC.apply(hero.machine, state.configuration)
            state.body.restore(hero)

    def tick(self) -> None:
        """Predict the next frame (if not too far ahead), send what is unconfirmed; nothing
        once the match is over."""
        rollback = self.rollback
        if rollback is None or self.client is None or self.over:
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
        conditioner=settings.conditioner(0),
        client_timeout=CLIENT_TIMEOUT,
        on_join=host.on_join,
        on_leave=host.on_leave,
    )
    host.server = server
    return server


async def join(settings: Settings, player: Player, server: net.Address, salt: int) -> None:
    """Connect ``player`` to ``server``, from this computer's address that reaches it."""
    player.client = await net.StateClient.open(
        server,
        player.on_state,
        fingerprint=player.snapshots.fingerprint,
        address=local_address(server[0]),
        conditioner=settings.conditioner(salt),
    )


def local_address(server: str) -> net.Address:
    """Where a client binds: the loopback for a server on this computer, else any of its
    addresses (the system picks the one on the way to the server)."""
    if server == "localhost" or server.startswith("127.") or server == "::1":
        return ("::1", 0) if ":" in server else ("127.0.0.1", 0)
    return ("::", 0) if ":" in server else ("0.0.0.0", 0)


def show(address: net.Address) -> str:
    """``host:port`` (``[host]:port`` for IPv6), as ``--connect`` takes it."""
    host, port = address[0], address[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
