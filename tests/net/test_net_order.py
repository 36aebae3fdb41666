"""Child indexes on the wire: each parent's own ordered child list, exactly as seed 000's
``SerNode`` numbers them, declared so that refactoring the code does not move them."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import pytest
from net_samples import Logged, Owner, chain

import statetree as st
from statetree import net
from statetree.errors import DefinitionError
from statetree.net import Codec, PacketError
from statetree.structure import Structure, children, derive, outermost


# The seed's torch: "Here the decisions are 2nd of 3, 1st of 1, 2nd of 2, 1st of 2, and 1st
# of 1". Ember has two parents, Glow and Steady, and a different index under each.
class Torch:
    @outermost("Unlit", "Lit", "BurntOut")
    class Unlit(Logged):
        def transition(self) -> st.Transition | None:
            if self.owner["burnt"]:
                return st.sibling(Torch.BurntOut)
            return st.sibling(Torch.Lit) if self.owner["lit"] else None

    class BurntOut(Logged):
        pass

    @children("Burning")
    class Lit(Logged):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Torch.Burning)

    @children("Steady", "Flickering")
    class Burning(Logged):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Torch.Steady)

    @children("Flare", "Ember")
    class Steady(Logged):
        def transition(self) -> st.Transition | None:
            if self.owner["wind"]:
                return st.sibling(Torch.Flickering)
            return st.inner_entry(Torch.Flare)

    class Flare(Logged):
        def transition(self) -> st.Transition | None:
            return st.sibling(Torch.Ember) if self.owner["low"] else None

    @children("Glow", "Gust")
    class Flickering(Logged):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Torch.Glow)

    @children("Ember")
    class Glow(Logged):
        def transition(self) -> st.Transition | None:
            if self.owner["gust"]:
                return st.sibling(Torch.Gust)
            return st.inner_entry(Torch.Ember)

    class Gust(Logged):
        pass

    class Ember(Logged):
        pass


@dataclass
class SeedNode:
    """The seed's node: ``_subNodes`` and ``_childIndex``, transliterated."""

    name: str
    sub_nodes: list[SeedNode] = field(default_factory=list)
    child_index: int = -1

    def ser_node(self, depth_mul: int = 1) -> int:
        # int SerNode(int depthMul = 1)
        if self.child_index == -1:
            return 0
        h = self.sub_nodes[self.child_index].ser_node(depth_mul * len(self.sub_nodes))
        return h + self.child_index * depth_mul


SEED_TREE = {  # each node's _subNodes, by name, as the seed's torch would list them
    "root": ["Unlit", "Lit", "BurntOut"],
    "Lit": ["Burning"],
    "Burning": ["Steady", "Flickering"],
    "Steady": ["Flare", "Ember"],
    "Flickering": ["Glow", "Gust"],
    "Glow": ["Ember"],
}


def seed_header(path: list[str]) -> int:
    """The seed's header of the active path (``root`` first), by its own algorithm."""
    nodes = [SeedNode(name) for name in ["root", *path]]
    for node, inner in itertools.pairwise(nodes):
        node.sub_nodes = [SeedNode(name) for name in SEED_TREE[node.name]]
        node.child_index = SEED_TREE[node.name].index(inner.name)
        node.sub_nodes[node.child_index] = inner
    return nodes[0].ser_node()


def test_the_seeds_torch_example_gives_the_seeds_header() -> None:
    codec = Codec.path(derive(Torch.Unlit))
    lit = chain(Torch.Lit, Torch.Burning, Torch.Flickering, Torch.Glow, Torch.Ember)
    # 2nd of 3, 1st of 1, 2nd of 2, 1st of 2, 1st of 1: 1*1 + 0*3 + 1*3 + 0*6 + 0*12
    assert codec.header_of(lit) == seed_header(["Lit", "Burning", "Flickering", "Glow", "Ember"])
    assert codec.header_of(lit) == 4


def test_every_torch_configuration_matches_the_seeds_formula() -> None:
    codec = Codec.path(derive(Torch.Unlit))
    seen = 0
    for header in range(codec.tree.top.largest + 1):
        try:
            configuration = codec.decode(bytes([header << (8 - codec.header_bits)]))
        except PacketError:
            continue
        path = [cls.__name__ for cls in configuration.classes]
        assert header == seed_header(path), path
        seen += 1
    # Ember under Steady (index 1 of 2) and under Glow (index 0 of 1): two places, its own
    # index in each.
    assert seen == codec.configurations == 6
    ember_in_steady = chain(Torch.Lit, Torch.Burning, Torch.Steady, Torch.Ember)
    assert codec.header_of(ember_in_steady) == seed_header(["Lit", "Burning", "Steady", "Ember"])


