"""A small game world watched live in the browser by the statetree inspector.

Run ``python examples/inspector_demo.py`` and open the printed address. The world holds:

- characters driven by the class-based controller of ``examples/character.py`` (walking,
  crawling, jumping on a script), one of them the ``Hero``, replicated with a
  ``statetree.net`` codec: each frame its configuration is encoded as a server would send
  it, and the inspector shows the last update that changed, decoded field by field;
- torches whose lit state hosts two concurrent regions (the flame and the heat), after the
  torch of a networked HSM (the tree docs/net.md encodes);
- bitmask players (``examples/bitmask_player.py``) whose states are requested on a script;
  their masks are "sent" over the network each time they change, and the inspector shows
  the bytes of the last update, decoded bit by bit;
- a platformer hero defined as a chart (``examples/charts/platformer.yaml``, its upper and
  lower body as concurrent regions) driven by an events script; the page can send it
  events, stop the world at a breakpoint on one of its states, and edit the chart: the demo
  works on a copy (``build/inspector_demo/platformer.yaml``), saved and hot-reloaded on each
  edit;
- a crowd of NPCs (``--npcs``, 200 by default) to show that many machines stay cheap: the
  page watches only the machines you tick;
- with NumPy (the ``batch`` extra), a crowd of 2,000 characters running one chart as arrays
  (``examples/crowd.py``'s ``ChartBatch``): the page shows how many are in each state, and
  those numbers over time, and follows three of its agents one by one.

With ``--headless`` (or when the ``CI`` environment variable is set) it runs a fixed number
of frames as fast as it can and exits. ``statetree inspect examples/inspector_demo.py:demo_world``
serves the same world from the command line.
"""

from __future__ import annotations

import argparse
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bitmask_player import Player
from character import Character, CharacterStates, Inputs
from chart_platformer import REGISTRY
from extras import at_least, needs

import statetree as st
from statetree import net
from statetree.chart import ActionCall, ChartMachine, Event, load
from statetree.inspect import (
    ChartFile,
    EditableChartAdapter,
    InspectError,
    Inspector,
    NetMachineAdapter,
    ServeError,
    StateMachineAdapter,
    serve,
)
from statetree.structure import derive

FPS = 30
HEADLESS_FRAMES = 240
CHART = Path(__file__).resolve().parent / "charts" / "platformer.yaml"
WORKING_CHART = Path("build") / "inspector_demo" / "platformer.yaml"


def _quiet(line: str) -> None:
    """A trace sink that drops the lines (the inspector shows the steps instead)."""


# -- torches: concurrent regions -----------------------------------------------------------


class Torch:
    """A torch that burns its fuel, flickers in the wind and is relit when it goes out."""

    def __init__(self, name: str, offset: int = 0) -> None:
        self.name = name
        self.offset = offset
        self.lit = False
        self.fuel = 0
        self.burning = 0
        self.wind = False
        self.machine = st.StateMachine(TorchStates.Unlit, self, name=name)

    def tick(self, frame: int) -> None:
        phase = (frame + self.offset) % 120
        if phase == 10:
            self.lit, self.fuel = True, 90
        self.wind = 40 <= phase < 55
        if self.lit:
            self.fuel -= 1
            self.burning += 1
            self.lit = self.fuel > 0
        else:
            self.burning = 0
        self.machine.process_state_transitions()


class TorchStates:
    """Unlit, or Lit with two regions: Flame (steady or flickering) and Heat."""

    class Unlit(st.State[Torch]):
        def transition(self) -> st.Transition | None:
            return st.sibling(TorchStates.Lit) if self.owner.lit else None

    class Lit(st.State[Torch]):
        def transition(self) -> st.Transition | None:
            if not self.owner.lit:
                return st.sibling(TorchStates.Unlit)
            return st.concurrent(TorchStates.Flame, TorchStates.Heat)

    class Flame(st.State[Torch]):
        def transition(self) -> st.Transition | None:
            if self.owner.wind:
                return st.inner(TorchStates.Flame_Flicker)
            return st.inner(TorchStates.Flame_Steady)

    class Flame_Steady(st.State[Torch]):
        pass

    class Flame_Flicker(st.State[Torch]):
        pass

    class Heat(st.State[Torch]):
        def transition(self) -> st.Transition | None:
            if self.owner.burning > 30:
                return st.inner(TorchStates.Heat_Hot)
            return st.inner(TorchStates.Heat_Warm)

    class Heat_Warm(st.State[Torch]):
        pass

    class Heat_Hot(st.State[Torch]):
        pass


