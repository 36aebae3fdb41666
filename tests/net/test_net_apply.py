"""Applying a received configuration: ordinary exits and entries from the first difference,
identical states kept without a hook, every hook told it runs for a deserialisation."""

from __future__ import annotations

import math
import struct

import pytest
from net_samples import BODY, HERO, REUSE, Body, Direction, Hero, Owner, Reuse, chain, machine

import statetree as st
from statetree import net
from statetree.errors import UsageError
from statetree.net import ActiveState, Codec, Configuration
from statetree.structure import StateInfo, Structure

HERO_CODEC, REUSE_CODEC, BODY_CODEC = Codec.auto(HERO), Codec.auto(REUSE), Codec.auto(BODY)
STAND = chain(Hero.Alive, Hero.Locomotion, Hero.Stand)
LEFT = chain(Hero.Alive, Hero.Locomotion, (Hero.Move, Direction.LEFT))
RIGHT = chain(Hero.Alive, Hero.Locomotion, (Hero.Move, Direction.RIGHT))


def applied(initial: type[st.State[Owner]], codec: Codec, *steps: Configuration) -> list[str]:
    """The hooks run by applying ``steps`` in turn to a fresh settled machine."""
    built = machine(initial)
    for step in steps:
        codec.apply(built, step)
        assert codec.capture(built) == step
        assert built.cause is st.Cause.TRANSITION
    return built.owner.log


@pytest.mark.parametrize(
    ("steps", "log"),
    [
        ((STAND,), []),
        ((LEFT,), ["Stand.exit DESERIALIZATION", "Move.enter(LEFT) DESERIALIZATION"]),
        ((LEFT, LEFT), ["Stand.exit DESERIALIZATION", "Move.enter(LEFT) DESERIALIZATION"]),
        (
            (LEFT, RIGHT),
            [
                "Stand.exit DESERIALIZATION",
                "Move.enter(LEFT) DESERIALIZATION",
                "Move.exit DESERIALIZATION",
                "Move.enter(RIGHT) DESERIALIZATION",
            ],
        ),
        (
            (chain((Hero.Dead, 30)),),
            [
                "Stand.exit DESERIALIZATION",
                "Locomotion.exit DESERIALIZATION",
                "Alive.exit DESERIALIZATION",
                "Dead.enter(30) DESERIALIZATION",
            ],
        ),
        (
            (chain(Hero.Alive, (Hero.Jump, 4)),),
            [
                "Stand.exit DESERIALIZATION",
                "Locomotion.exit DESERIALIZATION",
                "Jump.enter(4) DESERIALIZATION",
            ],
        ),
    ],
)
def test_hooks_run_from_the_first_difference(
    steps: tuple[Configuration, ...], log: list[str]
) -> None:
    assert applied(Hero.Alive, HERO_CODEC, *steps) == log


def test_a_dead_character_comes_back_through_its_outer_states() -> None:
    dead = machine(Hero.Alive, dead=True)
    HERO_CODEC.apply(dead, chain(Hero.Alive, (Hero.Jump, 4)))
    assert dead.owner.log == [
        "Dead.exit DESERIALIZATION",
        "Alive.enter DESERIALIZATION",
        "Jump.enter(4) DESERIALIZATION",
    ]


def test_a_machine_not_started_enters_its_initial_state_first() -> None:
    owner = Owner()
    fresh = st.StateMachine(Hero.Alive, owner)
    HERO_CODEC.apply(fresh, chain((Hero.Dead, 3)))
    assert owner.log == [
        "Alive.enter DESERIALIZATION",
        "Alive.exit DESERIALIZATION",
        "Dead.enter(3) DESERIALIZATION",
    ]


def test_a_state_with_two_outers_is_re_entered_when_its_outer_changes() -> None:
    attack = chain(Reuse.Alive, Reuse.Attack, (Reuse.PlayAnim, 3))
    emote = chain(Reuse.Alive, Reuse.Emote, (Reuse.PlayAnim, 3))
    assert applied(Reuse.Alive, REUSE_CODEC, attack, emote, chain(Reuse.Alive)) == [
        "Attack.enter DESERIALIZATION",
        "PlayAnim.enter(3) DESERIALIZATION",
        "PlayAnim.exit DESERIALIZATION",
        "Attack.exit DESERIALIZATION",
        "Emote.enter DESERIALIZATION",
        "PlayAnim.enter(3) DESERIALIZATION",
        "PlayAnim.exit DESERIALIZATION",
        "Emote.exit DESERIALIZATION",
    ]


