"""Moving agents to received configurations, with the exits and entries a machine makes.

``Codec.apply`` walks a machine and a configuration together, top down: it keeps what is
the same and, at the first difference on each branch, changes the machine with one tool
call (an ``apply_transition`` or an ``exit``), which exits what differs, innermost first,
then enters the received state (or the missing regions). Here each agent's walk is worked
out once per distinct pair of current and received flags, as a list of *steps* (states
exited, then entered); the agents take their steps together, the ``k``-th step of every
agent at once, so each agent sees its own calls in its machine's order and each action
runs once per step for all agents performing it.
"""

from __future__ import annotations

from collections.abc import Sequence

from statetree.chart.batch.arrays import Indexes, NDArray, np
from statetree.chart.batch.engine import Engine
from statetree.chart.batch.tree import Tree
from statetree.chart.batch.work import Work
from statetree.chart.model import Policy

__all__ = ["sync", "sync_steps"]

Step = tuple[tuple[int, ...], tuple[int, ...]]
"""The states one tool call exits (descending) and enters (ascending)."""


def sync(engine: Engine, ids: Indexes, targets: Sequence[int], of_agent: Indexes) -> None:
    """Move each agent of ``ids`` (ascending) to the active flags ``targets[of_agent[i]]``.

    An agent that has not started enters its root first, as ``machine.start()``; nothing
    is processed after.
    """
    if ids.size == 0:
        return
    groups, inverse = _pairs(engine.store.flag_words(ids), of_agent, len(targets))
    tree = engine.plan.tree
    plans = [sync_steps(tree, current, targets[target]) for current, target in groups]
    if not any(plans):
        return
    work = engine.store.gather(ids, engine.plan)
    order = np.argsort(inverse, kind="stable")  # each group's positions, ascending
    cuts = np.searchsorted(inverse[order], np.arange(len(groups) + 1)).tolist()
    positions = [order[cuts[group] : cuts[group + 1]] for group in range(len(groups))]
    for number in range(max(len(steps) for steps in plans)):
        taking = [
            (steps[number], positions[g]) for g, steps in enumerate(plans) if number < len(steps)
        ]
        _take(engine, work, taking)
    engine.store.scatter(work, np.ones(work.k, np.bool_))


def _pairs(
    current: NDArray[np.generic], of_agent: Indexes, targets: int
) -> tuple[list[tuple[int, int]], Indexes]:
    """The distinct ``(current flags, target)`` pairs, and the pair of each agent."""
    if current.dtype != object:  # one-dimensional uniques: sorting pairs is far slower
        flags, flags_of = np.unique(current, return_inverse=True)
        codes = flags_of.reshape(-1).astype(np.int64) * targets + of_agent
        distinct, inverse = np.unique(codes, return_inverse=True)
        found = flags.tolist()
        pairs = [(int(found[code // targets]), code % targets) for code in distinct.tolist()]
        return pairs, inverse.reshape(-1).astype(np.intp)
    known: dict[tuple[int, int], int] = {}
    numbers = [
        known.setdefault((int(flags), int(target)), len(known))
        for flags, target in zip(current.tolist(), of_agent.tolist(), strict=True)
    ]
    return list(known), np.asarray(numbers, np.intp)


def _take(engine: Engine, work: Work, taking: list[tuple[Step, Indexes]]) -> None:
    """One step for each group of agents: every exit (descending), then every entry."""
    exits: dict[int, list[Indexes]] = {}
    entries: dict[int, list[Indexes]] = {}
    for (exited, entered), positions in taking:
        for state in exited:
            exits.setdefault(state, []).append(positions)
        for state in entered:
            entries.setdefault(state, []).append(positions)
    for state in sorted(exits, reverse=True):
        at = _joined(exits[state])
        engine.exit(work, state, at)
        work.active[state, at] = False
    for state in sorted(entries):
        engine.enter(work, state, _joined(entries[state]))


def _joined(parts: list[Indexes]) -> Indexes:
    return parts[0] if len(parts) == 1 else np.sort(np.concatenate(parts))


def sync_steps(tree: Tree, current: int, target: int) -> list[Step]:
    """The steps that move an agent with active flags ``current`` to ``target``."""
    active = {n for n in range(len(tree)) if current >> n & 1}
    wanted = {n for n in range(len(tree)) if target >> n & 1}
    steps: list[Step] = []
    if 0 not in active:
        steps.append(((), (0,)))
        active = {0}
    _inside(tree, 0, active, wanted, steps)
    return steps


def _inside(tree: Tree, host: int, active: set[int], wanted: set[int], steps: list[Step]) -> None:
    """The steps that make what is inside ``host`` match ``wanted`` (``_Sync.inside``)."""
    kids = tree.children[host]
    present = [kid for kid in kids if kid in active]
    chosen = [kid for kid in kids if kid in wanted]
    if tree.policy(host) is Policy.CONCURRENT:
        if not chosen:  # each region is exited on its own, the last first
            steps.extend((_exited(tree, kid, active), ()) for kid in reversed(present))
            return
        missing = tuple(kid for kid in kids if kid not in active)
        if missing:  # the host's own concurrent transition enters them
            steps.append(((), missing))
            active.update(missing)
        for kid in kids:
            _inside(tree, kid, active, wanted, steps)
        return
    if not chosen:
        if present:
            steps.append((_exited(tree, present[0], active), ()))
        return
    kid = chosen[0]
    if present != chosen:
        steps.append((_exited(tree, present[0], active) if present else (), (kid,)))
        active.add(kid)
    _inside(tree, kid, active, wanted, steps)


def _exited(tree: Tree, state: int, active: set[int]) -> tuple[int, ...]:
    """The active states from ``state`` inwards, innermost first; they leave ``active``."""
    gone = tuple(n for n in reversed(range(state, tree.end[state])) if n in active)
    active.difference_update(gone)
    return gone
