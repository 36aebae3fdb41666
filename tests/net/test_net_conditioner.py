"""The link conditioner: seeded drops, duplicates and delays on the event loop's clock."""

from __future__ import annotations

import asyncio
import math
import random

import pytest

from statetree.errors import UsageError
from statetree.net import LinkConditioner, LinkProfile, LinkStats


async def through(profile: LinkProfile, seed: int, count: int = 20) -> tuple[list[int], LinkStats]:
    """Send ``count`` numbered datagrams; return the numbers in arrival order and the stats."""
    conditioner = LinkConditioner(profile, random.Random(seed))
    arrived: list[int] = []
    for number in range(count):
        conditioner.send(bytes([number]), lambda data: arrived.append(data[0]))
    while conditioner.waiting:
        await asyncio.sleep(0.001)
    return arrived, conditioner.stats


def test_a_perfect_link_delivers_everything_in_order() -> None:
    arrived, stats = asyncio.run(through(LinkProfile(), seed=1))
    assert arrived == list(range(20))
    assert stats == LinkStats(sent=20)


def test_loss_and_duplication_follow_their_chances() -> None:
    lost, stats = asyncio.run(through(LinkProfile(loss=1.0), seed=1))
    assert (lost, stats) == ([], LinkStats(sent=20, dropped=20))
    doubled, stats = asyncio.run(through(LinkProfile(duplicate=1.0), seed=1))
    assert sorted(doubled) == sorted(list(range(20)) * 2)
    assert stats == LinkStats(sent=20, duplicated=20)


def test_held_back_datagrams_are_overtaken() -> None:
    profile = LinkProfile(latency=0.001, reorder=0.3, reorder_delay=0.005)
    arrived, stats = asyncio.run(through(profile, seed=3))
    assert sorted(arrived) == list(range(20))
    assert arrived != list(range(20))
    assert stats.held_back > 0


def test_the_same_seed_makes_the_same_decisions() -> None:
    profile = LinkProfile(loss=0.3, duplicate=0.2, reorder=0.2, reorder_delay=0.002)
    first = asyncio.run(through(profile, seed=9))
    assert asyncio.run(through(profile, seed=9))[1] == first[1]
    assert sorted(asyncio.run(through(profile, seed=9))[0]) == sorted(first[0])


def test_cancel_drops_what_is_waiting() -> None:
    async def scenario() -> list[bytes]:
        conditioner = LinkConditioner(LinkProfile(latency=0.005), random.Random(0))
        arrived: list[bytes] = []
        conditioner.send(b"x", arrived.append)
        assert conditioner.waiting == 1
        conditioner.cancel()
        await asyncio.sleep(0.01)
        return arrived

    assert asyncio.run(scenario()) == []


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"latency": -1.0}, "LinkProfile.latency is a time of 0 or more seconds"),
        ({"jitter": math.nan}, "LinkProfile.jitter is a time of 0 or more seconds"),
        ({"reorder_delay": math.inf}, "LinkProfile.reorder_delay is a time of 0 or more seconds"),
        ({"latency": "0.1"}, "LinkProfile.latency is a number, got '0.1'"),
        ({"loss": 1.5}, "LinkProfile.loss is a chance: between 0 and 1"),
        ({"reorder": -0.1}, "LinkProfile.reorder is a chance: between 0 and 1"),
    ],
)
def test_impossible_profiles_are_refused(settings: dict[str, float], message: str) -> None:
    with pytest.raises(UsageError) as refused:
        LinkProfile(**settings)
    assert str(refused.value) == message


def test_a_conditioner_needs_a_profile_and_a_random_generator() -> None:
    with pytest.raises(UsageError) as refused:
        LinkConditioner(LinkProfile(), 7)  # type: ignore[arg-type]
    assert str(refused.value) == (
        "a LinkConditioner needs a random number generator, got 7: for a seed, give "
        "random.Random(seed)"
    )
    with pytest.raises(UsageError, match="needs a LinkProfile, got None"):
        LinkConditioner(None, random.Random(1))  # type: ignore[arg-type]