def body(upper: ActiveState, lower: ActiveState) -> Configuration:
    return Configuration(
        ActiveState(
            Body.Alive,
            regions=(ActiveState(Body.Upper, inner=upper), ActiveState(Body.Lower, inner=lower)),
        )
    )


def test_each_region_changes_on_its_own() -> None:
    aiming = body(ActiveState(Body.Aim, (7,)), ActiveState(Body.Stand))
    running = body(ActiveState(Body.Aim, (7,)), ActiveState(Body.Run))
    assert applied(Body.Alive, BODY_CODEC, aiming, running) == [
        "Idle.exit DESERIALIZATION",
        "Aim.enter(7) DESERIALIZATION",
        "Stand.exit DESERIALIZATION",
        "Run.enter DESERIALIZATION",
    ]


def test_regions_are_entered_by_their_host_and_exited_last_first() -> None:
    aiming = body(ActiveState(Body.Aim, (7,)), ActiveState(Body.Stand))
    dead = Configuration(ActiveState(Body.Dead))
    assert applied(Body.Alive, BODY_CODEC, dead, aiming, dead) == [
        "Stand.exit DESERIALIZATION",
        "Lower.exit DESERIALIZATION",
        "Idle.exit DESERIALIZATION",
        "Upper.exit DESERIALIZATION",
        "Alive.exit DESERIALIZATION",
        "Dead.enter DESERIALIZATION",
        "Dead.exit DESERIALIZATION",
        "Alive.enter DESERIALIZATION",
        "Upper.enter DESERIALIZATION",
        "Lower.enter DESERIALIZATION",
        "Aim.enter(7) DESERIALIZATION",
        "Stand.enter DESERIALIZATION",
        "Stand.exit DESERIALIZATION",
        "Lower.exit DESERIALIZATION",
        "Aim.exit DESERIALIZATION",
        "Upper.exit DESERIALIZATION",
        "Alive.exit DESERIALIZATION",
        "Dead.enter DESERIALIZATION",
    ]


def test_regions_can_be_emptied_and_filled_again() -> None:
    bare = Configuration(
        ActiveState(Body.Alive, regions=(ActiveState(Body.Upper), ActiveState(Body.Lower)))
    )
    aiming = body(ActiveState(Body.Aim, (1,)), ActiveState(Body.Run))
    assert applied(Body.Alive, BODY_CODEC, bare, aiming)[-2:] == [
        "Aim.enter(1) DESERIALIZATION",
        "Run.enter DESERIALIZATION",
    ]


def test_the_cause_given_is_what_hooks_see() -> None:
    hero = machine(Hero.Alive)
    HERO_CODEC.apply(hero, LEFT, cause=st.Cause.RESIMULATION)
    assert hero.owner.log == ["Stand.exit RESIMULATION", "Move.enter(LEFT) RESIMULATION"]


def test_a_received_configuration_is_settled_for_the_same_data() -> None:
    server = machine(Hero.Alive, move=Direction.RIGHT)
    client = machine(Hero.Alive, move=Direction.RIGHT, jump=True)
    HERO_CODEC.receive(client, HERO_CODEC.encode(server))
    client.owner.flags["jump"] = False
    client.owner.log.clear()
    client.process_state_transitions()
    assert client.owner.log == []
    assert HERO_CODEC.capture(client) == HERO_CODEC.capture(server)


def test_a_configuration_the_structure_refuses_changes_nothing() -> None:
    hero = machine(Hero.Alive)
    with pytest.raises(UsageError, match=r"^Hero.Stand cannot be inside Hero.Alive"):
        HERO_CODEC.apply(hero, chain(Hero.Alive, Hero.Stand))
    assert HERO_CODEC.capture(hero) == STAND
    assert hero.owner.log == []


class Aimed(st.State[Owner]):
    net_fields = (net.Float32(),)

    def on_enter(self, angle: float) -> None:
        self.owner.log.append(f"Aimed.enter({angle}) {self.cause.name}")
        self.angle = angle

    def net_payload(self) -> tuple[float]:
        return (self.angle,)


def test_payloads_compare_as_the_receiver_decodes_them() -> None:
    codec = Codec.auto(Structure("Aimed", (StateInfo("Aimed", Aimed),), ()))
    local = st.StateMachine(st.sibling(Aimed, 0.1), Owner())
    local.process_state_transitions()
    local.owner.log.clear()
    received = codec.decode(codec.encode(local))
    assert received.root.payload == (0.10000000149011612,)
    codec.apply(local, received)
    assert local.owner.log == []