# -- the replicated Hero ---------------------------------------------------------------------


class Replicated:
    """A machine as its server sees it: encoded every frame, reported when the packet changes.

    ``adapter`` is what the inspector watches: the machine's diagram and timeline, and its
    packets decoded with ``codec``; ``inspector.packet`` is given that adapter.
    """

    def __init__(self, machine: st.StateMachine[Any], codec: net.Codec) -> None:
        self.machine = machine
        self.codec = codec
        self.adapter = NetMachineAdapter(StateMachineAdapter(machine), codec)
        self.last = b""

    def send(self, inspector: Inspector | None) -> None:
        """Encode the configuration; report it when it differs from the last one sent."""
        data = self.codec.encode(self.machine)
        if data != self.last:
            self.last = data
            if inspector is not None:
                inspector.packet(self.adapter, data)


def hero_codec() -> net.Codec:
    """The characters' codec: a leaf index of 3 bits, then Jump_Rise's launch velocity."""
    return net.Codec.auto(derive(CharacterStates.Alive))


# -- scripts ---------------------------------------------------------------------------------


def character_inputs(frame: int) -> Inputs:
    """What a character holds at ``frame`` of its 48-frame loop."""
    phase = frame % 48
    move = 8 <= phase < 41
    return Inputs(move=move, crawl=24 <= phase < 28, jump=phase == 28)


PLAYER_SCRIPT: dict[int, tuple[str, str]] = {
    0: ("try_activate", "Alive"),
    5: ("try_activate", "Moving"),
    10: ("try_activate", "Crouching"),
    15: ("try_activate", "Aiming"),
    20: ("try_activate", "Shooting"),
    25: ("deactivate", "Shooting"),
    30: ("try_activate", "Punching"),
    35: ("try_activate", "InDialogue"),
    45: ("deactivate", "InDialogue"),
    50: ("deactivate", "Crouching"),
    55: ("deactivate", "Punching"),
}
"""Requests made to each bitmask player, by frame of its 60-frame loop."""

CHART_SCRIPT: dict[int, tuple[str, Event]] = {
    5: ("hold", Event("held", "Right")),
    20: ("send", Event("input", "Attack")),
    30: ("send", Event("input", "Jump")),
    40: ("send", Event("anim_finished", "Slash")),
    50: ("send", Event("landed", "Ground")),
    60: ("release", Event("held", "Right")),
    70: ("hold", Event("held", "Aim")),
    80: ("send", Event("input", "Attack")),
    100: ("release", Event("held", "Aim")),
}
"""What the platformer hero's player does, by frame of its 120-frame loop."""


def _perform(call: ActionCall) -> None:
    """The game's side of the chart's actions (animations, speed, spawns): nothing here."""


