"""Hot reload: a running machine takes an edited chart and keeps what did not change."""

from __future__ import annotations

import copy
import pickle

import pytest
from chart_samples import CHARTS, GAME, Recorder

from statetree.chart import (
    DEFAULT_REGISTRY,
    ActionCall,
    ActionType,
    Chart,
    ChartBatch,
    ChartError,
    ChartMachine,
    Event,
    HandlerError,
    Param,
    StateDef,
    TriggerType,
    from_data,
    loads,
)
from statetree.chart import builder as b
from statetree.chart.reload import Reloaded
from statetree.errors import SaveError, UsageError

TEXT = (CHARTS / "combo_attack.yaml").read_text()
A = "Character.Alive.ComboAttack"


def edited(old: str, new: str, count: int = 1) -> str:
    assert TEXT.count(old) >= count, old
    return TEXT.replace(old, new, count)


def in_window() -> Recorder:
    """A combo machine in ComboAttack1.Window, 0.25 s into it."""
    recorder = Recorder(loads(TEXT, "yaml", GAME))
    recorder.play("input ComboAttackButton\ntick 1")
    assert recorder.machine.active[-1] == f"{A}.ComboAttack1.Window"
    return recorder


def test_a_change_to_inactive_states_keeps_everything_and_applies_later() -> None:
    recorder = in_window()
    before = recorder.machine.machine.stack
    report = recorder.machine.reload(loads(edited("damage: 4.0", "damage: 5.0"), "yaml", GAME))
    assert report.exited == report.entered == ()
    assert report.kept == recorder.machine.active
    assert all(a is b for a, b in zip(recorder.machine.machine.stack, before, strict=True))
    assert recorder.lines == []  # nothing entered or exited
    assert (
        f"enter {A}.ComboAttack2: enable_damage_collision(name='ComboAttack2', damage=5.0)"
        in recorder.play("input ComboAttackButton")
    )


def test_kept_states_take_their_new_class_and_keep_their_timers() -> None:
    recorder = in_window()
    window = recorder.machine.state(f"{A}.ComboAttack1.Window")
    old_class = type(window)
    # The window now closes into Next instead of Post.
    text = edited("- {on: {timer: Window}, to: Post}", "- {on: {timer: Window}, to: Next}")
    recorder.machine.reload(loads(text, "yaml", GAME))
    assert recorder.machine.state(f"{A}.ComboAttack1.Window") is window
    assert type(window) is not old_class
    assert type(window).__qualname__ == f"{A}.ComboAttack1.Window"
    recorder.play("tick 0.25")  # the window's timer, started before the reload, fires
    assert recorder.machine.active[-1] == f"{A}.ComboAttack2.Pre"


def test_a_changed_active_state_is_exited_and_entered_again() -> None:
    recorder = in_window()
    report = recorder.machine.reload(loads(edited("damage: 2.0", "damage: 3.0"), "yaml", GAME))
    assert report.exited == (f"{A}.ComboAttack1", f"{A}.ComboAttack1.Window")
    assert report.entered == (f"{A}.ComboAttack1", f"{A}.ComboAttack1.Pre")
    assert recorder.actions() == [
        f"exit {A}.ComboAttack1: disable_damage_collision(name='ComboAttack1')",
        f"exit {A}.ComboAttack1: clear_history()",
        f"enter {A}.ComboAttack1: enable_damage_collision(name='ComboAttack1', damage=3.0)",
        f"enter {A}.ComboAttack1.Pre: play_animation(name='ComboAttack1', loop=False)",
        f"enter {A}.ComboAttack1.Pre: play_sound(name='ComboAttack1', loop=False)",
        f"enter {A}.ComboAttack1.Pre: start_timer(name='Pre', delay=0.75)",
    ]


def test_a_vanished_active_state_is_exited_and_its_parent_chooses_again() -> None:
    recorder = Recorder(loads(TEXT, "yaml", GAME))
    recorder.machine.start()
    text = edited("        - name: Idle\n", "        - name: Rest\n")
    report = recorder.machine.reload(loads(text, "yaml", GAME))
    assert report.exited == ("Character.Alive.Idle",)
    assert report.entered == ("Character.Alive.Rest",)


def test_a_renamed_root_restarts_the_machine_on_the_new_root() -> None:
    recorder = in_window()
    text = TEXT.replace("name: Character\n", "name: Hero\n", 1)
    report = recorder.machine.reload(loads(text, "yaml", GAME))
    assert report.kept == ()
    assert recorder.machine.active == ("Hero", "Hero.Alive", "Hero.Alive.Idle")
    recorder.machine.machine.stop()
    recorder.machine.start()
    assert recorder.machine.active[0] == "Hero"


