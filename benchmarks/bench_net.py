"""Benchmarks for the net codec: bits per update against the minimum, pickle and JSON, and
the microseconds to encode and decode.

Four machines: the book's character (with a direction on Move, a start frame on Jump and a
respawn frame on Dead), a machine whose PlayAnim state is reached from two outers, one with
two concurrent regions, and the bitmask player (through ``BitmaskCodec``). Each is driven by
a seeded random script; every frame's state is encoded. The minimum is
``ceil(log2(configurations))``, the fewest bits any header could use, counted from the codec
tree (payload bits come on top, the same for every format of the header). Pickle and JSON
encode the same state as a list of ``[state name, *payload]``.

Run ``python benchmarks/bench_net.py``; :func:`run` returns the rows for other scripts.
"""

from __future__ import annotations

import enum
import json
import math
import pickle
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import statetree as st
from statetree import net
from statetree.bitmask import BitmaskDefinition, BitmaskMachine
from statetree.structure import derive

FRAMES = 400


class Owner(dict[str, Any]):
    """The flags a machine's states read; ``frame`` counts frames (even, for payloads)."""

    frame = 0


class Direction(enum.Enum):
    LEFT = -1
    RIGHT = 1


class Anim(enum.Enum):
    SLASH = 1
    THRUST = 2
    WAVE = 3
    BOW = 4


