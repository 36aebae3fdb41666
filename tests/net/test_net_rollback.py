"""Rollback: predicting ahead, confirmations and late inputs, and the property that rolling
back and re-simulating lands exactly where a straight run with the true inputs does."""

from __future__ import annotations

import copy
import math
import pickle
import random
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as hs
from net_samples import HERO, Direction, Hero, Logged, Owner, chain, machine

import statetree as st
from statetree import net
from statetree.errors import UsageError
from statetree.net import Codec, Configuration, Outcome, Rollback, RollbackStats
from statetree.structure import StateInfo, Structure

CODEC = Codec.auto(HERO)


@dataclass(frozen=True)
class Input:
    """One frame's input: the player's move and jump, and a hit only the server sees."""

    move: Direction | None = None
    jump: bool = False
    hit: bool = False


class Game:
    """The Hero sample stepped on inputs; ``x`` is owner data outside the states."""

    def __init__(self) -> None:
        self.machine = machine(Hero.Alive)
        self.owner = self.machine.owner
        self.x = 0

    def step(self, frame: int, value: Input) -> None:
        self.owner.frame = 2 * frame  # Jump refuses odd start frames
        self.owner.flags.update(move=value.move, jump=value.jump, dead=value.hit)
        self.machine.process_state_transitions()
        innermost = self.machine.stack[-1]
        if isinstance(innermost, Hero.Move):
            self.x += innermost.direction.value

    def snapshot(self) -> int:
        return self.x

    def restore(self, x: int) -> None:
        self.x = x

    def state(self) -> tuple[Configuration, int]:
        return CODEC.capture(self.machine), self.x


def predicting(
    game: Game, capacity: int = 256, frame: int = 0
) -> Rollback[Any, Configuration, Input, int]:
    return Rollback(
        game.machine,
        CODEC,
        game.step,
        snapshot=game.snapshot,
        restore=game.restore,
        capacity=capacity,
        frame=frame,
    )


def truth(inputs: list[Input]) -> list[tuple[Configuration, int]]:
    """The state after each frame of a straight run (index 0: before any)."""
    game = Game()
    states = [game.state()]
    for frame, value in enumerate(inputs, 1):
        game.step(frame, value)
        states.append(game.state())
    return states


def test_prediction_runs_ahead_with_its_cause() -> None:
    game = Game()
    rollback = predicting(game)
    assert rollback.advance(Input(move=Direction.LEFT)) == 1
    assert rollback.advance(Input(move=Direction.LEFT)) == 2
    assert game.owner.log == ["Stand.exit PREDICTION", "Move.enter(LEFT) PREDICTION"]
    assert (rollback.frame, rollback.confirmed_frame, game.x) == (2, 0, -2)
    assert rollback.unconfirmed_inputs() == ((1, Input(Direction.LEFT)), (2, Input(Direction.LEFT)))


def test_a_confirmation_that_matches_costs_nothing() -> None:
    inputs = [Input(move=Direction.RIGHT)] * 3
    game, expected = Game(), truth(inputs)
    rollback = predicting(game)
    for value in inputs:
        rollback.advance(value)
    game.owner.log.clear()
    assert rollback.confirm(2, *expected[2]) == Outcome(2)
    assert game.owner.log == []
    assert rollback.unconfirmed_inputs() == ((3, inputs[2]),)
    assert rollback.stats == RollbackStats(predicted=3, confirmations=1)


def test_a_misprediction_rolls_back_and_re_simulates() -> None:
    inputs = [Input(), Input(hit=True), Input(), Input()]
    game, expected = Game(), truth(inputs)
    rollback = predicting(game)
    for value in inputs:
        rollback.advance(Input(value.move, value.jump))  # the client cannot see the hit
    game.owner.log.clear()
    outcome = rollback.confirm(2, *expected[2])
    assert outcome == Outcome(2, mispredicted=True, resimulated=2)
    assert game.owner.log == [
        "Stand.exit DESERIALIZATION",
        "Locomotion.exit DESERIALIZATION",
        "Alive.exit DESERIALIZATION",
        "Dead.enter(24) DESERIALIZATION",
    ]
    assert game.state() == expected[4]
    assert game.machine.cause is st.Cause.TRANSITION


