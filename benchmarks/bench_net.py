"""Benchmarks for the net codec: bits per machine against the minimum, in packed streams
and in packets of their own, pickle and JSON, and the microseconds to encode and decode.

Four machines: the book's character (with a direction on Move, a start frame on Jump and a
respawn frame on Dead), a machine whose PlayAnim state is reached from two outers, one with
two concurrent regions, and the bitmask player (through ``BitmaskCodec``). Each is driven by
a seeded random script and every frame's state is recorded. The minimum header is
``ceil(log2(configurations))``, the fewest bits any header could use, counted from the codec
tree; payload bits come on top, the same for every format of the header. Then a crowd of
machines, one in each recorded state, is encoded into one packed stream and decoded from it,
as a game's snapshot of many actors would be. Pickle and JSON encode the same states as
lists of ``[state name, *payload]``.

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
    """One machine's encoding sizes (mean bits per update) and timings (per machine).

    ``least`` is the fewest bits any encoding of the same states could take with the same
    payload fields: the minimum header plus the payloads. ``packed`` is what a machine takes
    in one stream of many (no rounding per machine); ``packet`` what it takes alone, in whole
    bytes. Timings are per machine, for a crowd of one machine per recorded frame encoded
    into (and decoded from) one packed stream; pickle's are for the same machines, each
    written as the list of ``[state name, *payload]`` of its active states (built from the
    machine, as a program without a codec would).
    """

    name: str
    configurations: int
    minimum: int
    path: int | None
    leaf: int | None
    header: str
    least: float
    packed: float
    packet: float
    pickle: float
    json: float
    encode_us: float
    decode_us: float
    pickle_encode_us: float
    pickle_decode_us: float


@dataclass(frozen=True)
class Subject:
    """A machine to measure: how to advance it one frame, how to name its state, and how to
    make another machine of the same kind (for the crowd)."""

    name: str
    codec: net.MachineCodec[Any, Any]
    machine: Any
    advance: Callable[[random.Random, int], object]
    names: Callable[[Any], list[Any]]
    """A machine's state as plain lists: what pickle and JSON are given."""
    headers: tuple[int | None, int | None, str]
    """The path and leaf header bits (``None`` where refused) and the header used."""
    make: Callable[[], Any]


def _names(machine: st.StateMachine[Any]) -> list[list[Any]]:
    return [
        [
            type(state).__qualname__,
            *(
                v.name if isinstance(v, enum.Enum) else v
                for v in (state.net_payload() if hasattr(state, "net_fields") else ())
            ),
        ]
        for state in machine.walk()
    ]


def _best(work: Callable[[], object], loops: int) -> float:
    """CPU seconds per call of ``work``, the best of nine runs of ``loops`` calls (CPU time:
    a machine shared with other work slows the wall clock more than the work)."""
    best = math.inf
    for _ in range(9):
        start = time.process_time()
        for _ in range(loops):
            work()
        best = min(best, time.process_time() - start)
    return best / loops


def _bits(codec: net.MachineCodec[Any, Any], value: Any) -> int:
    writer = net.BitWriter()
    codec.write_value(writer, value)
    return writer.size