def platformer(path: Path = WORKING_CHART) -> EditableChartAdapter:
    """The platformer chart running from an editable copy at ``path``."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(CHART, path)
    handlers = {name: _perform for name in ("play_animation", "set_speed", "spawn")}
    machine = ChartMachine(load(path, REGISTRY), handlers, name="Platformer")
    return EditableChartAdapter(machine, ChartFile(path, REGISTRY))


BATCH_AGENTS = 3
"""Agents of the batch crowd offered to the page one by one."""


def _batch_crowd() -> Any:
    """2,000 characters of ``examples/crowd.py`` as one ``ChartBatch``, if NumPy is here."""
    try:
        from crowd import Crowd
    except ImportError:  # no NumPy: the demo runs without the batch
        return None
    crowd = Crowd(2000)
    crowd.batch.start()
    return crowd


class DemoWorld:
    """Characters, torches, bitmask players and a crowd, stepped one frame at a time.

    The world follows the inspector's simulation protocol: ``machines()`` lists what to
    inspect, ``attach(inspector)`` is called before the first frame and ``tick(dt)`` runs
    one frame.
    """

    def __init__(self, npcs: int = 200, chart: Path = WORKING_CHART) -> None:
        self.frame = 0
        self.platformer = platformer(chart)
        self.characters = [Character(name, trace=_quiet) for name in ("Hero", "Companion", "Guard")]
        self.hero = Replicated(self.characters[0].machine, hero_codec())
        self.crowd = [Character(f"NPC {number:03d}", trace=_quiet) for number in range(npcs)]
        self.torches = [Torch("Torch", 0), Torch("Wall torch", 45)]
        self.players = [Player("Player 1"), Player("Player 2")]
        self.batch = _batch_crowd()
        for index, player in enumerate(self.players):
            player.ammo = 1000
            player.time = index * 30
        self.inspector: Inspector | None = None

    def machines(self) -> Iterator[object]:
        """Every machine of the world, the interesting ones first."""
        yield self.hero.adapter
        yield self.platformer
        if self.batch is not None:
            yield self.batch.batch
        yield from (torch.machine for torch in self.torches)
        yield from (player.machine for player in self.players)
        yield from (character.machine for character in self.characters[1:])
        if self.batch is not None:  # a few of the batch's agents, each on its own
            yield from (self.batch.batch.agent(index) for index in range(BATCH_AGENTS))
        yield from (npc.machine for npc in self.crowd)

    def attach(self, inspector: Inspector) -> None:
        """Report the Hero's and the players' network updates to ``inspector``."""
        self.inspector = inspector

    def tick(self, dt: float) -> None:
        """One frame of the whole world."""
        frame = self.frame
        for offset, character in enumerate(self.characters + self.crowd):
            character.inputs = character_inputs(frame + offset * 7)
            character.tick(dt)
        self.hero.send(self.inspector)
        for torch in self.torches:
            torch.tick(frame)
        for player in self.players:
            self._play(player)
        hero = self.platformer.chart_machine
        step = CHART_SCRIPT.get(frame % 120)
        if step is not None:
            getattr(hero, step[0])(step[1])
        hero.tick(dt)
        if self.batch is not None:
            self.batch.frame(self.batch.inputs())
        self.frame += 1

    def _play(self, player: Player) -> None:
        request = PLAYER_SCRIPT.get(player.time % 60)
        before = player.machine.mask
        if request is not None:
            method, state = request
            getattr(player.machine, method)(state)
        player.tick()
        if player.machine.mask != before and self.inspector is not None:
            # The authority replicates the mask to clients as bytes; show the last update.
            self.inspector.packet(player.machine, player.machine.encode())


def demo_world() -> DemoWorld:
    """The demo world with a crowd of 200 NPCs (``statetree inspect`` calls this)."""
    return DemoWorld()


def run(
    frames: int | None = None,
    headless: bool = False,
    *,
    port: int | None = None,
    npcs: int = 200,
    until: threading.Event | None = None,
) -> None:
    """Serve the inspector for a demo world and step the world at a fixed rate.

    Args:
        frames: how many frames to run; ``None`` runs until Ctrl-C (or, headless,
            runs 240 frames).
        headless: run the frames as fast as possible and exit.
        port: the inspector's port (0: any free one); by default 8765, or, headless, any
            free one.
        npcs: how many extra NPC characters the world holds.
        until: stop as well once this is set (the showcase sets it when Enter is pressed).
    """
    world = DemoWorld(npcs)
    chosen = (0 if headless else 8765) if port is None else port
    inspector = serve(world.machines(), port=chosen)
    world.attach(inspector)
    print(
        f"statetree inspector: {inspector.url}" + (" (for these frames only)" if headless else "")
    )
    total = HEADLESS_FRAMES if headless and frames is None else frames
    try:
        _loop(world, inspector, total, 0.0 if headless else 1.0 / FPS, until)
    except KeyboardInterrupt:
        print()
    finally:
        inspector.stop()
    hero = " > ".join(type(state).__name__ for state in world.characters[0].machine.stack)
    print(f"ran {world.frame} frames of {len(list(world.machines()))} machines; Hero: {hero}")


def _loop(
    world: DemoWorld,
    inspector: Inspector,
    frames: int | None,
    period: float,
    until: threading.Event | None = None,
) -> None:
    done = 0
    while (frames is None or done < frames) and not (until is not None and until.is_set()):
        if inspector.frame():  # False while the page has paused the world
            world.tick(1.0 / FPS)
            done += 1
        if period:
            time.sleep(period)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headless", action="store_true", help="run a few frames and exit")
    parser.add_argument("--frames", type=at_least(0), help="stop after this many frames")
    parser.add_argument(
        "--port", type=int, help="the inspector's port (0: any; default 8765, headless any)"
    )
    parser.add_argument("--npcs", type=at_least(0), default=200, help="how many NPCs to add")
    args = parser.parse_args()
    headless = args.headless or bool(os.environ.get("CI"))
    try:
        run(args.frames, headless, port=args.port, npcs=args.npcs)
    except InspectError as error:  # a bad --port: a usage error
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    except ServeError as error:  # the port is taken, or the server did not start
        parser.exit(1, f"{parser.prog}: error: {error} (choose another with --port)\n")


if __name__ == "__main__":
    with needs("chart", "inspect"):
        main()
