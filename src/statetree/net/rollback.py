"""Client-side prediction with rollback to confirmed states and re-simulation.

The client runs ahead on its inputs (``Cause.PREDICTION``) and keeps, per frame, the input
it used and the state it reached. When the authority's confirmed state for frame N arrives
and differs from what the client predicted for N, the client restores it (the machine
through the codec, the owner's other data through ``restore``) and re-runs frames N+1 to
now from the buffered inputs (``Cause.RESIMULATION``). A late input for an earlier frame
(a remote player's, say) rewinds to the state before that frame the same way. Frames are
counted: there is no clock here.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

from statetree.core.cause import Cause
from statetree.core.refs import Ref, reading, saved_data, target_of
from statetree.errors import SaveError, UsageError, require_callable
from statetree.net.interface import MachineCodec

__all__ = ["Outcome", "Rollback", "RollbackStats"]

_FORMAT = 1
"""The format of a Rollback's saved data; a load refuses any other."""
_SAVED = (
    "machine",
    "codec",
    "_step",
    "_snapshot",
    "_restore",
    "_capacity",
    "_frame",
    "_confirmed",
    "_inputs",
    "_states",
    "_counts",
)
"""What a Rollback's save holds besides its format."""
T = TypeVar("T")

MachineT = TypeVar("MachineT")
ValueT = TypeVar("ValueT")
InputT = TypeVar("InputT")
DataT = TypeVar("DataT")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a confirmation or a correction did.

    Attributes:
        frame: the frame it was about.
        stale: it was not newer than the last confirmation, so it was ignored.
        mispredicted: the client's state or input for ``frame`` was wrong: it rolled back.
        resimulated: how many frames were re-run.
    """

    frame: int
    stale: bool = False
    mispredicted: bool = False
    resimulated: int = 0


@dataclass(frozen=True, slots=True)
class RollbackStats:
    """What a :class:`Rollback` did since it was created."""

    predicted: int = 0
    confirmations: int = 0
    stale: int = 0
    mispredictions: int = 0
    resimulated: int = 0


class Rollback(Generic[MachineT, ValueT, InputT, DataT]):
    """Predicts a machine ahead of its authority and corrects it from confirmed states.

    Args:
        machine: the client's machine, already started (its state is frame ``frame``'s).
        codec: captures and applies the machine's state (``Codec``, ``BitmaskCodec``).
        step: runs one frame: ``step(frame, input)`` processes transitions and updates. It
            must be deterministic: same state and input, same result.
        snapshot: returns the owner's data the states do not hold (position, health...) as
            a value that compares with ``==``.
        restore: puts such a value back.
        frame: the number of the frame the machine is at.
        capacity: how many frames may wait for confirmation; :meth:`advance` refuses more.

    Raises:
        UsageError: ``capacity`` is below 1, the machine cannot be captured, ``codec`` is
            no codec or a function is not callable.
    """

    def __init__(
        self,
        machine: MachineT,
        codec: MachineCodec[MachineT, ValueT],
        step: Callable[[int, InputT], None],
        *,
        snapshot: Callable[[], DataT],
        restore: Callable[[DataT], None],
        frame: int = 0,
        capacity: int = 256,
    ) -> None:
        if not all(callable(getattr(codec, call, None)) for call in ("capture", "apply")):
            raise UsageError(
                "a Rollback needs the codec that captures and applies its machine's state "
                f"(a Codec, a BitmaskCodec), got {codec!r}"
            )
        for function, role in ((step, "step"), (snapshot, "snapshot"), (restore, "restore")):
            require_callable(function, f"a Rollback's {role} function")
        whole = _whole(capacity)
        if whole is None or whole < 1:
            raise UsageError(f"capacity must be a whole number of at least 1, got {capacity!r}")
        capacity = whole
        frame = _check_frame(frame)
        if frame < 0:
            raise UsageError(f"a Rollback starts at frame 0 or later, got {frame}")
        self.machine = machine
        self.codec = codec
        self._step = step
        self._snapshot = snapshot
        self._restore = restore
        self._capacity = capacity
        self._stepping = False
        self._frame = self._confirmed = frame
        self._inputs: dict[int, InputT] = {}
        self._states: dict[int, tuple[ValueT, DataT]] = {frame: self._state()}
        self._counts = dict.fromkeys((f.name for f in fields(RollbackStats)), 0)

    @property
    def frame(self) -> int:
        """The last frame simulated."""
        return self._frame

    @property
    def confirmed_frame(self) -> int:
        """The last frame whose state the authority confirmed."""
        return self._confirmed

    @property
    def stats(self) -> RollbackStats:
        """Counts of predicted frames, confirmations, stale ones, mispredictions and
        re-simulated frames."""
        return RollbackStats(**self._counts)

    def unconfirmed_inputs(self) -> tuple[tuple[int, InputT], ...]:
        """The ``(frame, input)`` pairs after the last confirmed frame, oldest first."""
        return tuple(sorted(self._inputs.items()))

    def advance(self, value: InputT) -> int:
        """Simulate the next frame on ``value``, hooks seeing ``Cause.PREDICTION``.

        Returns:
            The number of the frame simulated.

        Raises:
            UsageError: ``capacity`` frames already wait for confirmation.
            Exception: whatever the step raised: the frame was not simulated and its input
                is not kept (the machine stays as the step left it).
        """
        self._not_stepping("advance")
        if self._frame - self._confirmed >= self._capacity:
            raise UsageError(
                f"{self._capacity} frames wait for confirmation since frame "
                f"{self._confirmed}; wait for the authority or raise capacity"
            )
        frame = self._frame + 1
        self._inputs[frame] = value
        try:
            self._run(frame, Cause.PREDICTION)
        except BaseException:
            del self._inputs[frame]  # never sent as the input of a frame not simulated
            raise
        self._frame = frame
        self._count(predicted=1)
        return frame

    def confirm(self, frame: int, state: ValueT, data: DataT) -> Outcome:
        """Take the authority's state for ``frame``: roll back and re-simulate if it differs.

        The machine's state is compared as the codec encodes it (a ``Configuration`` whose
        payload holds ``-0.0`` differs from one holding ``0.0``), the owner's data with
        ``==``. A frame not newer than the last confirmed one is ignored (late or
        duplicated). A frame ahead of the client makes the client jump to it.

        Args:
            frame: the frame the state is for.
            state: the machine's state (e.g. a decoded ``Configuration``).
            data: the owner's data, as ``snapshot`` returns it.
        """
        frame = _check_frame(frame)
        self._not_stepping("confirm")
        if frame <= self._confirmed:
            self._count(stale=1)
            return Outcome(frame, stale=True)
        confirmed = (state, data)
        mispredicted = frame > self._frame or self._states[frame] != confirmed
        resimulated = 0
        if mispredicted:
            saved = self._saved()
            try:
                self._put(confirmed, Cause.DESERIALIZATION)  # a state it refuses counts nothing
                resimulated = self._replay(frame, confirmed)
            except BaseException:
                self._back(saved)
                raise
            self._count(mispredictions=1)
        self._count(confirmations=1)
        self._forget_before(frame)
        self._states[frame] = confirmed
        return Outcome(frame, mispredicted=mispredicted, resimulated=resimulated)

    def correct(self, frame: int, value: InputT) -> Outcome:
        """Replace the input of an unconfirmed frame (one that arrived late) and re-simulate
        from it if it differs from the one used.

        Raises:
            UsageError: ``frame`` is not simulated yet (give it to :meth:`advance`).
        """
        frame = _check_frame(frame)
        self._not_stepping("correct")
        if frame > self._frame:
            raise UsageError(f"frame {frame} is not simulated yet (the last is {self._frame})")
        if frame <= self._confirmed:
            self._count(stale=1)
            return Outcome(frame, stale=True)
        if self._inputs[frame] == value:
            return Outcome(frame)
        saved = self._saved()
        self._inputs[frame] = value
        try:
            before = self._states[frame - 1]
            self._put(before, Cause.RESIMULATION)
            resimulated = self._replay(frame - 1, before)
        except BaseException:
            self._back(saved)
            raise
        self._count(mispredictions=1)
        return Outcome(frame, mispredicted=True, resimulated=resimulated)

    # -- saving (pickle, copy) ---------------------------------------------------------------

    _FUNCTIONS = ("_step", "_snapshot", "_restore")

    def __getstate__(self) -> dict[str, Any]:
        """Everything, its functions saved by name (or as the objects they are bound to).

        Raises:
            SaveError: called from the step, snapshot or restore function (save between
                frames), or a function cannot be saved.
        """
        if self._stepping:
            raise SaveError(
                "cannot save a Rollback while its step, snapshot or restore function runs: "
                "save between frames"
            )
        state = dict(vars(self))
        for name in self._FUNCTIONS:
            state[name] = Ref(state[name], f"the {name[1:]} function of a Rollback")
        return {"format": _FORMAT, **state}

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Load what :meth:`__getstate__` saved.

        Raises:
            LoadError: the data is not a Rollback's, or of another format.
        """
        saved = saved_data(state, "rollback", _FORMAT)
        with reading("rollback"):
            loaded = {name: saved[name] for name in _SAVED}
            for name in self._FUNCTIONS:
                loaded[name] = target_of(loaded[name])
                if not callable(loaded[name]):
                    raise TypeError(f"its {name[1:]} function is not callable")
            for name in ("_inputs", "_states", "_counts"):
                if not isinstance(loaded[name], dict):
                    raise TypeError(f"its {name[1:]} are not a mapping")
            _check_counts(loaded["_counts"])
            for name in ("_frame", "_confirmed", "_capacity"):
                if isinstance(loaded[name], bool) or not isinstance(loaded[name], int):
                    raise TypeError(f"its {name[1:]} is not a whole number")
            frame, confirmed = loaded["_frame"], loaded["_confirmed"]
            if not 0 <= confirmed <= frame or loaded["_capacity"] < 1:
                raise ValueError("its frames or its capacity are out of order")
            unconfirmed = range(confirmed + 1, frame + 1)
            if set(loaded["_inputs"]) != set(unconfirmed) or not all(
                number in loaded["_states"] for number in (confirmed, *unconfirmed)
            ):
                raise ValueError("it lacks the input or the state of a frame it simulated")
            if loaded["machine"] is None or not callable(getattr(loaded["codec"], "capture", None)):
                raise TypeError("it holds no machine, or no codec")
        vars(self).update(loaded, _stepping=False)

    # -- internals -------------------------------------------------------------------------

    def _state(self) -> tuple[ValueT, DataT]:
        return self.codec.capture(self.machine), self._calling(self._snapshot)

    def _put(self, state: tuple[ValueT, DataT], cause: Cause) -> None:
        value, data = state
        self.codec.apply(self.machine, value, cause=cause)
        self._calling(self._restore, data)

    def _run(self, frame: int, cause: Cause) -> None:
        with self.codec.caused_by(self.machine, cause):
            self._calling(self._step, frame, self._inputs[frame])
        self._states[frame] = self._state()

    def _calling(self, function: Callable[..., T], *args: Any) -> T:
        """Call the step, snapshot or restore function: meanwhile the Rollback is in the
        middle of a call, which saves and calls of its own refuse."""
        self._stepping = True
        try:
            return function(*args)
        finally:
            self._stepping = False

    def _not_stepping(self, call: str) -> None:
        """Refuse ``call`` from the step, snapshot or restore function (it would run frames
        inside a frame)."""
        if self._stepping:
            raise UsageError(
                f"{call}() called from the step, snapshot or restore function: the step "
                "simulates one frame; advance, confirm and correct from the game loop"
            )

    def _replay(self, start: int, state: tuple[ValueT, DataT]) -> int:
        """Re-run frames after ``start`` up to now; return how many."""
        if start >= self._frame:
            # The client was behind: it is now at ``start``, with nothing to replay.
            self._frame = start
            self._inputs.clear()
            self._states = {start: state}
            return 0
        for frame in range(start + 1, self._frame + 1):
            self._run(frame, Cause.RESIMULATION)
        count = self._frame - start
        self._count(resimulated=count)
        return count

    def _saved(self) -> tuple[Any, ...]:
        """What :meth:`_back` puts back: the frames, inputs, states and counts."""
        counts = dict(self._counts)
        return self._frame, self._confirmed, dict(self._inputs), dict(self._states), counts

    def _back(self, saved: tuple[Any, ...]) -> None:
        """The Rollback as it was when ``saved``, and its machine in that frame's state
        again (a re-simulation that raised, part way, is undone whole)."""
        self._frame, self._confirmed, self._inputs, self._states, self._counts = saved
        self._put(self._states[self._frame], Cause.RESIMULATION)

    def _forget_before(self, frame: int) -> None:
        self._confirmed = frame
        self._inputs = {f: v for f, v in self._inputs.items() if f > frame}
        self._states = {f: s for f, s in self._states.items() if f >= frame}

    def _count(self, **added: int) -> None:
        for name, amount in added.items():
            self._counts[name] += amount


def _check_frame(frame: object) -> int:
    """``frame`` as an ``int`` (NumPy's integers too).

    Raises:
        UsageError: it is no whole number.
    """
    whole = _whole(frame)
    if whole is None:
        raise UsageError(f"a frame is a whole number, got {frame!r}")
    return whole


def _whole(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number (NumPy's integers too; no bool)."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _check_counts(counts: dict[str, Any]) -> None:
    """Refuse saved statistics that are not a count of each of :class:`RollbackStats`."""
    if set(counts) != {f.name for f in fields(RollbackStats)} or not all(
        type(count) is int and count >= 0 for count in counts.values()
    ):
        raise TypeError(f"its statistics are not a count of each: {counts!r}")
