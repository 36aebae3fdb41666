"""End to end in headless Chromium: the page follows a running program.

One browser for the whole run. Skipped only when Chromium (or Playwright) is missing;
CI installs both. The chart editor and the debugger have modules of their own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from browser_support import BROWSER, card, flick, lit, wait_until
from inspect_samples import Lamp, soldier
from inspector_demo import Replicated, Torch, platformer
from net_character import CODEC, Character, Inputs

from statetree.inspect import EditableChartAdapter, Inspector, serve

pytestmark = BROWSER


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
    asked: int = 0
    running: bool = True

    def __post_init__(self) -> None:
        self.replicated = Replicated(self.hero.machine, CODEC)

    def loop(self, inspector: Inspector) -> None:
        while self.running:
            self.asked += 1
            if inspector.frame():
                self.tick()
                self.replicated.send(inspector)  # the Hero's update, as a server sends it
            time.sleep(0.01)  # the pace of the game, not a wait for a result

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


@pytest.fixture
def page(browser: Any, program: tuple[Program, Inspector]) -> Iterator[Any]:
    page = browser.new_page()
    page.goto(program[1].url)
    page.wait_for_selector('article[data-machine="Lamp"] svg g.node')
    yield page
    page.close()


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


def test_concurrent_regions_are_regions_highlighted_together(page: Any) -> None:
    from playwright.sync_api import expect

    page.wait_for_selector(lit("Torch", "TorchStates.Flame_Steady"))
    card = page.locator('article[data-machine="Torch"]')
    # Each region is a box around its states, and the active states read region by region.
    expect(card.locator("g.region")).to_have_count(2)
    assert card.locator("g.region").evaluate_all("boxes => boxes.map(b => b.dataset.region)") == [
        "TorchStates.Flame",
        "TorchStates.Heat",
    ]
    expect(card.locator(".active-states")).to_have_text(
        "Lit \u203a [Flame \u203a Flame_Steady | Heat \u203a Heat_Warm]"
    )

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

    notice = page.locator("#notices .notice").filter(has_text="unknown message type 'eval'")
    expect(notice.locator(".text")).to_have_text(
        "unknown message type 'eval'; expected one of: subscribe, unsubscribe, pause, step, "
        "explain, chart-source, edit-chart, check-chart, send-event, set-breakpoint, travel"
    )
    page.evaluate("window.inspector.sendRaw('not json')")
    page.evaluate("window.inspector.sendRaw('not json')")
    # The same message twice is counted on one notice, which can be closed.
    repeated = page.locator("#notices .notice").filter(has_text="message is not JSON")
    expect(repeated.locator(".count")).to_have_text("\u00d72")
    repeated.locator("button.close").click()
    expect(repeated).to_have_count(0)


def test_pause_and_step_the_program(page: Any, program: tuple[Program, Inspector]) -> None:
    from playwright.sync_api import expect

    page.click("#pause")
    expect(page.locator("#run-state")).to_have_text("paused")
    frames, shown = program[0].frames, program[1].hub.gate.frame
    expect(page.locator("#frame")).to_have_text(str(shown))
    asked = program[0].asked
    wait_until(lambda: program[0].asked > asked + 5, "the paused loop asked to run 5 times")
    assert program[0].frames == frames

    page.click("#step")
    expect(page.locator("#frame")).to_have_text(str(shown + 1))
    assert program[0].frames == frames + 1

    page.click("#pause")
    expect(page.locator("#run-state")).to_have_text("running")
    expect(page.locator("#step")).to_be_disabled()


def test_the_timeline_filters_searches_and_counts(
    page: Any, program: tuple[Program, Inspector]
) -> None:
    from playwright.sync_api import expect

    flick(page, program[0].lamp)

    page.fill("#timeline-search", "LampStates.On")
    rows = page.locator("#timeline-rows tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td.what")).to_have_text("exit \u00b7 Pop")
    expect(rows.nth(1).locator("td.what")).to_have_text("enter \u00b7 Sibling")
    # The count says how many steps the search leaves of all those kept.
    total = page.evaluate("window.inspector.timeline.rows.length")
    expect(page.locator("#timeline-count")).to_have_text(f"2 of {total} steps")

    page.uncheck('#timeline-categories input[value="exit"]')
    expect(rows).to_have_count(1)
    page.fill("#timeline-search", "")
    page.select_option("#timeline-machine", "Soldier")
    expect(rows).to_have_count(0)
    program[0].requests.append(("try_activate", "Armed"))
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("Soldierenter \u00b7 ActivatedArmedrequested")


def test_the_machine_list_shows_whole_kind_badges(page: Any) -> None:
    for badge in page.locator("#machine-list .kind").all():
        width = badge.evaluate("node => [node.scrollWidth, node.clientWidth]")
        assert width[0] <= width[1], f"{badge.inner_text()} is clipped"
    assert page.locator("#machine-list .kind").count() == 5


def test_unwatching_a_machine_removes_its_card_and_listener(
    page: Any, program: tuple[Program, Inspector]
) -> None:
    from playwright.sync_api import expect

    hub, torch = program[1].hub, program[0].torch.machine
    box = page.locator('#machine-list input[data-machine="Torch"]')
    # Ticked as soon as the page asked to watch it, not at the server's reply: unticked
    # until then, the box took a quick uncheck for nothing, and the card stayed.
    expect(box).to_be_checked()
    expect(card(page, "Torch")).to_have_count(1)
    wait_until(lambda: len(torch._listeners()) == 1, "the program attached the listener")
    page.uncheck('#machine-list input[data-machine="Torch"]')
    wait_until(lambda: not hub.watched("Torch"), "the server unwatched the Torch")
    expect(card(page, "Torch")).to_have_count(0)
    expect(box).not_to_be_checked()
    # The program removes the listener itself, at its next frame.
    wait_until(lambda: torch._listeners() == (), "the program removed the listener")