def test_a_late_input_rewinds_to_the_frame_before_it() -> None:
    inputs = [Input(), Input(move=Direction.LEFT), Input(move=Direction.LEFT)]
    game, expected = Game(), truth(inputs)
    rollback = predicting(game)
    for _ in inputs:
        rollback.advance(Input())
    game.owner.log.clear()
    assert rollback.correct(1, Input()) == Outcome(1)
    assert rollback.correct(2, inputs[1]) == Outcome(2, mispredicted=True, resimulated=2)
    assert rollback.correct(3, inputs[2]) == Outcome(3, mispredicted=True, resimulated=1)
    assert game.owner.log == [
        "Stand.exit RESIMULATION",  # frame 2 again, now moving
        "Move.enter(LEFT) RESIMULATION",
        "Move.exit RESIMULATION",  # frame 3 again, still without its input
        "Stand.enter RESIMULATION",
        "Stand.exit RESIMULATION",  # back to the state after frame 2
        "Move.enter(LEFT) RESIMULATION",
    ]
    assert game.state() == expected[3]


def test_stale_and_early_messages() -> None:
    inputs = [Input(move=Direction.RIGHT)] * 4
    game, expected = Game(), truth(inputs)
    rollback = predicting(game)
    rollback.advance(inputs[0])
    rollback.confirm(1, *expected[1])
    assert rollback.confirm(1, *expected[1]) == Outcome(1, stale=True)
    assert rollback.correct(1, Input()) == Outcome(1, stale=True)
    with pytest.raises(UsageError, match=r"^frame 2 is not simulated yet \(the last is 1\)$"):
        rollback.correct(2, Input())
    # A confirmation ahead of the client moves it there.
    assert rollback.confirm(4, *expected[4]) == Outcome(4, mispredicted=True)
    assert (rollback.frame, rollback.confirmed_frame, game.state()) == (4, 4, expected[4])
    assert rollback.stats == RollbackStats(predicted=1, confirmations=2, stale=2, mispredictions=1)


def test_a_confirmation_that_cannot_be_applied_counts_nothing() -> None:
    inputs = [Input(move=Direction.RIGHT)] * 2
    game, expected = Game(), truth(inputs)
    rollback = predicting(game)
    rollback.advance(inputs[0])
    before = (rollback.stats, game.state())

    with pytest.raises(UsageError, match=r"^a Configuration is needed"):
        rollback.confirm(1, b"\x00", expected[1][1])  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^a frame is a whole number, got 1\.5$"):
        rollback.confirm(1.5, *expected[1])  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"^a frame is a whole number, got 1\.5$"):
        rollback.correct(1.5, Input())  # type: ignore[arg-type]

    assert (rollback.stats, game.state()) == before


def test_a_step_function_cannot_drive_its_own_rollback() -> None:
    game = Game()
    refusals: list[str] = []

    def stepping(frame: int, value: Input) -> None:
        try:
            rollback.advance(value)
        except UsageError as error:
            refusals.append(str(error))
        game.step(frame, value)

    rollback = Rollback(game.machine, CODEC, stepping, snapshot=game.snapshot, restore=game.restore)
    assert rollback.advance(Input(move=Direction.RIGHT)) == 1

    assert refusals == [
        "advance() called from the step, snapshot or restore function: the step simulates "
        "one frame; advance, confirm and correct from the game loop"
    ]
    assert rollback.frame == 1


def test_a_step_that_raises_leaves_its_frame_unsimulated_and_its_input_unsent() -> None:
    game = Game()
    crash = RuntimeError("the game's step failed")

    def stepping(frame: int, value: Input) -> None:
        if value.hit:
            raise crash
        game.step(frame, value)

    rollback = Rollback(game.machine, CODEC, stepping, snapshot=game.snapshot, restore=game.restore)
    rollback.advance(Input(move=Direction.RIGHT))
    with pytest.raises(RuntimeError) as raised:
        rollback.advance(Input(hit=True))
    assert raised.value is crash
    assert rollback.frame == 1
    assert rollback.unconfirmed_inputs() == ((1, Input(move=Direction.RIGHT)),)
    with pytest.raises(UsageError, match=r"^frame 2 is not simulated yet"):
        rollback.correct(2, Input())
    assert rollback.advance(Input()) == 2  # the frame is simulated again, on a new input
    assert rollback.unconfirmed_inputs() == ((1, Input(move=Direction.RIGHT)), (2, Input()))
    assert rollback.stats == RollbackStats(predicted=2)


