"""The errors of sharded batches: a cluster that cannot be used, a shard whose process died."""

from __future__ import annotations

from collections.abc import Sequence

from statetree.errors import StateTreeError

__all__ = ["ShardError", "ShardLostError"]


class ShardError(StateTreeError, RuntimeError):
    """The Ray cluster cannot be reached or used, or a shard's actor cannot be started."""


class ShardLostError(ShardError):
    """A shard's process died: every shard was brought back to the last checkpoint.

    The call that noticed the loss did not happen, and neither did any call made since the
    checkpoint: the batch is exactly as it was when :meth:`ShardedBatch.checkpoint` ran (or
    when it was built, without a checkpoint).

    Attributes:
        shards: the shards whose actors died.
        lost: the calls that changed agents since the checkpoint, in order (the one that
            noticed the loss last, unless it was a read).
        frames: how many of them were frames (``tick`` or ``step``).
    """

    def __init__(self, batch: str, shards: Sequence[int], lost: Sequence[str]) -> None:
        self.shards = tuple(shards)
        self.lost = tuple(lost)
        self.frames = sum(call in ("tick", "step") for call in self.lost)
        which = ", ".join(map(str, self.shards))
        lost_calls = (
            f"the {len(self.lost)} calls that changed agents since then are lost "
            f"({self.frames} of them frames: tick or step; the last, {self.lost[-1]}(), "
            "noticed the loss)"
            if self.lost
            else "no call had changed agents since then"
        )
        super().__init__(
            f"shard {which} of {batch!r} died; every shard is back at the last checkpoint: "
            + lost_calls
        )
