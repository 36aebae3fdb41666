"""Plot the character machine of the HSM book ("Drawing HSMs", chapter 3).

Alive holds Locomotion (Stand, Move, Crouch), Jump and Shoot; Dead is Alive's sibling. The
structure is read from the classes below without running them; a running character then
gives the same picture with its active states highlighted.

Run it with a directory to write into (a fresh temporary one by default)::

    python examples/plot_character.py plots/

DOT and Mermaid files need nothing; the SVG files need Graphviz
(``pip install 'statetree[plot]'`` and the Graphviz programs) and are skipped without it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import statetree as st
from statetree.plot import RenderError, write_plot
from statetree.structure import derive


class Character:
    """Owner of the machine; its flags are the inputs the states read."""

    def __init__(self) -> None:
        self.dead = False
        self.move = False
        self.crouch = False
        self.jump = False
        self.shoot = False
        self.machine = st.StateMachine(CharacterStates.Alive, owner=self, name="Character")

    def update(self) -> None:
        self.machine.process_state_transitions()
        self.machine.update_states()


class CharacterStates:
    """The states of the book's character controller."""

    class Alive(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.dead:
                return st.sibling(CharacterStates.Dead)
            return st.inner_entry(CharacterStates.Locomotion)

    class Dead(st.State[Character]):
        pass

    class Locomotion(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.jump:
                return st.sibling(CharacterStates.Jump)
            if self.owner.shoot:
                return st.sibling(CharacterStates.Shoot)
            return st.inner_entry(CharacterStates.Stand)

    class Stand(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.crouch:
                return st.sibling(CharacterStates.Crouch)
            if self.owner.move:
                return st.sibling(CharacterStates.Move)
            return None

    class Move(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if self.owner.crouch:
                return st.sibling(CharacterStates.Crouch)
            if not self.owner.move:
                return st.sibling(CharacterStates.Stand)
            return None

    class Crouch(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if not self.owner.crouch:
                return st.sibling(CharacterStates.Stand)
            return None

    class Jump(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if not self.owner.jump:
                return st.sibling(CharacterStates.Locomotion)
            return None

    class Shoot(st.State[Character]):
        def transition(self) -> st.Transition | None:
            if not self.owner.shoot:
                return st.sibling(CharacterStates.Locomotion)
            return None


def initial_states() -> tuple[type[st.State[Character]], ...]:
    """The machines of this module, for tools such as ``statetree plot``."""
    return (CharacterStates.Alive,)


def write_plots(directory: Path) -> list[Path]:
    """Write the character machine's plots into ``directory``; return the files written.

    ``character.*`` is the structure; ``character_live.*`` the same with the states of a
    moving character highlighted. SVG files are written only when Graphviz is available.
    """
    directory.mkdir(parents=True, exist_ok=True)
    structure = derive(CharacterStates.Alive)
    character = Character()
    character.move = True
    character.update()  # Alive > Locomotion > Move
    written = [
        write_plot(structure, directory / "character.dot"),
        write_plot(structure, directory / "character.mmd"),
        write_plot(structure, directory / "character_live.dot", active=character.machine.stack),
    ]
    try:
        written.append(write_plot(structure, directory / "character.svg"))
        live = directory / "character_live.svg"
        written.append(write_plot(structure, live, active=character.machine.stack))
    except RenderError:
        pass  # without Graphviz, the DOT and Mermaid files are all there is
    return written


def main(argv: list[str] | None = None) -> None:
    arguments = sys.argv[1:] if argv is None else argv
    directory = Path(arguments[0]) if arguments else Path(tempfile.mkdtemp(prefix="plots-"))
    written = write_plots(directory)
    for path in written:
        print(f"wrote {path}")
    if not any(path.suffix == ".svg" for path in written):
        print("no SVG: install Graphviz and the plot extra (pip install 'statetree[plot]')")


if __name__ == "__main__":
    main()