@pytest.mark.parametrize("call", ["correct", "confirm"])
def test_a_step_that_raises_in_a_re_simulation_changes_nothing(call: str) -> None:
    game = Game()
    crash = RuntimeError("the game's step failed")
    refusing = [False]

    def stepping(frame: int, value: Input) -> None:
        if refusing[0]:
            raise crash
        game.step(frame, value)

    rollback = Rollback(game.machine, CODEC, stepping, snapshot=game.snapshot, restore=game.restore)
    for _ in range(5):
        rollback.advance(Input(move=Direction.RIGHT))
    before = (game.state(), rollback.frame, rollback.confirmed_frame, rollback.stats)
    sent = rollback.unconfirmed_inputs()
    refusing[0] = True  # the re-simulation's first frame raises
    with pytest.raises(RuntimeError) as raised:
        if call == "correct":
            rollback.correct(3, Input())  # a late input: frames 3 to 5 are replayed
        else:
            rollback.confirm(1, *truth([Input()])[1])  # it stood still: 2 to 5 are replayed
    assert raised.value is crash
    assert (game.state(), rollback.frame, rollback.confirmed_frame, rollback.stats) == before
    assert rollback.unconfirmed_inputs() == sent  # the input refused is not sent
    refusing[0] = False  # and it goes on as if the call had not been made
    assert rollback.advance(Input(move=Direction.RIGHT)) == 6
    assert game.state() == truth([Input(move=Direction.RIGHT)] * 6)[6]


def test_a_rollback_starts_at_frame_0_or_later() -> None:
    with pytest.raises(UsageError) as refused:
        predicting(Game(), frame=-3)
    assert str(refused.value) == "a Rollback starts at frame 0 or later, got -3"


def test_a_rollback_refuses_what_it_cannot_call_when_made() -> None:
    game = Game()
    calls = {"step": game.step, "snapshot": game.snapshot, "restore": game.restore}
    for role in calls:
        wrong = {**calls, role: 5}
        with pytest.raises(UsageError) as refused:
            Rollback(
                game.machine,
                CODEC,
                wrong["step"],
                snapshot=wrong["snapshot"],
                restore=wrong["restore"],
            )  # type: ignore[arg-type]
        assert str(refused.value) == f"a Rollback's {role} function must be callable, got 5 (int)"
    with pytest.raises(UsageError) as refused:
        Rollback(game.machine, "codec", game.step, snapshot=game.snapshot, restore=game.restore)  # type: ignore[arg-type]
    assert str(refused.value) == (
        "a Rollback needs the codec that captures and applies its machine's state (a Codec, "
        "a BitmaskCodec), got 'codec'"
    )


def test_the_number_of_unconfirmed_frames_is_bounded() -> None:
    rollback = predicting(Game(), capacity=2)
    rollback.advance(Input())
    rollback.advance(Input())
    with pytest.raises(UsageError, match=r"^2 frames wait for confirmation since frame 0; wait"):
        rollback.advance(Input())
    for wrong in (0, math.nan, "5", True):
        with pytest.raises(UsageError) as refused:
            predicting(Game(), capacity=wrong)  # type: ignore[arg-type]
        assert str(refused.value) == (
            f"capacity must be a whole number of at least 1, got {wrong!r}"
        )
    assert predicting(Game(), capacity=np.int64(2)).advance(Input()) == 1  # NumPy's too


@pytest.mark.parametrize("frame", [1.5, "0", True, None])
def test_a_rollback_starts_at_a_whole_frame(frame: object) -> None:
    with pytest.raises(UsageError) as refused:
        predicting(Game(), frame=frame)  # type: ignore[arg-type]
    assert str(refused.value) == f"a frame is a whole number, got {frame!r}"


def test_a_numpy_frame_is_kept_as_an_int() -> None:
    rollback = predicting(Game(), frame=np.int64(7))
    assert type(rollback.frame) is int and rollback.advance(Input()) == 8


@dataclass(frozen=True)
class Delivery:
    """Something the network brings the client: a true input or a confirmed state."""

    time: int
    frame: int
    confirm: bool


inputs_strategy = hs.lists(
    hs.builds(
        Input,
        hs.sampled_from([None, *Direction]),
        hs.integers(0, 4).map(lambda v: v == 0),
        hs.integers(0, 9).map(lambda v: v == 0),
    ),
    min_size=1,
    max_size=25,
)


