"""InputQueue: frame-numbered inputs handed out once each, in order, within a window."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as hs

from statetree.net import InputQueue


def test_inputs_wait_for_the_frames_before_them() -> None:
    queue: InputQueue[str] = InputQueue()
    assert queue.push(2, "b")
    assert queue.pop_ready() == []
    assert queue.push(1, "a")
    assert not queue.push(1, "again")
    assert queue.pop_ready() == [(1, "a"), (2, "b")]
    assert queue.next_frame == 3
    assert not queue.push(2, "late")


def test_inputs_too_far_ahead_are_dropped() -> None:
    queue: InputQueue[int] = InputQueue(next_frame=10, window=4)
    assert [queue.push(frame, frame) for frame in (9, 10, 13, 14)] == [False, True, True, False]


@given(hs.permutations(range(1, 30)), hs.lists(hs.integers(1, 29), max_size=20))
def test_any_arrival_order_gives_every_input_once_in_order(
    order: list[int], repeats: list[int]
) -> None:
    queue: InputQueue[int] = InputQueue()
    delivered: list[tuple[int, int]] = []
    for frame in [*order[:10], *repeats, *order[10:]]:
        queue.push(frame, -frame)
        delivered += queue.pop_ready()
    assert delivered == [(frame, -frame) for frame in range(1, 30)]