def measure(subject: Subject) -> Sizes:
    """Run the subject's script recording every frame's state, then measure a crowd of
    machines in those states."""
    rng = random.Random(11)
    codec = subject.codec
    values, names = [], []
    for frame in range(FRAMES):
        subject.advance(rng, frame)
        values.append(codec.capture(subject.machine))
        names.append(subject.names(subject.machine))
    crowd = [subject.make() for _ in values]
    for machine, value in zip(crowd, values, strict=True):
        codec.apply(machine, value)
    packed = net.pack((codec, machine) for machine in crowd)
    codecs = [codec] * len(crowd)
    pickled = pickle.dumps(names, pickle.HIGHEST_PROTOCOL)
    per = 1e6 / len(crowd)

    def pickle_crowd() -> bytes:
        return pickle.dumps([subject.names(m) for m in crowd], pickle.HIGHEST_PROTOCOL)

    sizes = [_bits(codec, value) for value in values]
    return Sizes(
        subject.name,
        codec.configurations,
        codec.minimum_bits,
        *subject.headers,
        sum(sizes) / FRAMES - codec.header_bits + codec.minimum_bits,
        8 * len(packed) / FRAMES,
        sum(8 * -(-size // 8) for size in sizes) / FRAMES,
        sum(8 * len(pickle.dumps(n, pickle.HIGHEST_PROTOCOL)) for n in names) / FRAMES,
        sum(8 * len(json.dumps(n, separators=(",", ":"))) for n in names) / FRAMES,
        per * _best(lambda: net.pack((codec, machine) for machine in crowd), 20),
        per * _best(lambda: net.unpack(packed, codecs), 20),
        per * _best(pickle_crowd, 20),
        per * _best(lambda: pickle.loads(pickled), 20),
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
    return Subject(
        name, codec, machine, advance, _names, headers, lambda: st.StateMachine(initial, Owner())
    )


def bitmask_player() -> Subject:
    """The bitmask player, a random request every frame."""
    machine = BitmaskMachine(PLAYER, history_size=0)

    def advance(rng: random.Random, frame: int) -> None:
        state = PLAYER.names[rng.randrange(PLAYER.size)]
        machine.try_activate(state) if rng.random() < 0.7 else machine.deactivate(state)

    def names(player: BitmaskMachine[Any]) -> list[Any]:
        return list(player.active_states)

    codec = net.BitmaskCodec(PLAYER)
    return Subject(
        "bitmask player",
        codec,
        machine,
        advance,
        names,
        (None, None, "rank"),
        lambda: BitmaskMachine(PLAYER, history_size=0),
    )


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
    """The tables ``main`` prints."""
    head = (
        f"{'machine':<18} {'configs':>7} {'min':>4} {'path':>4} {'leaf':>4} {'header':>6} "
        f"{'least':>6} {'packed':>6} {'packet':>6} {'pickle':>7} {'json':>6}"
    )
    lines = [
        "Bits per machine and update (means over the frames). least: the minimum header plus",
        "the payloads; packed: in one stream of many machines; packet: alone, whole bytes:",
        head,
    ]
    for r in rows:
        path = "-" if r.path is None else str(r.path)
        leaf = "-" if r.leaf is None else str(r.leaf)
        lines.append(
            f"{r.name:<18} {r.configurations:>7} {r.minimum:>4} {path:>4} {leaf:>4} "
            f"{r.header:>6} {r.least:>6.2f} {r.packed:>6.2f} {r.packet:>6.1f} "
            f"{r.pickle:>7.1f} {r.json:>6.1f}"
        )
    lines += [
        "",
        f"Microseconds per machine, {FRAMES} machines (one per recorded state) in one packed",
        "stream; pickle: the same machines as [name, *payload] lists of their active states;",
        "and statetree's time as a multiple of pickle's:",
        f"{'machine':<18} {'encode':>8} {'decode':>8} {'pickle':>8} {'unpickle':>8} "
        f"{'encode/pickle':>13} {'decode/unpickle':>15}",
    ]
    for r in rows:
        lines.append(
            f"{r.name:<18} {r.encode_us:>6.2f}us {r.decode_us:>6.2f}us "
            f"{r.pickle_encode_us:>6.2f}us {r.pickle_decode_us:>6.2f}us "
            f"{r.encode_us / r.pickle_encode_us:>13.2f} {r.decode_us / r.pickle_decode_us:>15.2f}"
        )
    over = max(r.packed - r.least for r in rows)
    lines.append(f"\nPacked streams are within {over:.2f} bit(s) of the least per machine.")
    return "\n".join(lines)


def main() -> None:
    print(format_rows(run()))


if __name__ == "__main__":
    main()