@given(inputs_strategy, hs.randoms(use_true_random=False))
def test_rolling_back_equals_a_straight_run_with_the_true_inputs(
    inputs: list[Input], rng: random.Random
) -> None:
    # Each frame's true input (the hit the client cannot see) and the server's state for it
    # arrive late, in any order; states may be lost or repeated.
    expected = truth(inputs)
    deliveries = [
        Delivery(frame + rng.randint(0, 6), frame, confirm)
        for frame in range(1, len(inputs) + 1)
        for confirm in (False, True)
        for _ in range(rng.choice((0, 1, 1, 2)) if confirm else 1)
    ]
    rng.shuffle(deliveries)
    deliveries.sort(key=lambda delivery: delivery.time)
    game = Game()
    rollback = predicting(game)
    known: set[int] = set()
    for time, value in enumerate(inputs, 1):
        rollback.advance(Input(value.move, value.jump))
        for delivery in deliveries:
            if delivery.time == time or (time == len(inputs) and delivery.time > time):
                if delivery.confirm:
                    rollback.confirm(delivery.frame, *expected[delivery.frame])
                else:
                    rollback.correct(delivery.frame, inputs[delivery.frame - 1])
                    known.add(delivery.frame)
                unsure = set(range(rollback.confirmed_frame + 1, rollback.frame + 1)) - known
                if not unsure:
                    assert game.state() == expected[rollback.frame]
    assert rollback.frame == len(inputs)
    assert game.state() == expected[-1]


class Turret(Logged):
    net_fields = (net.Float32(),)

    def on_enter(self, angle: float) -> None:
        super().on_enter(angle)
        self.angle = angle

    def net_payload(self) -> tuple[float]:
        return (self.angle,)


TURRET = Codec.auto(Structure("Turret", (StateInfo("Turret", Turret),), ()))


@pytest.mark.parametrize(
    ("angle", "outcome", "log"),
    [
        (0.0, Outcome(1), []),
        (
            -0.0,
            Outcome(1, mispredicted=True, resimulated=1),
            ["Turret.exit DESERIALIZATION", "Turret.enter(-0.0) DESERIALIZATION"],
        ),
    ],
)
def test_a_confirmed_zero_of_the_other_sign_is_a_misprediction(
    angle: float, outcome: Outcome, log: list[str]
) -> None:
    turret = st.StateMachine(st.sibling(Turret, 0.0), Owner())
    turret.process_state_transitions()
    turret.owner.log.clear()
    rollback: Rollback[Any, Configuration, None, int] = Rollback(
        turret, TURRET, lambda frame, value: None, snapshot=lambda: 0, restore=lambda data: None
    )
    rollback.advance(None)
    rollback.advance(None)  # predicted: the turret keeps its angle
    confirmed = TURRET.decode(TURRET.encode_configuration(chain((Turret, angle))))
    assert rollback.confirm(1, confirmed, 0) == outcome
    assert turret.owner.log == log
    assert TURRET.encode(turret) == TURRET.encode_configuration(confirmed)
    assert rollback.confirm(2, confirmed, 0) == Outcome(2)  # re-simulated from the right zero
    assert rollback.stats == RollbackStats(
        predicted=2,
        confirmations=2,
        mispredictions=int(outcome.mispredicted),
        resimulated=outcome.resimulated,
    )


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_saved_prediction_session_goes_on_as_the_original(how: str) -> None:
    inputs = [Input(), Input(hit=True), Input(), Input()]
    expected = truth(inputs)
    game = Game()
    rollback = predicting(game)
    for value in inputs[:3]:
        rollback.advance(Input(value.move, value.jump))  # the client cannot see the hit
    game.owner.log.clear()
    pair = (game, rollback)
    loaded = pickle.loads(pickle.dumps(pair)) if how == "pickle" else copy.deepcopy(pair)
    assert loaded[0].owner.log == []  # saving and loading ran no hook
    assert loaded[1].unconfirmed_inputs() == rollback.unconfirmed_inputs()
    outcomes = []
    for each_game, each in (pair, loaded):
        each.advance(Input())
        outcomes.append((each.confirm(2, *expected[2]), each_game.owner.log, each.stats))
        assert each_game.state() == expected[4]
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == Outcome(2, mispredicted=True, resimulated=2)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_save_from_the_step_function_is_refused_and_the_session_goes_on(how: str) -> None:
    game = Game()
    refusals: list[str] = []

    def saving(frame: int, value: Input) -> None:
        game.step(frame, value)
        try:
            pickle.dumps(rollback) if how == "pickle" else copy.deepcopy(rollback)
        except st.SaveError as error:
            refusals.append(str(error))

    rollback = Rollback(game.machine, CODEC, saving, snapshot=game.snapshot, restore=game.restore)
    rollback.advance(Input(move=Direction.RIGHT))
    assert refusals == [
        "cannot save a Rollback while its step, snapshot or restore function runs: save "
        "between frames"
    ]
    assert game.machine.cause is st.Cause.TRANSITION
    assert rollback.advance(Input()) == 2


