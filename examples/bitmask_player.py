"""Seven player states of a bitmask multi-state machine, as a runnable walkthrough.

Run ``python examples/bitmask_player.py``. It defines Alive, Moving, Crouching, Aiming,
Shooting, Punching and InDialogue with their required / terminated / blocking sets,
then walks through the rules, the debugging views, replication and client prediction.
"""

from __future__ import annotations

from statetree.bitmask import (
    BitCause,
    BitmaskDefinition,
    BitmaskMachine,
    BitState,
    PredictingClient,
    format_history,
    serve_prediction,
)
from statetree.errors import DecodeError

PUNCH_COOLDOWN = 3


class Player:
    """The owner: what the states act on. Time advances only through ``tick``."""

    def __init__(self, name: str, *, ammo: int = 3) -> None:
        self.name = name
        self.time = 0
        self.ammo = ammo
        self.speed = 0.0
        self.sensitivity = 1.0
        self.events: list[str] = []
        self.machine = BitmaskMachine(PLAYER_STATES, self, name=name)

    def tick(self, ticks: int = 1) -> None:
        self.time += ticks


class PlayerState(BitState[Player]):
    """Logs every change on the owner, so a walkthrough can show the hook calls."""

    def on_activated(self, cause: BitCause) -> None:
        self.owner.events.append(f"+{self.name} ({self._reason(cause)})")

    def on_deactivated(self, cause: BitCause) -> None:
        self.owner.events.append(f"-{self.name} ({self._reason(cause)})")

    def _reason(self, cause: BitCause) -> str:
        # The history's latest record is the change being notified; it names the culprit.
        change = self.machine.last_change
        return change.reason if change else cause.describe()


class Alive(PlayerState):
    pass


class Moving(PlayerState):
    requires = (Alive,)
    blocked_by = ("InDialogue",)
    predictable = True

    def on_activated(self, cause: BitCause) -> None:
        super().on_activated(cause)
        self.owner.speed = 0.5 if self.machine.is_active(Crouching) else 1.0

    def on_deactivated(self, cause: BitCause) -> None:
        super().on_deactivated(cause)
        self.owner.speed = 0.0


class Crouching(PlayerState):
    requires = (Alive,)
    blocked_by = ("InDialogue",)
    predictable = True


class Aiming(PlayerState):
    requires = (Alive,)
    blocked_by = ("InDialogue",)
    predictable = True

    def on_activated(self, cause: BitCause) -> None:
        super().on_activated(cause)
        self.owner.sensitivity = 0.5

    def on_deactivated(self, cause: BitCause) -> None:
        super().on_deactivated(cause)
        self.owner.sensitivity = 1.0


class Shooting(PlayerState):
    requires = (Alive, Aiming)
    blocked_by = ("InDialogue",)

    def can_activate(self) -> bool:
        return self.owner.ammo > 0

    def on_activated(self, cause: BitCause) -> None:
        super().on_activated(cause)
        self.owner.ammo -= 1


class Punching(PlayerState):
    requires = (Alive,)
    terminates = (Aiming,)
    blocked_by = (Shooting, "InDialogue")
    retriggerable = True
    predictable = True

    def __init__(self) -> None:
        self.ready_at = 0

    def can_activate(self) -> bool:
        return self.owner.time >= self.ready_at

    def on_activated(self, cause: BitCause) -> None:
        super().on_activated(cause)
        self.ready_at = self.owner.time + PUNCH_COOLDOWN


class InDialogue(PlayerState):
    requires = (Alive,)
    terminates = (Moving, Punching, Aiming)


PLAYER_STATES = BitmaskDefinition.from_classes(
    [Alive, Moving, Crouching, Aiming, Shooting, Punching, InDialogue], name="Player"
)


def _attempt(player: Player, state: type[PlayerState], *, deactivate: bool = False) -> None:
    player.events.clear()
    machine = player.machine
    verb = "deactivate" if deactivate else "activate"
    done = machine.deactivate(state) if deactivate else machine.try_activate(state)
    print(f"  {verb:<10} {state.__name__:<10} -> {'ok' if done else 'refused'}")
    if player.events:
        print(f"      hooks: {', '.join(player.events)}")
    if not done and not deactivate:
        print(f"      why: {machine.explain(state)}")