def test_a_bad_chart_or_a_missing_handler_changes_nothing() -> None:
    recorder = in_window()
    active = recorder.machine.active
    sequence = StateDef("Character", "sequential", (StateDef("A"), StateDef("B")))
    with pytest.raises(ChartError, match="would never advance past it"):
        recorder.machine.reload(Chart("Combo", sequence))
    registry = GAME.with_actions(ActionType("shake_camera"))
    text = edited("- raise: Next", "- shake_camera\n          - raise: Next")
    with pytest.raises(HandlerError, match=r"missing: shake_camera \(used by .*1\.Next \(enter\)"):
        recorder.machine.reload(loads(text, "yaml", registry))
    assert recorder.machine.active == active
    assert recorder.lines == []


def test_reloading_a_chart_with_new_triggers_keeps_levels_held() -> None:
    base = "name: L\nroot:\n  name: Top\n  policy: priority\n  states:\n"
    one = base + "    - {name: Run, pre: {held: Right}}\n    - {name: Stand}\n"
    two = base + "    - {name: Duck, pre: {held: Down}}\n" + one.split("states:\n")[1]
    machine = ChartMachine(loads(one, "yaml"))
    machine.hold(Event("held", "Down"))
    machine.hold(Event("held", "Right"))
    assert machine.active == ("Top", "Top.Run")
    machine.reload(loads(two, "yaml", DEFAULT_REGISTRY))
    assert machine.active == ("Top", "Top.Duck")


SOUND = DEFAULT_REGISTRY.with_actions(ActionType("sound", (Param("name"),)))


def door(creak: str, *, extra: str = "") -> Chart:
    """A door whose Closed state makes sounds on entering (``creak``) and leaving."""
    closed = {
        "name": "Closed",
        "enter": [{"sound": {"name": creak}}, {"start_timer": {"name": "T", "delay": 2}}],
        "exit": [{"sound": {"name": "latch"}}],
        "transitions": [{"on": {"input": "Use"}, "to": "Open"}],
    }
    opened = {"name": "Open", "enter": [{"sound": {"name": extra}}] if extra else []}
    return from_data({"name": "Door", "root": {"name": "Door", "states": [closed, opened]}}, SOUND)


def test_a_handler_driving_the_machine_from_a_reloads_exits_is_refused_and_undone() -> None:
    refused: list[str] = []
    heard: list[object] = []

    def sound(call: ActionCall) -> None:
        heard.append(call.params["name"])
        if call.params["name"] == "latch" and not refused:  # the engine answers at once
            for attempt in (
                lambda: machine.send(Event("event", "Latched")),
                lambda: machine.tick(1.0),
                lambda: machine.restore(saved),
                lambda: copy.deepcopy(machine),
            ):
                try:
                    attempt()
                except (UsageError, SaveError) as error:
                    refused.append(type(error).__name__ + ": " + str(error).split(":")[0])
            raise RuntimeError("the audio engine gave up")

    machine = ChartMachine(door("creak"), {"sound": sound})
    machine.add_event_listener(heard.append)
    machine.tick(0.5)
    saved = machine.snapshot()
    with pytest.raises(RuntimeError, match="gave up"):
        machine.reload(door("creak2"))  # Closed's enter changed: it exits, latch sounds
    assert refused == [
        "UsageError: send(event Latched) called while chart 'Door' exits states for a reload or "
        "stop(), outside any processing",
        "UsageError: tick() called while chart 'Door' processes",
        "UsageError: restore() called while chart 'Door' processes",
        "SaveError: cannot save chart machine 'Door' while it processes (from one of its "
        "handlers or listeners)",
    ]
    assert heard == ["creak", "latch"]  # no listener told of an event never processed
    assert machine.chart == door("creak") and machine.snapshot() == saved  # all undone
    machine.send(Event("input", "Use"))  # latch sounds again, quietly this time
    assert machine.active == ("Door", "Door.Open") and heard[-1] == "latch"


def test_a_handler_raising_in_the_reloads_processing_puts_the_machine_back() -> None:
    def sound(call: ActionCall) -> None:
        if call.params["name"] == "bang":
            raise RuntimeError("no speaker")

    machine = ChartMachine(door("creak"), {"sound": sound})
    machine.send(Event("input", "Use"))
    machine.tick(0.25)
    saved = machine.snapshot()
    with pytest.raises(RuntimeError, match="no speaker"):
        machine.reload(door("creak", extra="bang"))  # Open's enter changed: entered again
    assert machine.chart == door("creak") and machine.snapshot() == saved
    assert machine.reload(door("creak", extra="thud")).entered == ("Door.Open",)


