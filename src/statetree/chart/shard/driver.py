"""The driver's side of a sharded batch: one message per shard per call, every answer heard
before anything is raised, mail routed between shards, checkpoints and recovery.

A call sends each shard concerned its operation and the mail waiting for its agents, then
waits for every answer. Only then does it route the mail the shards' agents sent (to be
delivered with the next call) and raise what went wrong: the first error of a shard, a send
to an agent that does not exist, or one ``BatchLoopError`` for all the shards' agents that
could not settle. A shard whose actor died is replaced, every shard is brought back to the
checkpoint and the call raises :class:`ShardLostError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

from statetree.chart.batch import BatchLoopError
from statetree.chart.compile import CompiledChart
from statetree.chart.errors import HandlerError
from statetree.chart.shard.cluster import ShardPool
from statetree.chart.shard.errors import ShardError, ShardLostError
from statetree.chart.shard.layout import Layout
from statetree.chart.shard.parts import Loop, Mail, Reply, ShardPart, ShardSetup
from statetree.core.trace import logger
from statetree.errors import UsageError

__all__ = ["Checkpoint", "Driver", "Undo"]


@dataclass
class Checkpoint:
    """Everything needed to bring the batch back: each shard's part, the layout, the mail
    waiting, the chart."""

    parts: list[ShardPart]
    layout: Layout
    mail: list[list[Mail]]
    compiled: CompiledChart


class Driver:
    """The shards of one batch, reached through the actors of ``pool``."""

    def __init__(
        self, pool: ShardPool, owned: bool, setup: ShardSetup, checkpoint: Checkpoint
    ) -> None:
        if pool.user is not None:
            raise UsageError(f"the shard pool is in use by batch {pool.user!r}: close it first")
        if len(pool) != setup.shards:
            raise UsageError(f"the pool has {len(pool)} actors for {setup.shards} shards")
        pool.user = setup.name
        self.pool = pool
        self.owned = owned
        self.setup = setup
        self.closed = False
        self.calls: list[str] = []
        """The calls that changed agents since the checkpoint."""
        self.offset = 0
        self.sinks: dict[int, Callable[[str], None] | None] = {}
        """Where the trace lines of each agent traced go (``None``: the logger)."""
        self.latest = 0.0
        """No agent's clock is later (the overflow check of ``tick``; kept by the driver,
        which would otherwise ask every shard each frame)."""
        self.restore(checkpoint)
        try:
            self._check_sendable()
            alive = self._load_every([])
        except BaseException:
            self.close()
            raise
        for shard, flags in alive.items():  # a restored snapshot may have free slots
            checkpoint.layout.alive[checkpoint.layout.members[shard]] = flags
            self.layout.alive[self.layout.members[shard]] = flags

    @property
    def shards(self) -> int:
        return self.setup.shards

    def restore(self, checkpoint: Checkpoint) -> None:
        """Take the driver's side of ``checkpoint`` (the shards are loaded separately)."""
        self.checkpoint = checkpoint
        self.layout = checkpoint.layout.copy()
        self.mail = [list(box) for box in checkpoint.mail]
        self.compiled = checkpoint.compiled
        self.calls = []

    def _check_sendable(self) -> None:
        """Refuse handlers or a step function that cannot travel to the actors (Ray
        pickles them, by reference or by value: see docs/shards.md).

        Raises:
            HandlerError: a handler cannot be sent.
            UsageError: the step function cannot be sent.
        """
        setup, dumps = self.setup, self.pool._ray.cloudpickle.dumps
        functions = [(f"handler {name!r}", h) for name, h in sorted(setup.handlers.items())]
        if setup.step is not None:
            functions.append(("the step function", setup.step))
        for what, function in functions:
            try:
                dumps(function)
            except Exception as error:
                kind = HandlerError if what.startswith("handler") else UsageError
                raise kind(
                    f"{what} of sharded batch {setup.name!r} cannot be sent to the shards' "
                    f"actors: {type(error).__name__}: {error} (keep what it holds, a lock or "
                    "an open file say, out of it, or make it at module level)"
                ) from None

    def _load_every(self, replaced: list[int]) -> dict[int, Any]:
        """Load the checkpoint's part of every shard, replacing the actors that died (a
        pool's actor may die between batches; another may die while loading); whether each
        slot is alive, by shard. The shards replaced are added to ``replaced``.

        Raises:
            ShardError: the shards could not be loaded.
        """
        ray = self.pool._ray
        parts = self.checkpoint.parts
        for _ in range(3):
            actors = self.pool.actors
            calls = {s: actors[s].load.remote(self.setup, s, parts[s]) for s in range(self.shards)}
            try:
                return {shard: ray.get(call) for shard, call in calls.items()}
            except ray.exceptions.RayActorError:
                for shard in range(self.shards):
                    if not self._alive(shard):
                        self.pool.replace(shard)
                        replaced.append(shard)
        raise ShardError(f"the shards of {self.setup.name!r} could not be loaded")

    # -- calls -----------------------------------------------------------------------------

    def check_open(self) -> None:
        """Refuse any call once the batch is closed.

        Raises:
            UsageError: the batch is closed.
        """
        if self.closed:
            raise UsageError(f"sharded batch {self.setup.name!r} is closed")

    def run(
        self,
        op: str,
        args: Mapping[int, tuple[Any, ...]] | tuple[Any, ...] = (),
        *,
        changes: bool = True,
        label: str | None = None,
        after: Callable[[dict[int, Reply]], None] | None = None,
    ) -> dict[int, Any]:
        """Run ``op`` on the shards: those of ``args`` when it maps shards to their
        arguments, else every shard with these arguments.

        Args:
            changes: the call may change agents: it delivers the mail waiting (to every
                shard with some) and counts among the calls a loss would undo.
            label: the call's name among those (default ``op``; empty: not counted, for
                the second message of a call).
            after: called with the answers before mail is routed and errors raised.

        Returns:
            Each shard's result, by shard.
        """
        self.check_open()
        if changes and label != "":
            self.calls.append(label or op)
        every = range(self.shards)
        per_shard = args if isinstance(args, Mapping) else dict.fromkeys(every, args)
        targets = set(per_shard)
        if changes:
            targets |= {shard for shard in every if self.mail[shard]}
        calls = {shard: self._submit(shard, op, per_shard, changes) for shard in sorted(targets)}
        replies = self._gather(calls)
        if after is not None:
            after(replies)
        try:
            self._write(replies)
        finally:
            self._settle(replies)
        return {shard: reply.result for shard, reply in replies.items()}

    def _write(self, replies: Mapping[int, Reply]) -> None:
        """Give each trace line of the shards' agents to its sink, shard by shard."""
        for shard in sorted(replies):
            for agent, line in replies[shard].lines:
                sink = self.sinks.get(agent)
                if sink is None:
                    logger.info(line)
                else:
                    sink(line)

    def _submit(
        self, shard: int, op: str, args: Mapping[int, tuple[Any, ...]], changes: bool
    ) -> Any:
        inbox: list[Mail] = []
        if changes:
            inbox, self.mail[shard] = self.mail[shard], []
        if shard not in args:
            op, arguments = "deliver", ()
        else:
            arguments = args[shard]
        return self.pool.actors[shard].call.remote((inbox, op, arguments))

    def _gather(self, calls: Mapping[int, Any]) -> dict[int, Reply]:
        """Every answer; a shard whose actor died brings the batch back to its checkpoint."""
        ray = self.pool._ray
        try:  # one wait for all: the common case
            return dict(zip(calls, ray.get(list(calls.values())), strict=True))
        except ray.exceptions.RayError:
            pass  # find out which shard failed, and hear every other one first
        replies: dict[int, Reply] = {}
        lost = []
        failed: ShardError | None = None
        for shard, call in calls.items():
            try:
                replies[shard] = ray.get(call)
            except ray.exceptions.RayActorError:
                lost.append(shard)
            except ray.exceptions.RayError as error:  # Ray's own text ends with the cause
                cause = str(error).strip().splitlines()[-1]
                failed = failed or ShardError(
                    f"shard {shard} of {self.setup.name!r} failed: {cause}"
                )
        if lost:
            self._recover(lost)
        if failed is not None:  # the other shards' calls were made: their mail goes on
            self._route(mail for reply in replies.values() for mail in reply.outbox)
            raise failed
        return replies

    def _settle(self, replies: Mapping[int, Reply]) -> None:
        """Route the mail the shards sent, then raise what went wrong."""
        unknown = self._route(mail for reply in replies.values() for mail in reply.outbox)
        errors = [reply.error for reply in replies.values() if reply.error is not None]
        if errors:
            raise errors[0]
        if unknown is not None:
            raise unknown
        loops = [loop for reply in replies.values() for loop in reply.loops]
        if loops:
            raise self._loop_error(loops)

    def _route(self, outbox: Iterable[Mail]) -> UsageError | None:
        """Queue each event for the shards of its agents; the error of a send to agents
        that do not exist (that send is dropped)."""
        layout, problem = self.layout, None
        for event, ids in outbox:
            valid = (ids >= 0) & (ids < layout.size)
            valid[valid] = layout.alive[ids[valid]]
            if not valid.all():
                problem = problem or UsageError(
                    f"an agent of {self.setup.name!r} sent {event} to agent "
                    f"{int(ids[~valid][0])}, which does not exist: that send was dropped"
                )
                continue
            owners = layout.owner[ids]
            for shard in np.unique(owners).tolist():
                self.mail[shard].append((event, np.sort(ids[owners == shard])))
        return problem

    def reroute(self) -> None:
        """Queue the mail waiting again, by where its agents are now (after a migrate)."""
        waiting = [mail for box in self.mail for mail in box]  # each agent's in one box
        self.mail = [[] for _ in range(self.shards)]
        self._route(waiting)

    def _loop_error(self, loops: Sequence[Loop]) -> BatchLoopError:
        offset = self.offset
        first = min(loops, key=lambda loop: loop.entities[0])
        agents = sorted({agent + offset for loop in loops for agent in loop.entities})
        name = f"{self.setup.name}[{first.entities[0] + offset}]"
        return first.failure.error(name, self.setup.max_transitions, agents)

    def undoing(self) -> Undo:
        """What :meth:`Undo.undo` puts back: every shard's part and the mail waiting (a
        call that must change nothing unless it completes everywhere)."""
        return Undo(self, self.run("part", changes=False), [list(box) for box in self.mail])

    # -- checkpoints and losses ------------------------------------------------------------

    def keep(self) -> None:
        """Make the shards as they are now the checkpoint a loss brings back."""
        parts = self.run("part", changes=False)
        self.checkpoint = Checkpoint(
            [parts[shard] for shard in range(self.shards)],
            self.layout.copy(),
            [list(box) for box in self.mail],
            self.compiled,
        )
        self.calls = []

    def _recover(self, lost: Sequence[int]) -> NoReturn:
        """Replace the actors ``lost``, load every shard from the checkpoint, and raise."""
        calls, lost = self.calls, list(lost)
        try:
            for shard in lost:
                self.pool.replace(shard)
            self.restore(self.checkpoint)
            self._load_every(lost)
        except ShardError:
            self.close()
            raise ShardError(
                f"the shards of {self.setup.name!r} could not be brought back"
            ) from None
        raise ShardLostError(self.setup.name, sorted(set(lost)), calls)

    def _alive(self, shard: int) -> bool:
        ray = self.pool._ray
        try:
            ray.get(self.pool.actors[shard].ping.remote())
        except ray.exceptions.RayActorError:
            return False
        return True

    def close(self) -> None:
        """Hand the actors back to the pool (or end them, with the pool the batch made)."""
        if self.closed:
            return
        self.closed = True
        self.pool.user = None
        if self.owned:
            self.pool.close()


@dataclass
class Undo:
    """The shards as they were before a call, to put back should it fail in some shard."""

    driver: Driver
    parts: Mapping[int, ShardPart]
    mail: list[list[Mail]]

    def undo(self) -> None:
        """Load every shard's part again, and the mail as it was."""
        driver = self.driver
        actors = driver.pool.actors
        loads = [actors[s].load.remote(driver.setup, s, part) for s, part in self.parts.items()]
        driver.pool._ray.get(loads)
        driver.mail = self.mail