def rules_walkthrough(player: Player) -> None:
    """Show each kind of rule on the seven states."""
    print("Requirements, blocking and terminations:")
    _attempt(player, Moving)
    _attempt(player, Alive)
    for state in (Moving, Crouching, Aiming, Shooting):
        _attempt(player, state)
    _attempt(player, Punching)
    _attempt(player, Shooting, deactivate=True)
    _attempt(player, Punching)
    print(
        f"  what the states drive now: speed={player.speed} sensitivity={player.sensitivity} "
        f"ammo={player.ammo} (the shot spent the last round)"
    )
    print("Retriggering with a cooldown:")
    _attempt(player, Punching)
    player.tick(PUNCH_COOLDOWN)
    _attempt(player, Punching)
    print("A dialogue terminates movement and blocks aiming:")
    _attempt(player, Aiming)
    _attempt(player, InDialogue)
    _attempt(player, Aiming)
    print(player.machine.describe())
    print("Death takes every dependent state with it:")
    _attempt(player, Alive, deactivate=True)


def change_log(player: Player) -> None:
    """Show the recorded changes with their causes."""
    print("The change log (the last 64 changes are kept):")
    print(format_history(player.machine))


def replication(player: Player) -> None:
    """Send the mask as bytes, and show a bad packet being refused."""
    server = player.machine
    server.try_activate(Alive)
    server.try_activate(Crouching)
    replica = Player(f"{player.name}'s replica")
    packet = server.encode()
    replica.machine.apply_encoded(packet)
    print(f"  packet {packet.hex()} ({len(packet)} byte) -> replica: {replica.events}")
    try:
        replica.machine.apply_encoded(bytes([0b0010000]))
    except DecodeError as error:
        print(f"  bad packet refused: {error}")
    print(f"  replica still {list(replica.machine.active_states)}")


def naive_prediction() -> None:
    """The unpleasant case of naive prediction: a server update overtakes the player's own
    request."""
    server = Player("server")
    server.machine.try_activate(Alive)
    client = Player("client")
    client.machine.apply_encoded(server.machine.encode())
    client.events.clear()
    client.machine.try_activate(Aiming, cause=BitCause.PREDICTED)
    client.machine.apply_encoded(server.machine.encode())
    server.machine.try_activate(Aiming)
    client.machine.apply_encoded(server.machine.encode())
    print(f"  naive client flickers: {client.events}")


def prediction() -> None:
    """The same exchange with confirmations on their own channel: no flicker, and rollback."""
    server = Player("server")
    server.machine.try_activate(Alive)
    client = Player("client")
    link = PredictingClient(client.machine)
    link.receive_state(server.machine.encode(), tick=0)
    client.events.clear()
    request = link.predict(Aiming)
    assert request is not None
    print(f"  client predicts Aiming at once; its hooks so far: {client.events}")
    stale = server.machine.encode()
    link.receive_state(stale, tick=1)
    print(f"  a server update sent before the request arrives, no flicker: {client.events}")
    verdict = serve_prediction(server.machine, request, tick=2)
    link.receive_verdict(verdict)
    link.receive_state(server.machine.encode(), tick=2)
    print(f"  server accepts, update with Aiming arrives, nothing runs again: {client.events}")
    server.machine.try_activate(InDialogue)
    request = link.predict(Punching)
    assert request is not None
    link.receive_verdict(serve_prediction(server.machine, request, tick=3))
    print(f"  Punching predicted but the server is in a dialogue: {client.events}")


def main() -> None:
    """Print the walkthrough."""
    hero = Player("Hero", ammo=1)
    print("The seven player states, their bits and flags:")
    print(hero.machine.describe())
    print()
    rules_walkthrough(hero)
    print()
    change_log(hero)
    print("\nReplication:")
    replication(hero)
    print("\nClient prediction:")
    naive_prediction()
    prediction()


if __name__ == "__main__":
    main()
