"""The enemy chart in play: one enemy and one hero, each step of its behaviour checked."""

from __future__ import annotations

import numpy as np
from game import config
from game.enemies import SAFE_SPAWN, WAITING
from game.inputs import IDLE
from game.world import World
from game_support import bring_in, idle, play


def one_enemy(distance: float = 100.0) -> World:
    """A world of one hero standing still and one enemy ``distance`` to its right."""
    world = World(1, 1)
    hero = world.heroes[0]
    bring_in(world, 0, hero.x + distance, hero.y)
    return world


def test_enemies_wait_off_the_arena_until_summoned() -> None:
    world = World(1, 3)
    crowd = world.crowd
    assert [crowd.brains.active(i) for i in range(3)] == [("Enemy", "Enemy.Waiting")] * 3
    assert list(crowd.anim) == [WAITING] * 3 and not crowd.in_play.any()
    crowd.summon(np.array([1]))
    idle(world, 1)
    assert [crowd.brains.active(i)[1] for i in range(3)] == [
        "Enemy.Waiting",
        "Enemy.Alive",
        "Enemy.Waiting",
    ]
    assert list(crowd.in_play) == [False, True, False]


def leaves(world: World, frames: int) -> list[tuple[str, int, tuple[str, ...]]]:
    """Each innermost state the enemy goes through, with the hero's health and effects."""
    hero = world.heroes[0]
    seen: list[tuple[str, int, tuple[str, ...]]] = []
    for _ in range(frames):
        world.step([IDLE])
        leaf = world.crowd.brains.active(0)[-1].removeprefix("Enemy.Alive.")
        if not seen or seen[-1][0] != leaf:
            seen.append((leaf, hero.health, hero.status.active_states[1:]))
    return seen


def test_an_enemy_chases_then_strikes_a_full_combo_while_the_hero_stays_in_reach() -> None:
    assert leaves(one_enemy(), 260) == [
        ("Chase", 100, ()),
        ("Combo.Strike1.Windup", 100, ()),
        ("Combo.Strike1.Swing", 97, ()),  # damage 3
        ("Combo.Strike2.Windup", 97, ()),
        ("Combo.Strike2.Swing", 92, ("Poisoned",)),  # damage 5 and poison
        ("Combo.Strike3.Windup", 90, ("Poisoned",)),  # the poison's first tick
        ("Combo.Strike3.Swing", 80, ("Stunned", "Poisoned")),  # damage 8 and a stun
        # The combo is over; the hero is still in reach: a new one starts from the first
        # strike, because every part of the sequence clears its history as it exits.
        ("Combo.Strike1.Windup", 78, ("Stunned", "Poisoned")),
        # The stun wore off: the hero is steady for a second, so the next stun cannot land.
        ("Combo.Strike1.Swing", 73, ("Poisoned", "Steady")),
    ]


def test_a_hero_out_of_reach_after_a_swing_ends_the_combo() -> None:
    world = one_enemy()
    seen = leaves(world, 105)
    assert seen[-1][0] == "Combo.Strike1.Swing"
    world.heroes[0].x -= 50  # stepped back during the swing: in sight, out of reach
    after = leaves(world, 30)
    # Over raises the event that ends the combo and is left in the same frame.
    assert after == [("Combo.Strike1.Swing", 97, ()), ("Chase", 97, ())]


def test_a_hit_stuns_an_enemy_out_of_its_combo_and_enough_hits_kill_it() -> None:
    world = one_enemy(20.0)
    leaves(world, 40)
    crowd = world.crowd
    assert crowd.brains.active(0)[-1].startswith("Enemy.Alive.Combo")
    crowd.damage(np.array([0]), 12, world.heroes[0])
    world.step([IDLE])
    assert crowd.brains.active(0)[-1] == "Enemy.Alive.Stunned"
    crowd.damage(np.array([0]), 12, world.heroes[0])
    world.step([IDLE])
    assert crowd.brains.active(0) == ("Enemy", "Enemy.Dead")
    assert crowd.kills == 1


def test_a_dead_enemy_leaves_the_arena_and_comes_back_at_the_edge_when_summoned() -> None:
    world = one_enemy(300.0)
    crowd = world.crowd
    crowd.damage(np.array([0]), config.ENEMY_HEALTH, world.heroes[0])
    seen = [leaf for leaf, _, _ in leaves(world, int(2.5 * config.FPS) + 1)]
    assert seen == ["Enemy.Dead", "Enemy.Waiting"]  # the corpse lies 2.5 s, then goes
    crowd.summon(np.array([0]))
    assert [leaf for leaf, _, _ in leaves(world, 1)] == ["Roam.Wander"]
    assert crowd.health[0] == config.ENEMY_HEALTH
    x, y = float(crowd.x[0]), float(crowd.y[0])
    # On the edge, 10 units in, then one frame of wandering at 28 units a second.
    assert 10.0 <= min(x, y, config.WIDTH - x, config.HEIGHT - y) <= 10.0 + 28.0 * config.DT
    hero = world.heroes[0]
    assert (x - hero.x) ** 2 + (y - hero.y) ** 2 >= SAFE_SPAWN**2


