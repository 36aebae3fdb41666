"""The JAX guards example: its guards are the chart, as a ChartBatch runs it, and a
rollout of many games under ``vmap`` and ``lax.scan`` runs every guard-step to the end."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

jax = pytest.importorskip("jax", reason="JAX programs need the jax extra (Python 3.11+)")
pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")

import jax_guards as game  # noqa: E402

from statetree.chart import BatchCall, ChartBatch  # noqa: E402

# The player walks right into the guards, hides, strolls back and forth, waits.
ACTIONS = [2] * 60 + [3] * 45 + [0] * 30 + [1] * 40 + [2] * 40 + [3] * 20 + [1] * 25


def test_the_guards_of_a_game_are_the_chart_run_by_a_chart_batch() -> None:
    struck: list[float] = []
    barked: list[int] = []

    def strike(call: BatchCall) -> None:
        struck.append(float(call.params["damage"]) * len(call.entities))  # type: ignore[arg-type]

    def bark(call: BatchCall) -> None:
        barked.append(len(call.entities))

    batch = ChartBatch(game.CHART, game.GUARDS, {"strike": strike, "bark": bark})
    step = jax.jit(game.step)
    state = game.reset(jax.random.key(3))
    seen = set()
    for number, action in enumerate(ACTIONS):
        struck.clear()
        barked.clear()
        _, choices, hiding = game.sense(state, np.int32(action))
        batch.set_levels({game.HIDDEN: bool(hiding)})
        batch.frame(game.DT, [game.SPOTTED, game.IN_REACH], np.asarray(choices))
        state, _, reward, loops = step(state, np.int32(action))
        leaves = np.asarray(game.PROGRAM.leaf_ids(state.npcs))
        assert leaves.tolist() == batch.leaf_ids().tolist(), number
        expected = game.DT - sum(struck) - 0.01 * sum(barked)
        assert float(reward) == pytest.approx(expected, abs=1e-6), number
        assert int(loops) == 0
        seen.update(game.PROGRAM.paths[leaf] for leaf in leaves.tolist())
    # The walk takes guards through every state of the chart.
    assert seen == {
        "Guard.Patrol",
        "Guard.Chase",
        "Guard.Search",
        "Guard.Attack.Windup",
        "Guard.Attack.Strike",
    }


def test_a_rollout_of_many_games_runs_every_guard_step_to_the_end() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert game.main(["--games", "16", "--frames", "90"]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("16 games x 8 guards x 90 frames in ")
    assert lines[-1] == "guard-steps that did not settle: 0"
    counts = dict(item.rsplit(" ", 1) for item in lines[2].split(": ", 1)[1].split(", "))
    assert int(counts["Guard"]) == 16 * game.GUARDS  # every guard started and is somewhere
    leaves = ["Guard.Patrol", "Guard.Chase", "Guard.Search", "Guard.Attack.Windup"]
    leaves.append("Guard.Attack.Strike")
    assert sum(int(counts[leaf]) for leaf in leaves) == 16 * game.GUARDS
