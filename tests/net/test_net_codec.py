"""Encoding configurations: exact bits for both headers, header choice, round trips, and
configurations or declarations a codec refuses."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest
from net_samples import (
    BODY,
    HERO,
    REUSE,
    Body,
    Direction,
    Hero,
    Reuse,
    bits,
    chain,
    declared,
    machine,
)

import statetree as st
from statetree import net
from statetree.errors import DefinitionError, UsageError
from statetree.net import ActiveState, Codec, Configuration, HeaderMode
from statetree.structure import Edge, StateInfo, Structure, derive

# Hero, path header: the top chooses Alive (0) or Dead (1) of 2; Alive chooses Locomotion
# (0) or Jump (1) of 2; Locomotion chooses Stand (0) or Move (1) of 2. The largest header,
# Alive/Locomotion/Move, is 0 + 2 * (0 + 2 * 1) = 4: three bits.
HERO_PATH = [
    (chain(Hero.Alive, Hero.Locomotion, Hero.Stand), 0, "000" + "00000"),
    (chain(Hero.Alive, Hero.Locomotion, (Hero.Move, Direction.RIGHT)), 4, "100" + "1" + "0000"),
    (chain(Hero.Alive, (Hero.Jump, 300)), 2, "010" + "0000000100101100" + "00000"),
    (chain((Hero.Dead, 25)), 1, "001" + "0000000000011001" + "00000"),
]
# Hero, leaf index: Stand 0, Move 1, Jump 2, Dead 3, in two bits.
HERO_LEAF = [
    (chain(Hero.Alive, Hero.Locomotion, Hero.Stand), 0, "00" + "000000"),
    (chain(Hero.Alive, Hero.Locomotion, (Hero.Move, Direction.LEFT)), 1, "01" + "0" + "00000"),
    (chain(Hero.Alive, (Hero.Jump, 300)), 2, "10" + "0000000100101100" + "000000"),
    (chain((Hero.Dead, 25)), 3, "11" + "0000000000011001" + "000000"),
]


@pytest.mark.parametrize(("configuration", "header", "expected"), HERO_PATH)
def test_path_header_bits(configuration: Configuration, header: int, expected: str) -> None:
    codec = Codec.path(HERO)
    assert codec.header_of(configuration) == header
    data = codec.encode_configuration(configuration)
    assert bits(data) == expected
    assert codec.decode(data) == configuration


@pytest.mark.parametrize(("configuration", "header", "expected"), HERO_LEAF)
def test_leaf_header_bits(configuration: Configuration, header: int, expected: str) -> None:
    codec = Codec.leaf(HERO)
    assert codec.header_of(configuration) == header
    data = codec.encode_configuration(configuration)
    assert bits(data) == expected
    assert codec.decode(data) == configuration


def test_a_state_with_two_outers_has_a_place_under_each() -> None:
    # Alive may settle empty (only inner transitions): [Emote, Attack, nothing] of 3, its
    # children in its own order and "nothing" last; each of Emote and Attack chooses
    # [PlayAnim, Done] of 2; PlayAnim's Int(1, 5) takes 3 bits.
    codec = Codec.path(REUSE)
    cases = [
        (chain(Reuse.Alive), "010" + "00000"),
        (chain(Reuse.Alive, Reuse.Emote, (Reuse.PlayAnim, 5)), "000" + "100" + "00"),
        (chain(Reuse.Alive, Reuse.Attack, (Reuse.PlayAnim, 3)), "001" + "010" + "00"),
        (chain(Reuse.Alive, Reuse.Emote, Reuse.Done), "011" + "00000"),
    ]
    for configuration, expected in cases:
        assert bits(codec.encode_configuration(configuration)) == expected
        assert codec.decode(codec.encode_configuration(configuration)) == configuration
    assert (codec.configurations, codec.header_bits, codec.minimum_bits) == (5, 3, 3)


def test_regions_are_digits_of_their_host() -> None:
    # Upper and Lower each choose [Aim, Idle, nothing] / [Run, Stand, nothing]: radix 3.
    # Aim (0) and Stand (1) make the regions 0 + 3 * 1 = 3; Alive (0) of 2 at the top makes
    # the header 0 + 2 * 3 = 6, in five bits (the largest is 0 + 2 * 8 = 16).
    codec = Codec.path(BODY)
    alive = ActiveState(
        Body.Alive,
        regions=(
            ActiveState(Body.Upper, inner=ActiveState(Body.Aim, (7,))),
            ActiveState(Body.Lower, inner=ActiveState(Body.Stand)),
        ),
    )
    configuration = Configuration(alive)
    assert str(configuration) == "Alive{Upper/Aim(7) | Lower/Stand}"
    assert codec.header_of(configuration) == 6
    data = codec.encode_configuration(configuration)
    assert bits(data) == "00110" + "00000111" + "000"
    assert codec.decode(data) == configuration
    assert (codec.configurations, codec.header_bits, codec.minimum_bits) == (10, 5, 4)


def test_settles_empty_overrides_what_the_transitions_suggest() -> None:
    strict = Codec.path(BODY, settles_empty={"Body.Upper": False, "Body.Lower": False})
    assert (strict.configurations, strict.header_bits) == (5, 3)
    loose = Codec.path(HERO, settles_empty={"Hero.Alive": True})
    assert loose.configurations == 5
    assert loose.decode(loose.encode_configuration(chain(Hero.Alive))) == chain(Hero.Alive)


def test_settles_empty_takes_booleans() -> None:
    with pytest.raises(UsageError) as refused:
        Codec.path(HERO, settles_empty={"Hero.Alive": "yes"})  # type: ignore[dict-item]
    assert str(refused.value) == (
        "settles_empty maps state names to True or False, got 'yes' for Hero.Alive"
    )


@pytest.mark.parametrize(
    ("root", "message"),
    [
        (None, "a Configuration's root is an ActiveState, got None"),
        (ActiveState("Hero"), "an ActiveState needs a state class, got 'Hero'"),  # type: ignore[arg-type]
        (
            ActiveState(Hero.Move, [1]),  # type: ignore[arg-type]
            "the payload of an ActiveState of Hero.Move is a tuple, got [1]",
        ),
        (
            ActiveState(Hero.Alive, (), Hero.Move),  # type: ignore[arg-type]
            "the inner state of an ActiveState of Hero.Alive is an ActiveState or None, got "
            f"{Hero.Move!r}",
        ),
        (
            ActiveState(Hero.Alive, (), None, (Hero.Move,)),  # type: ignore[arg-type]
            "the regions of an ActiveState of Hero.Alive are a tuple of ActiveState, got "
            f"({Hero.Move!r},)",
        ),
        (
            ActiveState(Hero.Alive, (), ActiveState(Hero.Locomotion, (), ActiveState(5))),  # type: ignore[arg-type]
            "an ActiveState needs a state class, got 5",
        ),
        (
            ActiveState(Hero.Alive, (), ActiveState(Hero.Jump), (ActiveState(Hero.Locomotion),)),
            "an ActiveState of Hero.Alive has both regions and an inner state: a state hosting "
            "regions holds nothing else",
        ),
    ],
)
def test_a_configuration_built_by_hand_is_checked_before_it_is_used(
    root: Any, message: str
) -> None:
    codec = Codec.path(HERO)
    hero = machine(Hero.Alive)
    before = codec.capture(hero)
    configuration = Configuration(root)
    for use in (codec.encode_configuration, codec.header_of, lambda c: codec.apply(hero, c)):
        with pytest.raises(UsageError) as refused:
            use(configuration)
        assert str(refused.value) == message
    assert codec.capture(hero) == before


def test_applying_with_a_wrong_cause_is_refused_and_changes_nothing() -> None:
    codec = Codec.path(HERO)
    hero = machine(Hero.Alive)
    before = codec.capture(hero)
    with pytest.raises(UsageError) as refused:
        codec.apply(hero, chain((Hero.Dead, 5)), cause="rollback")  # type: ignore[arg-type]
    assert str(refused.value) == (
        "apply(cause='rollback'): the cause must be a st.Cause, such as st.Cause.RESIMULATION"
    )
    assert codec.capture(hero) == before


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_saved_codec_writes_the_same_bits(how: str) -> None:
    strict = Codec.path(BODY, settles_empty={"Body.Upper": False, "Body.Lower": False})
    for codec in (strict, Codec.leaf(HERO), Codec.auto(REUSE)):
        loaded = pickle.loads(pickle.dumps(codec)) if how == "pickle" else copy.deepcopy(codec)
        assert loaded.structure == codec.structure
        assert [i.cls for i in loaded.structure.states] == [i.cls for i in codec.structure.states]
        assert (loaded.header_mode, loaded.configurations) == (
            codec.header_mode,
            codec.configurations,
        )
        assert loaded.fingerprint == codec.fingerprint
    hero = Codec.leaf(HERO)
    loaded = pickle.loads(pickle.dumps(hero))
    for configuration, _, _ in HERO_LEAF:
        data = hero.encode_configuration(configuration)
        assert loaded.encode_configuration(configuration) == data
        assert loaded.decode(data) == configuration


def test_auto_takes_the_leaf_index_only_where_valid_and_smaller() -> None:
    assert Codec.auto(HERO).header_mode is HeaderMode.LEAF
    assert Codec.auto(REUSE).header_mode is HeaderMode.PATH
    assert Codec.auto(BODY).header_mode is HeaderMode.PATH
    flat = declared(
        "A", [("A", "B", st.TransitionKind.SIBLING), ("B", "A", st.TransitionKind.SIBLING)]
    )
    assert (Codec.path(flat).header_bits, Codec.leaf(flat).header_bits) == (1, 1)
    assert Codec.auto(flat).header_mode is HeaderMode.PATH


def test_the_leaf_index_refuses_structures_it_cannot_describe() -> None:
    with pytest.raises(DefinitionError) as several:
        Codec.leaf(REUSE)
    assert str(several.value) == (
        "the leaf-index header needs every state to have a single outer, but Reuse.PlayAnim "
        "is reached from Reuse.Emote, Reuse.Attack; use the path header"
    )
    with pytest.raises(DefinitionError, match=r"cannot describe concurrent regions \(Body.Alive"):
        Codec.leaf(BODY)


def test_a_machine_round_trips_through_bytes() -> None:
    codec = Codec.auto(HERO)
    hero = machine(Hero.Alive, move=Direction.LEFT)
    assert repr(codec) == "<Codec Hero.Alive leaf header 2 bit(s), 4 configurations>"
    data = codec.encode(hero)
    assert bits(data) == "01000000"
    assert str(codec.decode(data)) == "Alive/Locomotion/Move(Direction.LEFT)"
    assert codec.decode(data) == codec.capture(hero)
    assert codec.decode(data).classes == (Hero.Alive, Hero.Locomotion, Hero.Move)


# -- what a codec refuses -------------------------------------------------------------------


class Dummy(st.State[None]):
    pass


def test_a_nesting_cycle_is_refused_naming_it() -> None:
    inner = st.TransitionKind.INNER
    cyclic = declared("A", [("A", "B", inner), ("B", "C", inner), ("C", "B", inner)])
    with pytest.raises(DefinitionError, match=r"^nesting cycle B -> C -> B: a state that can be"):
        Codec.path(cyclic)


def test_structures_without_classes_or_with_unknown_states_are_refused() -> None:
    names_only = Structure.from_names("Root", [("Root", "Leaf", st.TransitionKind.INNER)])
    with pytest.raises(DefinitionError, match=r"^state Root has no class in the structure"):
        Codec.path(names_only)
    typo = Edge("Hero.Stand", "Hero.Run", st.TransitionKind.SIBLING)
    with pytest.raises(DefinitionError, match=r"^Hero.Stand -> Hero.Run \(sibling\): the target"):
        Codec.path(Structure(HERO.initial, HERO.states, (*HERO.edges, typo)))
    with pytest.raises(DefinitionError, match=r"^settles_empty names unknown state\(s\): Nope$"):
        Codec.path(HERO, settles_empty={"Nope": True})


class Hidden(st.State[None]):
    def transition(self) -> st.Transition | None:
        return st.inner(Dummy if self.owner else Hidden)


def test_a_transition_the_structure_could_not_follow_is_refused() -> None:
    with pytest.raises(DefinitionError, match=r"^state Hidden: .*declare the targets with"):
        Codec.path(derive(Hidden))


def stateful(**body: Any) -> Structure:
    state = type("X", (st.State,), body)
    return Structure("X", (StateInfo("X", state),), ())


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"net_fields": [net.UInt(3)]}, "^X.net_fields must be a tuple of statetree.net fields"),
        ({"net_fields": (net.UInt(3),)}, "^X declares net_fields but no net_payload"),
        (
            {
                "net_fields": (net.UInt(3),),
                "net_payload": lambda self: (1,),
                "on_enter": lambda self, level: None,
                "net_validate": lambda cls, level: None,
            },
            r"^X\.net_validate must be a classmethod \(it checks a payload received",
        ),
        (
            {"net_fields": (net.UInt(3),), "net_payload": tuple, "on_enter": lambda self: None},
            r"^X.on_enter\(self\) cannot take the 1 argument\(s\) X.net_fields declares "
            r"\(.+\): a received configuration enters",  # in parentheses: Python's reason
        ),
        (
            {"on_enter": lambda self, speed: None},
            r"^X.on_enter\(self, speed\) requires arguments, but no net_fields declare them "
            r"\(.+\): a received configuration enters",
        ),
    ],
)
def test_stateful_declarations_are_checked(body: dict[str, Any], message: str) -> None:
    with pytest.raises(DefinitionError, match=message):
        Codec.path(stateful(**body))


def test_encoding_refuses_configurations_the_structure_does_not_allow() -> None:
    codec = Codec.path(HERO)
    cases = [
        (chain(Hero.Stand), "Hero.Stand cannot be active at the top: the structure allows "),
        (chain(Hero.Alive, Hero.Stand), "Hero.Stand cannot be inside Hero.Alive: the structure"),
        (chain(Hero.Alive), "Hero.Alive has no inner state, but the codec expects one once"),
        (chain(Dummy), "Dummy cannot be active at the top"),
        (
            Configuration(ActiveState(Hero.Alive, regions=(ActiveState(Hero.Stand),))),
            "Hero.Alive has regions, but the structure gives it no concurrent transition",
        ),
    ]
    for configuration, message in cases:
        with pytest.raises(UsageError) as error:
            codec.encode_configuration(configuration)
        assert str(error.value).startswith(message)
    one_region = Configuration(ActiveState(Body.Alive, regions=(ActiveState(Body.Upper),)))
    with pytest.raises(UsageError, match=r"^Body.Alive has 1 region\(s\), but its concurrent"):
        Codec.path(BODY).encode_configuration(one_region)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ((70000,), "field Jump.started: 70000 is out of the range 0..65535"),
        ((3,), "Hero.Jump.net_validate refuses it: jumps start on even frames"),
        ((2, 4), r"Hero.Jump has 1 field\(s\)"),
    ],
)
def test_encoding_refuses_payloads_that_do_not_fit(payload: tuple[Any, ...], message: str) -> None:
    with pytest.raises(UsageError, match=f"^payload of Hero.Jump: {message}$"):
        Codec.path(HERO).encode_configuration(chain(Hero.Alive, (Hero.Jump, *payload)))


def test_capturing_checks_what_net_payload_returns() -> None:
    hero = machine(Hero.Alive, jump=True)
    hero.stack[-1].started = -1  # type: ignore[attr-defined]
    message = r"^Hero.Jump.net_payload\(\) returned \(-1,\): field Jump.started: -1 is out"
    with pytest.raises(UsageError, match=message):
        Codec.path(HERO).encode(hero)


def test_a_machine_without_states_cannot_be_encoded() -> None:
    idle = st.StateMachine(Hero.Alive, name="idle")
    with pytest.raises(UsageError, match=r"cannot capture <StateMachine 'idle' \[\]>: it has no"):
        Codec.path(HERO).encode(idle)


def test_an_active_state_missing_from_the_structure_is_named() -> None:
    stray = st.StateMachine(Dummy)
    stray.process_state_transitions()
    with pytest.raises(UsageError, match=r"^Dummy is not a state of the codec's structure"):
        Codec.path(HERO).capture(stray)


def test_a_codec_is_built_from_a_structure_and_handed_machines_and_configurations() -> None:
    with pytest.raises(UsageError) as refused:
        Codec.auto(Hero.Alive)  # type: ignore[arg-type]
    assert str(refused.value).startswith("a codec is built from a machine's structure, got <class ")
    assert str(refused.value).endswith(": Codec.auto(derive(Hero.Alive)), with derive from "
                                       "statetree.structure")  # fmt: skip
    with pytest.raises(UsageError, match=r"^settles_empty maps state names"):
        Codec.auto(HERO, settles_empty=["Hero.Alive"])  # type: ignore[arg-type]
    codec = Codec.auto(HERO)
    hero = machine(Hero.Alive)
    owner = hero.owner
    for call in (codec.encode, codec.capture):
        with pytest.raises(UsageError, match=r"^a codec encodes and applies a StateMachine"):
            call(owner)  # type: ignore[arg-type]
    packet = codec.encode(hero)
    for call in (codec.header_of, codec.encode_configuration):
        with pytest.raises(UsageError, match=r"^a Configuration is needed"):
            call(packet)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="to apply a packet's bytes, use receive"):
        codec.apply(hero, packet)  # type: ignore[arg-type]
    assert codec.encode(hero) == packet  # nothing changed


class Scalar(st.State[None]):
    """A stateful state whose net_payload returns its one value alone, not in a tuple."""

    net_fields = (net.UInt(3),)

    def on_enter(self, level: int = 0) -> None:
        self.level = level

    def net_payload(self) -> Any:
        return self.level


def test_a_payload_that_is_no_tuple_is_refused_naming_the_state() -> None:
    codec = Codec.auto(derive(Scalar))
    scalar = st.StateMachine(Scalar)
    scalar.process_state_transitions()

    for call in (codec.encode, codec.capture):
        with pytest.raises(UsageError) as refused:
            call(scalar)
        assert str(refused.value) == (
            "Scalar.net_payload() returned 0: it returns a tuple of values, one per net_fields "
            "entry (return (value,) for one)"
        )
