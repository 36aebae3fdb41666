"""State classes the structure tests derive. Line numbers matter to a few tests: append only."""

from __future__ import annotations

import structure_twins

import statetree
import statetree as st
from statetree import inner as push_inner
from statetree.structure import targets


class Owner:
    def __init__(self) -> None:
        self.flag = False


# -- the book's character controller ("Drawing HSMs"), written with every import style --


class Character:
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner.flag:
                return statetree.sibling(Character.Dead)
            return st.inner_entry(Character.Locomotion)

    class Dead(st.State[Owner]):
        pass

    class Locomotion(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner.flag:
                return st.sibling(Character.Jump)
            return st.inner_entry(Character.Stand)

    class Stand(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Character.Move) if self.owner.flag else None

    class Move(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Character.Stand) if not self.owner.flag else None

    class Jump(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Character.Locomotion) if not self.owner.flag else None


# -- inheritance: shared methods, overridden methods, super() ------------------------------


class Inherit:
    class Base(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner.flag:
                return st.sibling(Inherit.Dead)
            return None

        def helper(self) -> st.Transition:
            return st.inner(Inherit.Helped)

    class Root(Base):
        def transition(self) -> st.Transition | None:
            return super().transition() or st.inner_entry(Inherit.Quiet)

    class Quiet(Base):
        def transition(self) -> st.Transition | None:
            # Overrides Base.transition without super(): Base's sibling to Dead never runs.
            return st.sibling(type(self)) if self.owner.flag else None

    class Helped(st.State[Owner]):
        pass

    class Dead(st.State[Owner]):
        pass


# -- transitions in variables, deferred transitions, reusable states -----------------------


class Deferred:
    class Root(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Deferred.Stand)

    class Stand(st.State[Owner]):
        next: st.Transition | None = None

        def update(self) -> None:
            if self.owner.flag:
                self.next = st.sibling(Deferred.Crouch)

        def transition(self) -> st.Transition | None:
            return self.next

    class Crouch(st.State[Owner]):
        def on_enter(self, done: st.Transition | None = None) -> None:
            self.done = done

        def transition(self) -> st.Transition | None:
            return self.done

    class Variable(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            target = Deferred.Stand
            return st.sibling(target)


DONE = st.sibling(Deferred.Stand)


class Reuse:
    class Root(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(Reuse.Play, st.sibling(Reuse.Play, st.sibling(Reuse.Done)))

    class Play(st.State[Owner]):
        def on_enter(self, done: st.Transition | None = None) -> None:
            self.done = done or st.sibling(Reuse.Done)

        def transition(self) -> st.Transition | None:
            return self.done if self.owner.flag else None

    class Done(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return DONE


# -- explicit declarations ----------------------------------------------------------------


class Declared:
    class Root(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return push_inner(Declared.Stand)

    @targets(sibling=("Crouch", "Declared.Lie"), inner_entry="Helper")
    class Stand(st.State[Owner]):
        def on_enter(self, after: st.Transition | None = None) -> None:
            self.after = after

        def transition(self) -> st.Transition | None:
            return self.after

    class Crouch(st.State[Owner]):
        pass

    class Lie(st.State[Owner]):
        pass

    class Helper(st.State[Owner]):
        pass

    @targets(sibling="Nowhere")
    class Broken(st.State[Owner]):
        pass


# -- overrides, unknown targets, unreachable states, depth problems ------------------------


class Override:
    class Root(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.inner_entry(self.get_state_override(Override.Attack))

    class Attack(st.State[Owner]):
        pass

    class HeroAttack(st.State[Owner]):
        pass


class Broken:
    class Root(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner.flag:
                return st.sibling(Broken.Missing)  # type: ignore[attr-defined]
            return st.inner_entry(Broken.Outer)

    class Outer(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            if self.owner.flag:
                return st.sibling(Broken.Root)  # a sibling one level up
            return st.inner_entry(Broken.Leaf)

    class Leaf(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Owner) if self.owner.flag else None  # type: ignore[arg-type]

    class Forgotten(st.State[Owner]):
        pass


# -- two classes with one qualified name, in two modules ------------------------------------


class Twin(st.State[Owner]):
    def transition(self) -> st.Transition:
        return st.sibling(structure_twins.Twin)


# -- concurrent regions ---------------------------------------------------------------------


class Body:
    class Alive(st.State[Owner]):
        def transition(self) -> st.Transition:
            return st.concurrent(Body.Legs, Body.Arms)

    class Legs(st.State[Owner]):
        def transition(self) -> st.Transition:
            return st.inner_entry(Body.Walk)

    class Arms(st.State[Owner]):
        def transition(self) -> st.Transition:
            return st.inner_entry(Body.Wave)

    class Walk(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Body.Run) if self.owner.flag else None

    class Run(st.State[Owner]):
        pass

    class Wave(st.State[Owner]):
        def transition(self) -> st.Transition | None:
            return st.sibling(Body.Rest) if self.owner.flag else None

    class Rest(st.State[Owner]):
        pass
