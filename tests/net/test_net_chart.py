"""Charts go through the codec unchanged: a chart's structure (with the classes its
compilation generated) encodes its configurations, and a client chart follows a server's."""

from __future__ import annotations

import json
import os
import pickle

import pytest
from net_samples import bits
from policy_samples import child_data

import statetree as st
from statetree.chart import (
    DEFAULT_REGISTRY,
    ChartMachine,
    Event,
    chart_structure,
    compile_chart,
    loads,
)
from statetree.chart.policy import DEFINITIONS, definition
from statetree.errors import DefinitionError
from statetree.net import Codec, HeaderMode

CHART = loads(
    """
name: Duo
root:
  name: Hero
  policy: concurrent
  states:
    - name: Legs
      policy: priority
      states:
        - name: Jumping
          pre: {input: Jump}
          post: {input: Land}
        - name: Running
          pre: {held: Right}
        - name: Standing
    - name: Arms
      states:
        - name: Relaxed
          transitions:
            - {on: {input: Attack}, to: Slashing}
        - name: Slashing
          transitions:
            - {on: {input: Done}, to: Relaxed}
""",
    "yaml",
    DEFAULT_REGISTRY,
)
COMPILED = compile_chart(CHART)
STRUCTURE = chart_structure(CHART)
CODEC = Codec.auto(STRUCTURE, classes=COMPILED.by_path)


def test_a_chart_structure_needs_the_compiled_classes() -> None:
    with pytest.raises(DefinitionError, match=r"^state Hero has no class in the structure"):
        Codec.auto(STRUCTURE)
    with pytest.raises(DefinitionError, match=r"^classes names unknown state\(s\): Hero.Tail$"):
        Codec.auto(STRUCTURE, classes={"Hero.Tail": COMPILED.root})


def test_chart_regions_are_digits_of_the_root() -> None:
    # Legs chooses Jumping, Running or Standing (radix 3), Arms Relaxed or Slashing (radix 2):
    # Standing (2) and Slashing (1) make 2 + 3 * 1 = 5, in three bits.
    assert (CODEC.header_mode, CODEC.header_bits, CODEC.configurations) == (HeaderMode.PATH, 3, 6)
    server = ChartMachine(COMPILED)
    server.start()
    server.send(Event("input", "Attack"))
    assert bits(CODEC.encode(server.machine)) == "101" + "00000"
    assert str(CODEC.capture(server.machine)) == "Hero{Legs/Standing | Arms/Slashing}"


def test_a_client_chart_follows_the_server_and_runs_on() -> None:
    server, client = ChartMachine(COMPILED), ChartMachine(COMPILED)
    server.start()
    client.start()
    server.send(Event("input", "Jump"))
    server.send(Event("input", "Attack"))
    CODEC.receive(client.machine, CODEC.encode(server.machine))
    assert (
        client.active
        == server.active
        == (
            "Hero",
            "Hero.Legs",
            "Hero.Legs.Jumping",
            "Hero.Arms",
            "Hero.Arms.Slashing",
        )
    )
    for event in (Event("input", "Done"), Event("input", "Land")):
        server.send(event)
        client.send(event)
        assert client.active == server.active
    assert client.active[2] == "Hero.Legs.Standing"


def test_a_running_chart_gives_the_codec_its_classes() -> None:
    server = ChartMachine(COMPILED)
    codec = Codec.auto(server.structure, settles_empty={"Hero.Legs": False})
    server.start()
    server.send(Event("input", "Attack"))
    assert codec.encode(server.machine) == CODEC.encode(server.machine)


def test_a_chart_codec_is_not_saved_its_machine_is() -> None:
    server = ChartMachine(COMPILED)
    codec = Codec.auto(server.structure, settles_empty={"Hero.Legs": False})
    with pytest.raises(st.SaveError) as refused:
        st.write_save(os.devnull, codec)
    assert str(refused.value) == (
        "cannot save the class Hero (the class of state Hero), which a chart compiled at run "
        "time: save the chart machine or batch itself, and build what refers to its classes (a "
        "codec of its structure, a Rollback of it) again from it after loading"
    )
    pickle.loads(pickle.dumps(server))  # the machine saves; its codec is built again


# The seed's torch tree as a chart (Ember has two parents there; here Glow's is Embers).
_TORCH = {
    "Torch": ["Unlit", "Lit", "BurntOut"],
    "Lit": ["Burning"],
    "Burning": ["Steady", "Flickering"],
    "Steady": ["Flare", "Ember"],
    "Flickering": ["Glow", "Gust"],
    "Glow": ["Embers"],
}


def _torch_codec(policy: str, mode: HeaderMode) -> Codec:
    # Every child can be reached: by its pre-condition, its elder sibling's post-condition
    # or a transition from a sibling, as its parent's policy reads them.
    def state(name: str, siblings: list[str]) -> dict[str, object]:
        found = definition(policy)
        spec = (
            {"name": name} if name == "Torch" else child_data(found, siblings, siblings.index(name))
        )
        if name in _TORCH:
            names = _TORCH[name]
            spec |= {"policy": policy, "states": [state(n, names) for n in names]}
        return spec

    chart = loads(
        json.dumps({"name": "Torch", "root": state("Torch", ["Torch"])}), "json", DEFAULT_REGISTRY
    )
    make = Codec.path if mode is HeaderMode.PATH else Codec.leaf
    return make(chart_structure(chart), classes=compile_chart(chart).by_path)


HOLDING = [p for p, found in DEFINITIONS.items() if not found.regions and p != "explicit"]


@pytest.mark.parametrize("policy", HOLDING)
@pytest.mark.parametrize(("mode", "bits_"), [(HeaderMode.PATH, 4), (HeaderMode.LEAF, 3)])
def test_a_chart_needs_the_header_of_the_explicit_chart_of_its_tree(
    policy: str, mode: HeaderMode, bits_: int
) -> None:
    # A parent of every policy always holds a child (a priority one its ground when no
    # pre-condition holds), as an explicit parent holds its first: the wire spends no bits
    # on a parent without a child.
    chart, explicit = _torch_codec(policy, mode), _torch_codec("explicit", mode)
    assert (chart.header_bits, explicit.header_bits) == (bits_, bits_)
    assert chart.configurations == explicit.configurations
