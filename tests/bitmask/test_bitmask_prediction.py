"""Client prediction: the article's unpleasant case, confirmations, rejections and rollback."""

from __future__ import annotations

import pytest
from bitmask_strategies import recorded

from statetree.bitmask import (
    BitCause,
    BitmaskDefinition,
    BitmaskMachine,
    BitState,
    NotPredictableError,
    PredictingClient,
    PredictionRequest,
    ReentrantRequestError,
    Verdict,
    serve_prediction,
)
from statetree.errors import DecodeError

P, N, R = BitCause.PREDICTED, BitCause.NETWORK, BitCause.ROLLBACK

RULES = recorded(
    [
        {"name": "Alive"},
        {"name": "Moving", "requires": ["Alive"], "blocked_by": ["InDialogue"]},
        {"name": "Crouching", "requires": ["Alive"], "predictable": True},
        {
            "name": "Aiming",
            "requires": ["Alive"],
            "blocked_by": ["InDialogue"],
            "predictable": True,
        },
        {"name": "Shooting", "requires": ["Alive", "Aiming"], "blocked_by": ["InDialogue"]},
        {
            "name": "Punching",
            "requires": ["Alive"],
            "terminates": ["Aiming"],
            "blocked_by": ["Shooting", "InDialogue"],
            "predictable": True,
            "retriggerable": True,
        },
        {
            "name": "InDialogue",
            "requires": ["Alive"],
            "terminates": ["Moving", "Punching", "Aiming"],
        },
    ]
)


class Session:
    """A server machine and a client machine that has received the server's tick 0."""

    def __init__(self, *server_states: str) -> None:
        self.server = BitmaskMachine(RULES, [])
        for state in ("Alive", *server_states):
            self.server.try_activate(state)
        self.log: list = []
        self.client = PredictingClient(BitmaskMachine(RULES, self.log))
        self.client.receive_state(self.server.encode(), tick=0)
        self.log.clear()

    def events(self) -> list[tuple[str, str, BitCause]]:
        return [(sign, name, cause) for sign, name, cause, _ in self.log]


def test_the_naive_scheme_flickers() -> None:
    server = BitmaskMachine(RULES, [])
    server.try_activate("Alive")
    log: list = []
    client = BitmaskMachine(RULES, log)
    client.apply_encoded(server.encode())
    log.clear()
    client.try_activate("Aiming", cause=P)
    client.apply_encoded(server.encode())  # sent before the server saw the request
    server.try_activate("Aiming")
    client.apply_encoded(server.encode())
    assert [(s, n, c) for s, n, c, _ in log] == [
        ("+", "Aiming", P),
        ("-", "Aiming", N),
        ("+", "Aiming", N),
    ]


def test_a_stale_server_update_does_not_undo_a_prediction() -> None:
    session = Session()
    request = session.client.predict("Aiming")
    assert request == PredictionRequest(1, "Aiming")
    stale = session.server.encode()
    assert session.client.receive_state(stale, tick=1)
    verdict = serve_prediction(session.server, request, tick=2)
    assert verdict == Verdict(1, True, 2)
    session.client.receive_state(session.server.encode(), tick=2)
    session.client.receive_verdict(verdict)
    assert session.events() == [("+", "Aiming", P)]
    assert session.client.pending == ()
    assert session.client.machine.mask == session.server.mask


def test_a_confirmation_ahead_of_the_update_keeps_the_prediction_until_it_arrives() -> None:
    session = Session()
    request = session.client.predict("Aiming")
    assert request is not None
    stale = session.server.encode()
    verdict = serve_prediction(session.server, request, tick=2)
    assert session.client.receive_verdict(verdict)
    assert session.client.pending == (request,)
    session.client.receive_state(stale, tick=1)
    assert session.client.pending == (request,)
    session.client.receive_state(session.server.encode(), tick=2)
    assert session.client.pending == ()
    session.server.deactivate("Aiming")
    session.client.receive_state(session.server.encode(), tick=3)
    assert session.events() == [("+", "Aiming", P), ("-", "Aiming", N)]


def test_a_rejection_rolls_back_including_terminated_states() -> None:
    session = Session("Aiming", "Shooting")
    session.client.receive_state(bytes([0b1001]), tick=1)  # client has not seen Shooting yet
    session.log.clear()
    request = session.client.predict("Punching")
    assert request is not None
    verdict = serve_prediction(session.server, request, tick=2)
    assert verdict == Verdict(1, False, 2)
    session.client.receive_verdict(verdict)
    assert session.events() == [
        ("-", "Aiming", BitCause.TERMINATED),
        ("+", "Punching", P),
        ("-", "Punching", R),
        ("+", "Aiming", R),
    ]
    session.log.clear()
    session.client.receive_state(session.server.encode(), tick=2)
    assert session.events() == [("+", "Shooting", N)]


