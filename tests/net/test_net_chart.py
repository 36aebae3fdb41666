"""Charts go through the codec unchanged: a chart's structure (with the classes its
compilation generated) encodes its configurations, and a client chart follows a server's."""

from __future__ import annotations

import pytest
from net_samples import bits

from statetree.chart import (
    DEFAULT_REGISTRY,
    ChartMachine,
    Event,
    chart_structure,
    compile_chart,
    loads,
)
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
# A priority state always has its ground child once settled: only its children can be inside.
CODEC = Codec.auto(STRUCTURE, classes=COMPILED.by_path, settles_empty={"Hero.Legs": False})


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