def refactored(structure: Structure) -> Structure:
    """``structure`` as if its code named every transition in the other order."""
    return Structure(
        structure.initial,
        structure.states,
        tuple(reversed(structure.edges)),
        structure.unresolved,
        structure.children,
        structure.outermost,
    )


def test_reordering_the_code_moves_nothing_once_the_order_is_declared() -> None:
    declared = derive(Torch.Unlit)
    assert Codec.path(declared).fingerprint == Codec.path(refactored(declared)).fingerprint
    undeclared = derive(Undeclared.Unlit)
    assert Codec.path(undeclared).fingerprint != Codec.path(refactored(undeclared)).fingerprint


class Undeclared:
    class Unlit(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner["burnt"]:
                return st.sibling(Undeclared.BurntOut)
            return st.sibling(Undeclared.Lit) if self.owner["lit"] else None

    class Lit(st.State[Owner]):
        pass

    class BurntOut(st.State[Owner]):
        pass


def test_without_a_declaration_the_order_the_code_is_written_in_decides() -> None:
    codec = Codec.path(derive(Undeclared.Unlit))
    assert [node.name for node in codec.tree.top.nodes] == [
        "Undeclared.Unlit",
        "Undeclared.BurntOut",
        "Undeclared.Lit",
    ]


class Shared:
    """Quick and Heavy both contain Windup and Strike, each in its own order."""

    class Fight(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner(Shared.Heavy) if self.owner["heavy"] else st.inner(Shared.Quick)

    @children("Windup", "Strike")
    class Quick(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Shared.Windup)

    @children("Strike", "Windup")
    class Heavy(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Shared.Windup)

    class Windup(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Shared.Strike) if self.owner["go"] else None

    class Strike(st.State[Owner]):
        pass


def test_a_state_with_two_parents_takes_its_index_from_each_parents_own_list() -> None:
    codec = Codec.path(derive(Shared.Fight))
    fight = codec.tree.top.nodes[0]
    heavy, quick, nothing = fight.options
    assert isinstance(heavy, net.tree.Node)
    assert isinstance(quick, net.tree.Node)
    assert (heavy.cls, quick.cls, nothing) == (Shared.Heavy, Shared.Quick, None)
    assert quick.choice[Shared.Windup] == heavy.choice[Shared.Strike] == 0
    assert quick.choice[Shared.Strike] == heavy.choice[Shared.Windup] == 1
    # Fight: [Heavy, Quick, nothing] of 3 (the order its code names them), then 2 choices.
    strike_in_heavy = chain(Shared.Fight, Shared.Heavy, Shared.Strike)
    assert codec.header_of(strike_in_heavy) == 0 + 3 * 0
    strike_in_quick = chain(Shared.Fight, Shared.Quick, Shared.Strike)
    assert codec.header_of(strike_in_quick) == 1 + 3 * 1


class Mismatch:
    @children("Stand")
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner["move"]:
                return st.inner_entry(Mismatch.Move)
            return st.inner_entry(Mismatch.Stand)

    class Stand(st.State[Owner]):
        pass

    class Move(st.State[Owner]):
        pass


def test_a_declared_order_that_does_not_match_the_code_is_refused() -> None:
    with pytest.raises(DefinitionError) as error:
        Codec.path(derive(Mismatch.Alive))
    assert str(error.value) == (
        "the children of Mismatch.Alive are declared as (Mismatch.Stand): Mismatch.Move can "
        "be there too, so list it; a codec numbers the states of a place in their declared "
        "order"
    )


class RegionPayload:
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.concurrent(RegionPayload.Aim, RegionPayload.Legs)

    class Aim(st.State[Owner]):
        net_fields = (net.UInt(8),)

        def on_enter(self, target: int) -> None:
            self.target = target

        def net_payload(self) -> tuple[int]:
            return (self.target,)

    class Legs(st.State[Owner]):
        pass


def test_a_region_root_with_a_payload_is_refused_when_the_codec_is_built() -> None:
    with pytest.raises(DefinitionError) as error:
        Codec.auto(derive(RegionPayload.Alive))
    assert str(error.value) == (
        "RegionPayload.Aim declares net_fields, but it is a region root of RegionPayload.Alive: "
        "a host enters its regions with concurrent(...), which passes no arguments, so a "
        "received payload could not be applied; move the payload into a state inside the region"
    )