def test_a_rollback_with_a_lambda_is_refused_by_its_role() -> None:
    game = Game()
    rollback = Rollback(
        game.machine, CODEC, game.step, snapshot=lambda: game.x, restore=game.restore
    )
    with pytest.raises(st.SaveError, match=r"\(the snapshot function of a Rollback\)"):
        pickle.dumps(rollback)


class SavingGame(Game):
    """A game whose snapshot or restore function tries to save its Rollback."""

    def __init__(self, where: str) -> None:
        super().__init__()
        self.where = where
        self.rollback: Rollback[Any, Any, Input, int] | None = None
        self.refusals: list[str] = []

    def refused(self) -> None:
        try:
            pickle.dumps(self.rollback)
        except st.SaveError as error:
            self.refusals.append(str(error))

    def snapshot(self) -> int:
        if self.where == "snapshot" and self.rollback is not None:
            self.refused()
        return super().snapshot()

    def restore(self, data: int) -> None:
        if self.where == "restore":
            self.refused()
        super().restore(data)


@pytest.mark.parametrize("where", ["snapshot", "restore"])
def test_a_save_from_the_snapshot_or_restore_function_is_refused(where: str) -> None:
    """Mid-call, the machine and the owner are a frame ahead of the frame counter."""
    game = SavingGame(where)
    rollback = Rollback(
        game.machine, CODEC, game.step, snapshot=game.snapshot, restore=game.restore
    )
    game.rollback = rollback
    rollback.advance(Input(move=Direction.RIGHT))
    rollback.correct(1, Input())  # restores frame 0, replays frame 1
    assert game.refusals
    assert all("while its step, snapshot or restore function runs" in r for r in game.refusals)
    game.where = ""
    assert pickle.loads(pickle.dumps(rollback)).frame == 1  # between calls: saved


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda saved: 0, "the save holds a rollback in format None"),
        (lambda saved: {**saved, "format": 2}, "the save holds a rollback in format 2"),
        (lambda saved: {k: v for k, v in saved.items() if k != "_step"}, "it lacks '_step'"),
        (lambda saved: {**saved, "machine": None}, "it holds no machine, or no codec"),
        (lambda saved: {**saved, "_states": 5}, "its states are not a mapping"),
        (
            lambda saved: {**saved, "_frame": 7},
            "it lacks the input or the state of a frame it simulated",
        ),
        (lambda saved: {**saved, "_inputs": {}}, "it lacks the input or the state of a frame"),
        (lambda saved: {**saved, "_confirmed": 9}, "its frames or its capacity are out of order"),
        (lambda saved: {**saved, "_capacity": 0}, "its frames or its capacity are out of order"),
        (lambda saved: {**saved, "_capacity": "2"}, "its capacity is not a whole number"),
        (
            lambda saved: {**saved, "_counts": {"x": "y"}},
            "its statistics are not a count of each: {'x': 'y'}",
        ),
    ],
)
def test_damaged_rollback_data_is_a_load_error(damage: Any, message: str) -> None:
    game = Game()
    rollback = Rollback(
        game.machine, CODEC, game.step, snapshot=game.snapshot, restore=game.restore
    )
    rollback.advance(Input(move=Direction.LEFT))  # an unconfirmed frame, with its input
    saved = rollback.__getstate__()
    loaded = Rollback.__new__(Rollback)
    with pytest.raises(st.LoadError, match=re.escape(message)):
        loaded.__setstate__(damage(saved))