def test_an_update_that_makes_the_prediction_impossible_drops_it_visibly() -> None:
    session = Session()
    request = session.client.predict("Aiming")
    assert request is not None
    session.server.try_activate("InDialogue")
    verdict = serve_prediction(session.server, request, tick=1)
    session.client.receive_state(session.server.encode(), tick=1)
    session.client.receive_verdict(verdict)
    assert session.events() == [
        ("+", "Aiming", P),
        ("-", "Aiming", N),
        ("+", "InDialogue", N),
    ]


def test_other_pending_predictions_survive_a_rejection() -> None:
    session = Session()
    crouch = session.client.predict("Crouching")
    aim = session.client.predict("Aiming")
    assert crouch is not None and aim is not None
    session.client.receive_verdict(Verdict(crouch.request_id, False, 1))
    assert session.client.pending == (aim,)
    assert session.client.machine.active_states == ("Alive", "Aiming")
    assert session.events() == [("+", "Crouching", P), ("+", "Aiming", P), ("-", "Crouching", R)]


def test_old_updates_and_unknown_verdicts_are_ignored() -> None:
    session = Session("Crouching")
    session.client.receive_state(session.server.encode(), tick=5)
    assert not session.client.receive_state(bytes([0b1]), tick=4)
    assert not session.client.receive_verdict(Verdict(99, True, 5))
    assert session.client.machine.active_states == ("Alive", "Crouching")


def test_bad_bytes_leave_the_client_untouched() -> None:
    session = Session()
    request = session.client.predict("Aiming")
    before = (session.client.machine.mask, session.client.pending, session.client.server_mask)
    with pytest.raises(DecodeError, match=r"^bitmask: Shooting is active but requires"):
        session.client.receive_state(bytes([0b10000]), tick=1)
    assert (session.client.machine.mask, session.client.pending) == before[:2]
    assert session.client.server_mask == before[2]
    assert session.client.pending == (request,)


def test_only_predictable_states_can_be_predicted() -> None:
    session = Session()
    with pytest.raises(NotPredictableError) as caught:
        session.client.predict("Moving")
    assert str(caught.value) == (
        "Moving is not predictable: declare predictable = True for states that a client may "
        "activate before the server confirms them"
    )
    assert serve_prediction(session.server, PredictionRequest(7, "Moving"), 1) == Verdict(
        7, False, 1
    )
    assert serve_prediction(session.server, PredictionRequest(8, "Nope"), 1) == Verdict(8, False, 1)
    mask = session.server.mask
    for decoded in (["Aiming"], {"state": "Aiming"}, None, 3):  # what a packet may hold
        request = PredictionRequest(9, decoded)  # type: ignore[arg-type]
        assert serve_prediction(session.server, request, 1) == Verdict(9, False, 1)
    assert session.server.mask == mask


def test_a_prediction_the_client_already_knows_to_fail_is_not_sent() -> None:
    session = Session("InDialogue")
    assert session.client.predict("Aiming") is None
    assert session.client.pending == ()
    assert session.events() == []


class Pump(BitState[list]):
    """A hook that runs the network callback queued on its owner, as a game loop might."""

    def on_activated(self, cause: BitCause) -> None:
        callback = self.owner.pop()
        try:
            callback()
        except ReentrantRequestError as error:
            self.owner.append(str(error))


PUMPED = BitmaskDefinition.from_data(
    {"Alive": {}, "Aiming": {"requires": ["Alive"], "predictable": True}, "Pump": {}},
    behaviours={"Pump": Pump},
    name="Pumped",
)
REFUSED = (
    "apply_mask() was called from Pump.on_activated; a machine applies one change at a time. "
    "Express the follow-up as a rule (requires / terminates) or make the request after the "
    "current call returns"
)


def test_an_update_or_verdict_refused_inside_a_hook_changes_nothing() -> None:
    calls: list = []
    link = PredictingClient(BitmaskMachine(PUMPED, calls))
    link.receive_state(b"\x01", tick=0)
    request = link.predict("Aiming")
    assert request is not None
    calls.append(lambda: link.receive_state(b"\x00", tick=7))
    assert link.receive_state(b"\x05", tick=1)  # Pump enters; its hook tries the tick-7 update
    assert calls == [REFUSED]
    assert (link.server_mask, link.pending) == (0b101, (request,))
    assert link.machine.active_states == ("Alive", "Aiming", "Pump")
    assert link.receive_state(b"\x01", tick=5)  # not older than the refused tick 7
    assert link.machine.active_states == ("Alive", "Aiming")
    calls[:] = [lambda: link.receive_verdict(Verdict(request.request_id, False, 6))]
    assert link.receive_state(b"\x05", tick=6)
    assert calls == [REFUSED]
    assert link.pending == (request,)
    assert link.machine.active_states == ("Alive", "Aiming", "Pump")
    assert link.receive_verdict(Verdict(request.request_id, False, 6))
    assert (link.pending, link.machine.active_states) == ((), ("Alive", "Pump"))
