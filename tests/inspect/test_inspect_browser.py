"""End to end in headless Chromium: the page follows a running program.

One browser for the whole module. Skipped only when Chromium (or Playwright) is missing;
CI installs both.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.util import find_spec
from typing import Any

import pytest
from inspect_samples import Lamp, soldier
from inspector_demo import Replicated, Torch, platformer
from inspector_screenshots import chromium, chromium_path
from net_character import CODEC, Character, Inputs

from statetree.inspect import EditableChartAdapter, Inspector, serve

pytestmark = [
    pytest.mark.skipif(chromium_path() is None, reason="Chromium is not installed"),
    pytest.mark.skipif(
        find_spec("playwright") is None or find_spec("uvicorn") is None,
        reason="Playwright or the inspect extra is not installed",
    ),
]


@dataclass
class Program:
    """A program stepping its machines on its own thread, as a game loop does."""

    lamp: Lamp = field(default_factory=Lamp)
    torch: Torch = field(default_factory=lambda: Torch("Torch"))
    soldier: Any = field(default_factory=soldier)
    hero: Character = field(default_factory=lambda: Character("Hero"))
    hero_inputs: Inputs = field(default_factory=Inputs)
    replicated: Replicated = field(init=False)
    chart: EditableChartAdapter | None = None
    requests: list[tuple[str, str]] = field(default_factory=list)
    frames: int = 0
    running: bool = True

    def __post_init__(self) -> None:
        self.replicated = Replicated(self.hero.machine, CODEC)

    def loop(self, inspector: Inspector) -> None:
        while self.running:
            if inspector.frame():
                self.tick()
                self.replicated.send(inspector)  # the Hero's update, as a server sends it
            time.sleep(0.01)

    def tick(self) -> None:
        self.lamp.tick()
        self.hero.step(self.frames, self.hero_inputs)
        self.torch.machine.process_state_transitions()
        if self.chart is not None:
            self.chart.chart_machine.tick(0.01)
        while self.requests:
            method, state = self.requests.pop(0)
            getattr(self.soldier, method)(state)
        self.frames += 1


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Program, Inspector]]:
    program = Program()
    program.torch.lit = True  # and stays lit, steady and warm
    program.chart = platformer(tmp_path_factory.mktemp("charts") / "platformer.yaml")
    machines = [
        program.lamp.machine,
        program.torch.machine,
        program.soldier,
        program.chart,
        program.replicated.adapter,
    ]
    with serve(machines, port=0, rate=30) as inspector:
        thread = threading.Thread(target=program.loop, args=(inspector,), daemon=True)
        thread.start()
        yield program, inspector
        program.running = False
        thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as context:
        yield context


@pytest.fixture
def page(browser: Any, program: tuple[Program, Inspector]) -> Iterator[Any]:
    page = browser.new_page()
    page.goto(program[1].url)
    page.wait_for_selector('article[data-machine="Lamp"] svg g.node')
    yield page
    page.close()


def lit(machine: str, state: str) -> str:
    return f'article[data-machine="{machine}"] [data-state="{state}"].st-active'


def test_highlighted_states_follow_the_machine(
    page: Any, program: tuple[Program, Inspector]
) -> None:
    from playwright.sync_api import expect

    lamp = program[0].lamp
    page.wait_for_selector(lit("Lamp", "LampStates.Off"))
    card = page.locator('article[data-machine="Lamp"]')
    expect(card.locator(".active-states")).to_have_text("Power \u203a Off")

    lamp.on = True
    page.wait_for_selector(lit("Lamp", "LampStates.On"))

    expect(card.locator(".st-active[data-state]")).to_have_count(2)
    expect(card.locator('[data-state="LampStates.Off"]')).not_to_have_class("node st-active")
    expect(card.locator(".active-states")).to_have_text("Power \u203a On")
    lamp.on = False
    page.wait_for_selector(lit("Lamp", "LampStates.Off"))


def test_concurrent_regions_are_highlighted_together(page: Any) -> None:
    from playwright.sync_api import expect

    page.wait_for_selector(lit("Torch", "TorchStates.Flame_Steady"))
    card = page.locator('article[data-machine="Torch"]')

    expect(card.locator("g.node.st-active")).to_have_count(5)
    for state in ("Lit", "Flame", "Heat", "Flame_Steady"):
        assert card.locator(f'[data-state="TorchStates.{state}"]').get_attribute("class") == (
            "node st-active"
        )
    # Links are highlighted as `statetree plot` highlights them: each region root's link to
    # its host, and each inner's link to its outer (Lit > Flame > Flame_Steady, Lit > Heat >
    # Heat_Warm).
    expect(card.locator("g.edge.st-active")).to_have_count(4)


def test_bitmask_flags_explain_and_the_last_packet(
    page: Any, program: tuple[Program, Inspector]
) -> None:
    from playwright.sync_api import expect

    machine, inspector = program[0].soldier, program[1]
    program[0].requests.append(("try_activate", "Alive"))
    page.wait_for_selector(lit("Soldier", "Alive"))
    inspector.packet(machine, machine.encode())
    card = page.locator('article[data-machine="Soldier"]')

    card.locator('tr[data-state="Firing"]').click()

    expect(card.locator(".explain")).to_have_text(
        "Firing cannot activate: it requires Armed, not active."
    )
    expect(card.locator(".packet code.hex")).to_have_text("01")
    expect(card.locator(".packet table.fields tr")).to_have_count(6)
    expect(card.locator(".packet table.fields tr").nth(1)).to_have_text("Alive011")


def test_the_heros_last_update_is_decoded_field_by_field(
    page: Any, program: tuple[Program, Inspector]
) -> None:
    from playwright.sync_api import expect

    card = page.locator('article[data-machine="Hero"]')
    rows = card.locator(".packet table.fields tr")
    program[0].hero_inputs = Inputs(right=True)
    page.wait_for_selector(lit("Hero", "CharacterStates.Move"))

    expect(card.locator(".packet code.hex")).to_have_text("60")
    expect(card.locator(".packet p").first).to_have_text(
        "active: Alive/Locomotion/Move(Direction.RIGHT)"
    )
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_have_text("fieldbitsrawvalue")
    expect(rows.nth(1)).to_have_text("leaf index0\u2013101leaf 1 of 4: Alive/Locomotion/Move")
    expect(rows.nth(2)).to_have_text("Move.direction: Enum(Direction)21Direction.RIGHT")
    expect(rows.nth(3)).to_have_text("padding3\u2013700000zero bits up to a whole byte")

    program[0].hero_inputs = Inputs(left=True)  # Move again, with another payload
    expect(card.locator(".packet code.hex")).to_have_text("40")
    expect(rows.nth(2)).to_have_text("Move.direction: Enum(Direction)20Direction.LEFT")

    program[0].hero_inputs = Inputs()
    page.wait_for_selector(lit("Hero", "CharacterStates.Stand"))
    expect(card.locator(".packet code.hex")).to_have_text("00")
    expect(rows).to_have_count(3)
    expect(rows.nth(1)).to_have_text("leaf index0\u2013100leaf 0 of 4: Alive/Locomotion/Stand")


def test_a_malformed_message_is_refused(page: Any) -> None:
    from playwright.sync_api import expect

    page.evaluate('window.inspector.sendRaw(\'{"type": "eval", "code": "alert(1)"}\')')

    # Errors of earlier tests may still be on show: find these by their own text.
    errors = page.locator("#errors .error")
    expect(errors.filter(has_text="unknown message type 'eval'")).to_have_text(
        "unknown message type 'eval'; expected one of: subscribe, unsubscribe, pause, step, "
        "explain, chart-source, edit-chart, check-chart, send-event, set-breakpoint, travel"
    )
    page.evaluate("window.inspector.sendRaw('not json')")
    expect(errors.filter(has_text="message is not JSON")).to_have_count(1)


def test_pause_and_step_the_program(page: Any, program: tuple[Program, Inspector]) -> None:
    from playwright.sync_api import expect

    page.click("#pause")
    expect(page.locator("#run-state")).to_have_text("paused")
    frames, shown = program[0].frames, program[1].hub.gate.frame
    expect(page.locator("#frame")).to_have_text(str(shown))
    time.sleep(0.2)
    assert program[0].frames == frames

    page.click("#step")
    expect(page.locator("#frame")).to_have_text(str(shown + 1))
    assert program[0].frames == frames + 1

    page.click("#pause")
    expect(page.locator("#run-state")).to_have_text("running")
    expect(page.locator("#step")).to_be_disabled()


def test_the_timeline_filters_and_searches(page: Any, program: tuple[Program, Inspector]) -> None:
    from playwright.sync_api import expect

    lamp = program[0].lamp
    lamp.on = True
    page.wait_for_selector(lit("Lamp", "LampStates.On"))
    lamp.on = False
    page.wait_for_selector(lit("Lamp", "LampStates.Off"))

    page.fill("#timeline-search", "LampStates.On")
    rows = page.locator("#timeline-rows tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td.what")).to_have_text("exit · Pop")
    expect(rows.nth(1).locator("td.what")).to_have_text("enter · Sibling")

    page.uncheck('#timeline-categories input[value="exit"]')
    expect(rows).to_have_count(1)
    page.fill("#timeline-search", "")
    page.select_option("#timeline-machine", "Soldier")
    expect(rows).to_have_count(0)
    program[0].requests.append(("try_activate", "Armed"))
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("Soldierenter · ActivatedArmedrequested")


def test_unwatching_a_machine_removes_its_card_and_listener(
    page: Any, program: tuple[Program, Inspector]
) -> None:
    from playwright.sync_api import expect

    hub, torch = program[1].hub, program[0].torch.machine
    assert len(torch._listeners()) == 1
    page.uncheck('#machine-list input[data-machine="Torch"]')
    expect(page.locator('article[data-machine="Torch"]')).to_have_count(0)
    assert not hub.watched("Torch")
    # The program removes the listener itself, at its next frame.
    deadline = time.monotonic() + 5
    while torch._listeners() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert torch._listeners() == ()


def test_a_chart_edit_is_saved_and_hot_reloaded(
    page: Any, program: tuple[Program, Inspector]
) -> None:
    from playwright.sync_api import expect

    chart = program[0].chart
    assert chart is not None
    card = page.locator('article[data-machine="Platformer"]')
    card.locator("select.state-chooser").select_option("Hero.Arms.Aiming")
    card.locator('input[data-field="rename to"]').fill("Aim")
    card.locator('input[data-field="rename to"] + button').click()

    expect(card.locator(".edit-result p.ok")).to_have_text(
        "saved and reloaded: kept 5, exited 0, entered 0"
    )
    expect(card.locator(".edit-result pre.diff")).to_contain_text("+        - name: Aim\n")
    expect(card.locator('svg g.node[data-state="Hero.Arms.Aim"]')).to_have_count(1)
    expect(card.locator('svg g.node[data-state="Hero.Arms.Aiming"]')).to_have_count(0)
    saved = chart.file.path.read_text()
    assert "        - name: Aim\n" in saved
    assert "{on: {held: Aim}, to: Aim}" in saved
    assert saved.startswith("# A platformer hero")
    assert chart.chart_machine.chart.find("Hero.Arms.Aim") is not None


def test_a_bad_chart_edit_gets_the_loaders_error(
    page: Any, program: tuple[Program, Inspector]
) -> None:
    from playwright.sync_api import expect

    chart = program[0].chart
    assert chart is not None
    before = chart.file.path.read_text()
    card = page.locator('article[data-machine="Platformer"]')
    card.locator("select.state-chooser").select_option("Hero.Legs.Standing")
    card.locator('input[data-field="pre"]').fill('{"input": "Sit"}')
    card.locator('input[data-field="pre"] + button').click()

    # Other tests' errors may still be on show: look for this edit's one.
    errors = page.locator("#errors .error").filter(has_text="platformer.yaml:28")
    expect(errors).to_have_count(1)
    expect(errors).to_contain_text(
        "platformer.yaml:28 at root.states[0].states[2].pre: priority state Hero.Legs has "
        "no ground state: its last child Standing has a pre-condition"
    )
    assert chart.file.path.read_text() == before
