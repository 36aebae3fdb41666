"""A JAX environment whose NPCs are a chart: guards of a stealth game, thousands of games at once.

The guards' behaviour is ``examples/charts/guard.yaml`` (patrol, chase, wind up and strike,
search when the player hides, give up), run by a :class:`~statetree.chart.jax.ChartProgram`.
The environment is the usual functional pair ``reset(key) -> state`` and
``step(state, action) -> (state, observation, reward, loops)``, pure JAX: a rollout is one
``lax.scan`` over frames of a ``vmap`` over games, compiled once.

Each frame, the world tells each guard what it sees (``Spotted`` within 3 m, ``InReach``
within 0.6 m) and whether the player hides (the level ``Hidden``); the chart does the rest.
The guards' host actions come back as masks: ``strike`` costs the player its ``damage``
(a parameter of the chart, as an array), ``bark`` is counted. The observation holds the
guards' active states, one-hot, beside their positions.

Run ``python examples/jax_guards.py`` (``--games N --frames N`` to change the sizes).
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from extras import needs

from statetree.chart import DEFAULT_REGISTRY, ActionType, Event, Param, load

REGISTRY = DEFAULT_REGISTRY.with_actions(
    ActionType("bark", (Param("volume", float),)),
    ActionType("strike", (Param("damage", float),)),
)
with needs("chart", "jax"):  # YAML, and JAX
    import jax
    import jax.numpy as jnp
    from jax import lax

    from statetree.chart.jax import SETTLED, Agents, ChartProgram

    CHART = load(Path(__file__).parent / "charts" / "guard.yaml", REGISTRY)
SPOTTED, IN_REACH = Event("event", "Spotted"), Event("event", "InReach")
HIDDEN = Event("held", "Hidden")
GUARDS = 8
DT = 1 / 30
WORLD = 20.0
SPEED = {"Guard.Patrol": 0.8, "Guard.Chase": 2.5, "Guard.Search": 0.4}
PROGRAM = ChartProgram(CHART, [SPOTTED, IN_REACH])


class State(NamedTuple):
    """One game: the player, the guards' positions and patrol directions, their charts."""

    player: jax.Array
    guards: jax.Array
    heading: jax.Array
    npcs: Agents


def reset(key: jax.Array) -> State:
    """A game with the player in the middle and the guards anywhere, not started."""
    where, heading = jax.random.split(key)
    return State(
        player=jnp.asarray(WORLD / 2),
        guards=jax.random.uniform(where, (GUARDS,), maxval=WORLD),
        heading=jnp.where(jax.random.bernoulli(heading, shape=(GUARDS,)), 1.0, -1.0),
        npcs=PROGRAM.init(GUARDS),
    )


def observe(state: State) -> jax.Array:
    """What the policy sees: the player, each guard's offset and its active state."""
    leaves = jax.nn.one_hot(PROGRAM.leaf_ids(state.npcs), len(PROGRAM.paths))
    offsets = (state.guards - state.player) / WORLD
    return jnp.concatenate([state.player[None] / WORLD, offsets, leaves.reshape(-1)])


STRIKE_ROWS, STRIKE = PROGRAM.params("strike")
BARK_ROWS, _ = PROGRAM.params("bark")


def sense(state: State, action: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """The player's move (0 left, 1 stay, 2 right, 3 hide) and what the guards perceive:
    the player's new position, each guard's event (1 ``InReach``, 0 ``Spotted``, -1 none)
    and whether the player hides."""
    hiding = action == 3
    move = jnp.select([action == 0, action == 2], [-1.5, 1.5])
    player = jnp.clip(state.player + move * DT, 0, WORLD)
    distance = jnp.abs(state.guards - player)
    choices = jnp.where(distance < 0.6, 1, jnp.where(distance < 3.0, 0, -1))
    return player, choices, hiding


def step(state: State, action: jax.Array) -> tuple[State, jax.Array, jax.Array, jax.Array]:
    """One frame: the player moves, the guards perceive, their charts step, then they move
    as their states say. ``loops`` counts the guards whose chart could not settle (none
    with this chart: a chart that loops is reported, never silently run on)."""
    player, choices, hiding = sense(state, action)
    npcs, levels = PROGRAM.set_levels(state.npcs, {HIDDEN: hiding})
    npcs, frame = PROGRAM.step(npcs, choices, DT)
    struck = (frame.calls[jnp.asarray(STRIKE_ROWS)] * STRIKE["damage"][:, None]).sum()
    barks = frame.calls[jnp.asarray(BARK_ROWS)].sum()
    speed = sum(PROGRAM.is_active(npcs, path) * v for path, v in SPEED.items())
    chasing = PROGRAM.is_active(npcs, "Guard.Chase")
    bounce = (state.guards <= 0) | (state.guards >= WORLD)
    heading = jnp.where(bounce, -state.heading, state.heading)
    toward = jnp.sign(player - state.guards)
    guards = jnp.clip(state.guards + jnp.where(chasing, toward, heading) * speed * DT, 0, WORLD)
    loops = (frame.failure != SETTLED).sum() + (levels.failure != SETTLED).sum()
    next_state = State(player, guards, heading, npcs)
    return next_state, observe(next_state), DT - struck - 0.01 * barks, loops


def policy(weights: jax.Array, observation: jax.Array, key: jax.Array) -> jax.Array:
    """A linear policy over the observation, sampled."""
    return jax.random.categorical(key, observation @ weights)


@partial(jax.jit, static_argnames=("games", "frames"))
def rollout(key: jax.Array, weights: jax.Array, games: int, frames: int) -> tuple[Any, ...]:
    """``games`` games of ``frames`` frames under the policy ``weights``: every game's
    return, how many guards are in each state at the end (summed over games), and how
    many guard-steps did not settle."""
    keys = jax.random.split(key, games + 1)
    states = jax.vmap(reset)(keys[1:])

    def frame(carry: tuple[State, jax.Array, jax.Array], _: None) -> Any:
        states, returns, key = carry
        key, draw = jax.random.split(key)
        actions = jax.vmap(policy, (None, 0, 0))(
            weights, jax.vmap(observe)(states), jax.random.split(draw, games)
        )
        states, _, rewards, loops = jax.vmap(step)(states, actions)
        return (states, returns + rewards, key), loops.sum()

    start = (states, jnp.zeros(games), keys[0])
    (states, returns, _), loops = lax.scan(frame, start, None, length=frames)
    return returns, PROGRAM.active_flags(states.npcs).sum(axis=(0, 1)), loops.sum()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args(argv)
    key = jax.random.key(0)
    size = observe(reset(key)).size
    weights = 0.1 * jax.random.normal(jax.random.key(1), (size, 4))
    jax.block_until_ready(rollout(key, weights, args.games, args.frames))  # compiles
    start = time.perf_counter()
    returns, counts, loops = jax.block_until_ready(rollout(key, weights, args.games, args.frames))
    seconds = time.perf_counter() - start
    steps = args.games * GUARDS * args.frames
    print(
        f"{args.games} games x {GUARDS} guards x {args.frames} frames in {seconds * 1e3:,.1f} ms: "
        f"{steps / seconds:,.0f} guard-steps a second ({jax.devices()[0].platform})"
    )
    print(f"mean return {float(returns.mean()):.3f} (best {float(returns.max()):.3f})")
    at_end = {path: int(n) for path, n in zip(PROGRAM.paths, counts.tolist(), strict=True)}
    print("guards in each state at the end:", ", ".join(f"{p} {n}" for p, n in at_end.items()))
    print(f"guard-steps that did not settle: {int(loops)}")
    return 0 if int(loops) == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