def test_a_listener_of_the_event_processed_is_inside_the_processing() -> None:
    machine = ChartMachine(door("creak"), {"sound": lambda call: None})
    refused: list[str] = []

    def listener(event: Event) -> None:
        for call in (lambda: machine.reload(door("creak2")), lambda: machine.tick(1.0)):
            try:
                call()
            except UsageError as error:
                refused.append(str(error))

    machine.start()
    machine.add_event_listener(listener)
    machine.tick(2.5)  # timer T fires: its listener sees it latched
    machine.send(Event("input", "Use"))
    assert (
        refused
        == [
            "reload() called while chart 'Door' processes",
            "tick() called while chart 'Door' processes",
        ]
        * 2
    )
    assert machine.active == ("Door", "Door.Open") and machine.clock == 2.5


def test_a_level_of_a_kind_the_new_registry_drops_is_released_by_the_reload() -> None:
    pad = DEFAULT_REGISTRY.with_triggers(TriggerType("pad", level=True))
    rule = "  name: Top\n  policy: priority\n  states:\n    - {name: Run, pre: {%s: Right}}\n"
    text = "name: Hero\nroot:\n" + rule + "    - {name: Stand}\n"
    machine = ChartMachine(loads(text % "pad", "yaml", pad))
    machine.hold(Event("pad", "Right"))
    report = machine.reload(loads(text % "held", "yaml"))  # no pad triggers any more
    assert report == Reloaded(("Top",), ("Top.Run",), ("Top.Stand",))  # Run left at once
    assert machine.snapshot().held == ()
    assert pickle.loads(pickle.dumps(machine)).active == ("Top", "Top.Stand")


def test_a_kept_state_the_reloads_processing_leaves_and_enters_again_was_not_kept() -> None:
    def chart(spark: bool) -> Chart:
        bounce = [
            {"name": "A", "transitions": [{"on": {"event": "go"}, "to": "B"}]},
            {
                "name": "B",
                "enter": [{"raise": {"name": "back"}}],
                "transitions": [{"on": {"event": "back"}, "to": "A"}],
            },
        ]
        still: list[dict[str, object]] = [{"name": "M"}]
        if spark:  # holding X now leads M to N, which makes A leave and come back
            still[0]["transitions"] = [{"on": {"held": "X"}, "to": "N"}]
            still.append({"name": "N", "enter": [{"raise": {"name": "go"}}]})
        regions = [{"name": "R1", "states": bounce}, {"name": "R2", "states": still}]
        return from_data(
            {"name": "C", "root": {"name": "C", "policy": "concurrent", "states": regions}}
        )

    machine = ChartMachine(chart(False))
    machine.hold(Event("held", "X"))
    a = machine.state("C.R1.A")
    report = machine.reload(chart(True))
    assert machine.active == ("C", "C.R1", "C.R1.A", "C.R2", "C.R2.N")
    assert machine.state("C.R1.A") is not a  # A left for B and came back: a new A
    # Both left in the reload's processing, in the order of the kept states.
    assert report == Reloaded(("C", "C.R1", "C.R2"), ("C.R1.A", "C.R2.M"), ("C.R1.A", "C.R2.N"))


def _stand_or_run(policy: str) -> Chart:
    """Top{X -(Go)-> P -(Back)-> X}, P a priority {Run if held R, Stand} or explicit."""
    if policy == "priority":
        kids = [b.state("Run", pre=b.held("R")), b.state("Stand")]
    else:
        kids = [b.state("Run"), b.state("Stand")]
    return b.chart(
        "H",
        b.state(
            "Top",
            b.state("X", transitions=[b.on(b.input("Go"), "P")]),
            b.state("P", *kids, policy=policy, transitions=[b.on(b.input("Back"), "X")]),
        ),
    )


@pytest.mark.parametrize("backend", [None, "numpy", "numba"])
def test_a_priority_states_last_choice_is_no_history_for_its_explicit_successor(
    backend: str | None,
) -> None:
    # Priority states keep no history: made explicit by a reload, P starts with its first
    # child, as a fresh machine of the new chart does (it resumed Stand, the last choice).
    go, back = Event("input", "Go"), Event("input", "Back")
    if backend is None:
        machine = ChartMachine(_stand_or_run("priority"))
        for event in (go, back):
            machine.send(event)
        machine.reload(_stand_or_run("explicit"))
        machine.send(go)
        active = machine.active
    else:
        pytest.importorskip(backend, reason=f"the {backend} pass needs {backend} (the batch extra)")
        batch = ChartBatch(_stand_or_run("priority"), 1, backend=backend)
        for event in (go, back):
            batch.send(event)
        batch.reload(_stand_or_run("explicit"))
        batch.send(go)
        active = batch.active(0)
    assert active == ("Top", "Top.P", "Top.P.Run")