class Character:
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner["dead"]:
                return st.sibling(Character.Dead, (self.owner.frame + 60) % 65536)
            return st.inner_entry(Character.Locomotion)

    class Dead(st.State[Owner]):
        net_fields = (net.UInt(16),)

        def on_enter(self, respawn: int) -> None:
            self.respawn = respawn

        def net_payload(self) -> tuple[int]:
            return (self.respawn,)

        def transition(self) -> st.Transition | None:
            return None if self.owner["dead"] else st.sibling(Character.Alive)

    class Locomotion(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner["jump"]:
                return st.sibling(Character.Jump, self.owner.frame % 65536)
            return st.inner_entry(Character.Stand)

    class Jump(st.State[Owner]):
        net_fields = (net.UInt(16),)

        def on_enter(self, started: int) -> None:
            self.started = started

        def net_payload(self) -> tuple[int]:
            return (self.started,)

        def transition(self) -> st.Transition | None:
            return None if self.owner["jump"] else st.sibling(Character.Locomotion)

    class Stand(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            move = self.owner["move"]
            return st.sibling(Character.Move, move) if move else None

    class Move(st.State[Owner]):
        net_fields = (net.Enum(Direction),)

        def on_enter(self, direction: Direction) -> None:
            self.direction = direction

        def net_payload(self) -> tuple[Direction]:
            return (self.direction,)

        def transition(self) -> st.Transition | None:
            move = self.owner["move"]
            if move is None:
                return st.sibling(Character.Stand)
            return None if move is self.direction else st.sibling(Character.Move, move)


class Reusable:
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner["attack"]:
                return st.inner(Reusable.Attack)
            if self.owner["emote"]:
                return st.inner(Reusable.Emote)
            return st.inner(Reusable.Idle)

    class Idle(st.State[Owner]):
        pass

    class Attack(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Reusable.PlayAnim, self.owner["anim"])

    class Emote(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Reusable.PlayAnim, self.owner["anim"])

    class PlayAnim(st.State[Owner]):
        net_fields = (net.Enum(Anim), net.UInt(16))

        def on_enter(self, anim: Anim, started: int = -1) -> None:
            self.anim = anim
            self.started = self.owner.frame % 65536 if started < 0 else started

        def net_payload(self) -> tuple[Anim, int]:
            return (self.anim, self.started)

        def transition(self) -> st.Transition | None:
            return st.sibling(Reusable.Done) if self.owner["done"] else None

    class Done(st.State[Owner]):
        pass


class Regions:
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner["dead"]:
                return st.sibling(Regions.Dead)
            return st.concurrent(Regions.Upper, Regions.Lower)

    class Dead(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return None if self.owner["dead"] else st.sibling(Regions.Alive)

    class Upper(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner["aim"]:
                return st.inner(Regions.Aim, self.owner["target"])
            return st.inner(Regions.Rest)

    class Rest(st.State[Owner]):
        pass

    class Aim(st.State[Owner]):
        net_fields = (net.UInt(8),)

        def on_enter(self, target: int) -> None:
            self.target = target

        def net_payload(self) -> tuple[int]:
            return (self.target,)

    class Lower(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner["run"]:
                return st.inner(Regions.Run)
            return st.inner(Regions.Walk) if self.owner["walk"] else st.inner(Regions.Stand)

    class Stand(st.State[Owner]):
        pass

    class Walk(st.State[Owner]):
        pass

    class Run(st.State[Owner]):
        pass


PLAYER = BitmaskDefinition.from_data(
    [
        {"name": "Alive"},
        {"name": "Moving", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
        {"name": "Crouching", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
        {"name": "Aiming", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
        {"name": "Shooting", "requires": ["Alive", "Aiming"], "blocked_by": ["InDialogue"]},
        {
            "name": "Punching",
            "requires": ["Alive"],
            "terminates": ["Aiming"],
            "blocked_by": ["Shooting", "InDialogue"],
            "retriggerable": True,
        },
        {
            "name": "InDialogue",
            "requires": ["Alive"],
            "terminates": ["Moving", "Punching", "Aiming"],
        },
    ],
    name="Player",
)

FLAGS: dict[str, Callable[[random.Random], Any]] = {
    "dead": lambda rng: rng.random() < 0.05,
    "jump": lambda rng: rng.random() < 0.2,
    "move": lambda rng: rng.choice([None, *Direction]),
    "attack": lambda rng: rng.random() < 0.4,
    "emote": lambda rng: rng.random() < 0.4,
    "anim": lambda rng: rng.choice(list(Anim)),
    "done": lambda rng: rng.random() < 0.3,
    "aim": lambda rng: rng.random() < 0.5,
    "target": lambda rng: rng.randrange(256),
    "run": lambda rng: rng.random() < 0.3,
    "walk": lambda rng: rng.random() < 0.5,
}


@dataclass(frozen=True)
class Sizes:
    """One machine's encoding sizes, in bits (packets are whole bytes), and its timings."""

    name: str
    configurations: int
    minimum: int
    path: int | None
    leaf: int | None
    header: str
    packet: float
    pickle: float
    json: float
    encode_us: float
    decode_us: float


@dataclass(frozen=True)
class Subject:
    """A machine to measure: how to advance it one frame and how to name its state."""

    name: str
    codec: net.MachineCodec[Any, Any]
    machine: Any
    advance: Callable[[random.Random, int], object]
    names: Callable[[], list[Any]]
    headers: tuple[int | None, int | None, str]
    """The path and leaf header bits (``None`` where refused) and the header used."""


def _names(configuration: net.Configuration) -> list[list[Any]]:
    return [
        [
            active.cls.__qualname__,
            *(v.name if isinstance(v, enum.Enum) else v for v in active.payload),
        ]
        for active in configuration.states
    ]


def _best(work: Callable[[], object], loops: int = 2000) -> float:
    """Microseconds per call of ``work``, the best of five runs of ``loops`` calls."""
    best = math.inf
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(loops):
            work()
        best = min(best, time.perf_counter() - start)
    return best / loops * 1e6


def measure(subject: Subject) -> Sizes:
    """Run the subject's script, encoding every frame, then time encoding and decoding."""
    rng = random.Random(11)
    packets, pickles, jsons = [], [], []
    for frame in range(FRAMES):
        subject.advance(rng, frame)
        packets.append(subject.codec.encode(subject.machine))
        state = subject.names()
        pickles.append(len(pickle.dumps(state, pickle.HIGHEST_PROTOCOL)))
        jsons.append(len(json.dumps(state, separators=(",", ":"))))
    codec, data = subject.codec, packets[-1]
    return Sizes(
        subject.name,
        codec.configurations,
        codec.minimum_bits,
        *subject.headers,
        8 * sum(map(len, packets)) / FRAMES,
        8 * sum(pickles) / FRAMES,
        8 * sum(jsons) / FRAMES,
        _best(lambda: codec.encode(subject.machine)),
        _best(lambda: codec.decode(data)),
    )


def _header_bits(make: Callable[[], net.Codec]) -> int | None:
    try:
        return make().header_bits
    except st.DefinitionError:
        return None


def state_machine(name: str, initial: type[st.State[Owner]]) -> Subject:
    """A state machine starting in ``initial``, its flags drawn at random every frame."""
    structure = derive(initial)
    codec = net.Codec.auto(structure)
    owner = Owner()
    machine = st.StateMachine(initial, owner)

    def advance(rng: random.Random, frame: int) -> None:
        owner.frame = 2 * frame
        owner.update({key: make(rng) for key, make in FLAGS.items()})
        machine.process_state_transitions()

    headers = (
        _header_bits(lambda: net.Codec.path(structure)),
        _header_bits(lambda: net.Codec.leaf(structure)),
        codec.header_mode.value,
    )
    return Subject(name, codec, machine, advance, lambda: _names(codec.capture(machine)), headers)


def bitmask_player() -> Subject:
    """The bitmask player, a random request every frame."""
    machine = BitmaskMachine(PLAYER, history_size=0)

    def advance(rng: random.Random, frame: int) -> None:
        state = PLAYER.names[rng.randrange(PLAYER.size)]
        machine.try_activate(state) if rng.random() < 0.7 else machine.deactivate(state)

    def names() -> list[Any]:
        return list(machine.active_states)

    codec = net.BitmaskCodec(PLAYER)
    return Subject("bitmask player", codec, machine, advance, names, (None, None, "mask"))


def run() -> list[Sizes]:
    """Measure the four machines."""
    subjects = [
        state_machine("book character", Character.Alive),
        state_machine("reusable PlayAnim", Reusable.Alive),
        state_machine("two regions", Regions.Alive),
        bitmask_player(),
    ]
    return [measure(subject) for subject in subjects]


def format_rows(rows: list[Sizes]) -> str:
    """The table ``main`` prints."""
    head = (
        f"{'machine':<18} {'configs':>7} {'min':>4} {'path':>4} {'leaf':>4} {'header':>6} "
        f"{'packet':>7} {'pickle':>7} {'json':>6} {'encode':>8} {'decode':>8}"
    )
    lines = [
        "Bits per update (headers in bits; packet, pickle and JSON: mean bits per frame) and",
        "microseconds per encode (machine to bytes) and decode (bytes to configuration):",
        head,
    ]
    for r in rows:
        path = "-" if r.path is None else str(r.path)
        leaf = "-" if r.leaf is None else str(r.leaf)
        lines.append(
            f"{r.name:<18} {r.configurations:>7} {r.minimum:>4} {path:>4} {leaf:>4} "
            f"{r.header:>6} {r.packet:>7.1f} {r.pickle:>7.1f} {r.json:>6.1f} "
            f"{r.encode_us:>6.2f}us {r.decode_us:>6.2f}us"
        )
    return "\n".join(lines)


def main() -> None:
    print(format_rows(run()))


if __name__ == "__main__":
    main()
