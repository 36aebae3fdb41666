"""A bounded soak: many chart machines, timers and reloads; memory stays flat."""

from __future__ import annotations

import gc
import random
import tracemalloc

from chart_samples import CHARTS, GAME

from statetree.chart import ChartMachine, Event, compile_chart, loads
from statetree.chart.runtime import COMPACT_AT

# The combo attack, whose every combo also starts a long cooldown timer: it dies with the
# combo long before it is due, as the window timers do, while the root's even longer
# timer stays alive (and first in line) all along.
TEXT = (
    (CHARTS / "combo_attack.yaml")
    .read_text()
    .replace(
        "          exit: [clear_history]\n",
        "          enter: [start_timer: {name: Cooldown, delay: 1000}]\n"
        "          exit: [clear_history]\n",
    )
    .replace(
        "  name: Character\n",
        "  name: Character\n  enter: [start_timer: {name: Life, delay: 900}]\n",
    )
)
assert "Cooldown" in TEXT and "Life" in TEXT
# Two versions to reload back and forth: the second changes an active state's enter actions
# (so reloads exit and enter states, restarting timers) and a window's length.
EDITED = TEXT.replace("damage: 2.0", "damage: 2.5").replace("0.5", "0.25")
VERSIONS = [compile_chart(loads(text, "yaml", GAME)) for text in (TEXT, EDITED)]
INPUTS = [Event("input", "ComboAttackButton"), Event("anim_finished", "ComboAttack1")]
MACHINES, FRAMES, RELOAD_EVERY = 40, 600, 40


def run(machines: list[ChartMachine], frames: range, rng: random.Random) -> None:
    for frame in frames:
        for machine in machines:
            if rng.random() < 0.3:
                machine.send(rng.choice(INPUTS))
            machine.tick(1 / 60)
            if frame % RELOAD_EVERY == 0:
                machine.reload(VERSIONS[(frame // RELOAD_EVERY) % 2])


def test_memory_stays_flat_with_timers_and_reloads() -> None:
    rng = random.Random(7)
    handlers = {action.name: lambda call: None for action in GAME.host_actions()}
    machines = [ChartMachine(VERSIONS[0], handlers) for _ in range(MACHINES)]
    run(machines, range(1, FRAMES // 3), rng)  # warm up: every state and timer seen
    gc.collect()
    tracemalloc.start()
    try:
        run(machines, range(FRAMES // 3, 2 * FRAMES // 3), rng)
        gc.collect()
        middle = tracemalloc.get_traced_memory()[0]
        run(machines, range(2 * FRAMES // 3, FRAMES), rng)
        gc.collect()
        end = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert end - middle < 64 * 1024, f"grew by {end - middle} bytes over {FRAMES // 3} frames"
    for machine in machines:
        runtime = machine._runtime
        live = sum(entry[2].alive for entry in runtime.timers)
        assert len(runtime.timers) <= 2 * live + COMPACT_AT + 1