def test_a_wounded_enemy_flees_until_it_has_healed() -> None:
    world = one_enemy(60.0)
    crowd = world.crowd
    crowd.health[0] = config.WOUNDED
    seen = leaves(world, 3)
    assert seen[0][0] == "Flee"
    start = float(crowd.x[0])
    leaves(world, 60)
    assert float(crowd.x[0]) > start  # away from the hero, on its left
    healed = [leaf for leaf, _, _ in leaves(world, 4 * config.FPS)]
    assert healed[-1] in ("Chase", "Roam.Wander", "Roam.Rest")
    assert crowd.health[0] >= 2 * config.WOUNDED


def test_a_slash_wounds_an_enemy_it_reels_then_flees_and_comes_back_whole() -> None:
    world = one_enemy(20.0)
    crowd, hero = world.crowd, world.heroes[0]
    crowd.damage(np.array([0]), 12, hero)  # a slash: 20 health down to 8
    seen = [leaf for leaf, _, _ in leaves(world, 30)]
    assert seen == ["Stunned", "Flee"]
    healed = [leaf for leaf, _, _ in leaves(world, 4 * config.FPS)]
    assert healed[0] == "Flee" and "Flee" not in healed[1:]  # healed, it fights again
    assert crowd.health[0] >= 2 * config.WOUNDED


def test_an_enemy_summoned_again_comes_in_whole_not_fleeing() -> None:
    world = World(1, 1, brains="machines")  # one machine: its actions can be listened to
    bring_in(world, 0, world.heroes[0].x + 300.0, world.heroes[0].y)
    crowd = world.crowd
    crowd.health[0] = config.WOUNDED  # it dies wounded
    crowd.damage(np.array([0]), config.ENEMY_HEALTH, world.heroes[0])
    idle(world, int(2.5 * config.FPS) + 2)
    assert crowd.brains.active(0) == ("Enemy", "Enemy.Waiting")
    assert not crowd.levels["Wounded"][0]  # dead, it is no longer wounded
    played: list[str] = []
    machine = crowd.brains.machines[0]  # type: ignore[attr-defined]
    machine.add_action_listener(
        lambda call: (
            played.append(str(call.params["name"])) if call.type == "play_animation" else None
        )
    )
    crowd.summon(np.array([0]))
    idle(world, 1)
    assert played == ["Wander"]  # straight into Roam: no Flee for an instant


def test_a_hit_knocks_an_enemy_away_from_the_hero_who_struck_even_unhunted() -> None:
    world = one_enemy(20.0)
    crowd, hero = world.crowd, world.heroes[0]
    hero.status.try_activate("Protected")  # no enemy hunts a protected hero
    crowd.heading_x[0], crowd.heading_y[0] = -1.0, 0.0  # walking toward the hero
    crowd.damage(np.array([0]), 1, hero)
    start = float(crowd.x[0]) - hero.x
    idle(world, 10)
    assert crowd.brains.active(0)[-1] == "Enemy.Alive.Stunned"
    assert float(crowd.x[0]) - hero.x > start + 10.0  # pushed back, away from the hero


def test_enemies_come_in_far_from_every_hero_when_the_edge_allows() -> None:
    world = World(2, 60)
    first, second = world.heroes
    first.x, first.y = 40.0, 40.0  # two corners: some edge places near each
    second.x, second.y = config.WIDTH - 40.0, config.HEIGHT - 40.0
    crowd = world.crowd
    crowd.summon(np.arange(60))
    idle(world, 1)
    room = np.minimum(
        (crowd.x - first.x) ** 2 + (crowd.y - first.y) ** 2,
        (crowd.x - second.x) ** 2 + (crowd.y - second.y) ** 2,
    )
    assert crowd.in_play.all() and (room >= SAFE_SPAWN**2).all()


def test_a_batch_and_a_machine_per_enemy_play_the_same_match() -> None:
    batch = play(World(1, 150, brains="batch"), 900)
    machines = play(World(1, 150, brains="machines"), 900)
    assert batch.summary() == machines.summary()
    assert all(batch.crowd.brains.active(i) == machines.crowd.brains.active(i) for i in range(150))
    counts = batch.crowd.brains.counts()
    assert counts["Enemy"] == 150 and batch.crowd.kills > 0
    assert counts.get("Enemy.Alive.Combo", 0) + counts.get("Enemy.Alive.Chase", 0) > 0