class Angled(st.State[Owner]):
    net_fields = (net.Float64(),)

    def on_enter(self, angle: float) -> None:
        self.owner.log.append(f"Angled.enter({angle!r}) {self.cause.name}")
        self.angle = angle

    def on_exit(self) -> None:
        self.owner.log.append(f"Angled.exit {self.cause.name}")

    def net_payload(self) -> tuple[float]:
        return (self.angle,)


ANGLED = Codec.auto(Structure("Angled", (StateInfo("Angled", Angled),), ()))


def angled(angle: float) -> st.StateMachine[Owner]:
    settled = st.StateMachine(st.sibling(Angled, angle), Owner())
    settled.process_state_transitions()
    settled.owner.log.clear()
    return settled


@pytest.mark.parametrize(("held", "sent"), [(0.0, -0.0), (-0.0, 0.0)])
def test_a_zero_of_the_other_sign_is_received_as_a_change(held: float, sent: float) -> None:
    local = angled(held)
    packet = ANGLED.encode(angled(sent))
    assert packet != ANGLED.encode(local)  # the sign bit is sent
    received = ANGLED.receive(local, packet)
    assert str(received) == f"Angled({sent!r})"
    assert local.owner.log == [
        "Angled.exit DESERIALIZATION",
        f"Angled.enter({sent!r}) DESERIALIZATION",
    ]
    assert ANGLED.encode(local) == packet
    local.owner.log.clear()
    ANGLED.receive(local, packet)
    assert local.owner.log == []  # the same zero again: kept


class RawFloat(net.Field[float]):
    """Any 64-bit float (an int sent as one), NaN included: the library's fields refuse NaN."""

    width = 64

    def problem(self, value: object) -> str | None:
        return None if type(value) in (float, int) else f"{value!r} is not a number"

    def to_bits(self, value: float) -> int:
        raw: int = struct.unpack(">Q", struct.pack(">d", value))[0]
        return raw

    def from_bits(self, raw: int, bit: int) -> float:
        value: float = struct.unpack(">d", struct.pack(">Q", raw))[0]
        return value


class Raw(st.State[Owner]):
    net_fields = (RawFloat(),)

    def on_enter(self, value: float) -> None:
        self.owner.log.append(f"Raw.enter({value!r}) {self.cause.name}")
        self.value = value

    def on_exit(self) -> None:
        self.owner.log.append(f"Raw.exit {self.cause.name}")

    def net_payload(self) -> tuple[float]:
        return (self.value,)


RAW = Codec.auto(Structure("Raw", (StateInfo("Raw", Raw),), ()))
QUIET_NAN = struct.unpack(">d", bytes.fromhex("7ff8000000000000"))[0]
OTHER_NAN = struct.unpack(">d", bytes.fromhex("7ff8000000000001"))[0]


def raw(value: float) -> Configuration:
    return Configuration(ActiveState(Raw, (value,)))


def test_a_nan_of_the_same_bits_is_kept_and_one_of_other_bits_is_received() -> None:
    local = st.StateMachine(st.sibling(Raw, QUIET_NAN), Owner())
    local.process_state_transitions()
    local.owner.log.clear()
    again = struct.unpack(">d", bytes.fromhex("7ff8000000000000"))[0]
    assert again is not QUIET_NAN
    RAW.apply(local, raw(again))
    assert local.owner.log == []
    RAW.apply(local, raw(OTHER_NAN))
    assert local.owner.log == ["Raw.exit DESERIALIZATION", "Raw.enter(nan) DESERIALIZATION"]
    assert RAW.encode(local) == bytes.fromhex("7ff8000000000001")


VALUES = [0.0, -0.0, 0, 1.5, QUIET_NAN, OTHER_NAN, math.inf, -math.inf]


@pytest.mark.parametrize("first", VALUES)
@pytest.mark.parametrize("second", VALUES)
def test_configurations_are_equal_exactly_when_they_encode_the_same(
    first: float, second: float
) -> None:
    one, other = raw(first), raw(second)
    same_bits = RAW.encode_configuration(one) == RAW.encode_configuration(other)
    assert (one == other) is same_bits
    assert (one != other) is not same_bits
    if same_bits:
        assert hash(one) == hash(other)
