"""Stack queries, on the machine and from inside states."""

from __future__ import annotations

from typing import Any

import pytest

import statetree as st


class Base(st.State[dict[str, Any]]):
    pass


class Alive(Base):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Locomotion)


class Locomotion(Base):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(Stand)


class Stand(Base):
    def on_enter(self) -> None:
        q = self.owner
        q["outer_loco"] = self.get_outer_state(Locomotion)
        q["outer_alive"] = self.is_in_outer_state(Alive)
        q["outer_self"] = self.get_outer_state(Stand)
        q["inner_any"] = self.get_inner_state(Base)
        q["anywhere"] = self.get_state(Alive)


class Move(Base):
    pass


def test_machine_queries() -> None:
    seen: dict[str, Any] = {}
    machine = st.StateMachine(Alive, seen)
    assert machine.get_state(Alive) is None
    machine.process_state_transitions()
    alive, loco, _stand = machine.stack
    assert machine.get_state(Locomotion) is loco
    assert machine.is_in_state(Stand)
    assert not machine.is_in_state(Move)
    # Queries match subclasses: the outermost Base on the stack is Alive.
    assert machine.get_state(Base) is alive


def test_queries_from_inside_states() -> None:
    seen: dict[str, Any] = {}
    machine = st.StateMachine(Alive, seen)
    machine.process_state_transitions()
    alive, loco, stand = machine.stack
    assert seen == {
        "outer_loco": loco,
        "outer_alive": True,
        "outer_self": None,
        "inner_any": None,
        "anywhere": alive,
    }
    assert alive.get_inner_state(Stand) is stand
    assert alive.get_immediate_inner_state(Stand) is None
    assert alive.get_immediate_inner_state(Locomotion) is loco
    assert alive.is_in_immediate_inner_state(Locomotion)
    assert alive.is_in_inner_state(Stand)
    assert not stand.is_in_inner_state(Base)
    assert stand.is_in_state(Alive)
    assert stand.get_immediate_inner_state(Base) is None
    assert (alive.depth, loco.depth, stand.depth) == (0, 1, 2)
    assert stand.machine is machine
    assert stand.owner is seen


class Attack(Base):
    pass


class HeroAttack(Attack):
    pass


class Fighter(Base):
    def transition(self) -> st.Transition | None:
        return st.inner_entry(self.get_state_override(Attack))


def test_state_overrides() -> None:
    hero = st.StateMachine(Fighter, {}, name="hero")
    hero.add_state_override(Attack, HeroAttack)
    enemy = st.StateMachine(Fighter, {}, name="enemy")
    hero.process_state_transitions()
    enemy.process_state_transitions()
    assert [type(s) for s in hero.stack] == [Fighter, HeroAttack]
    assert [type(s) for s in enemy.stack] == [Fighter, Attack]
    hero.remove_state_override(Attack)
    assert hero.get_state_override(Attack) is Attack
    hero.remove_state_override(Attack)  # removing twice is harmless
    for machine in (hero, enemy):  # with overrides kept and without
        with pytest.raises(st.TransitionTargetError, match=r"get_state_override\(\[<class"):
            machine.get_state_override([Attack])  # type: ignore[arg-type]
    assert repr(hero) == "<StateMachine 'hero' [Fighter, HeroAttack]>"
