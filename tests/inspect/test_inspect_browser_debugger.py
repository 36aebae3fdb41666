"""Debugging from the page in headless Chromium: events sent from the palette, time travel,
breakpoints, pausing, and the views (zoom, fit, expand, dark theme).
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    BROWSER,
    HeldReplies,
    Loop,
    card,
    flick,
    lit,
    node,
    served,
    wait_until,
)
from inspect_samples import Lamp
from inspector_demo import CHART, Torch, platformer

from statetree.inspect import EditableChartAdapter, InspectError, Inspector, serve

pytestmark = BROWSER


class World:
    """A lamp, a torch and the platformer chart, stepped by a loop on its own thread."""

    def __init__(self, chart: Path) -> None:
        self.lamp = Lamp()
        self.torch = Torch("Torch")
        self.torch.lit = True  # and stays lit, steady and warm
        self.chart: EditableChartAdapter = platformer(chart)

    def machines(self) -> list[object]:
        return [self.lamp.machine, self.torch.machine, self.chart]

    def tick(self) -> None:
        self.lamp.tick()
        self.torch.machine.process_state_transitions()
        self.chart.chart_machine.tick(0.01)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, Inspector]]:
    path = tmp_path_factory.mktemp("charts") / "platformer.yaml"
    shutil.copyfile(CHART, path)
    world = World(path)
    with served(world.machines(), world.tick) as inspector:
        yield world, inspector


@pytest.fixture
def page(browser: Any, world: tuple[World, Inspector]) -> Iterator[Any]:
    page = browser.new_page()
    page.goto(world[1].url)
    page.wait_for_selector(lit("Lamp", "LampStates.Off"))
    page.wait_for_selector('article[data-machine="Platformer"] .palette .pill')
    yield page
    page.close()
    # Each test starts running, without breakpoints (the last page leaving sees to that).
    wait_until(lambda: world[1].hub.pages == 0, "the page left")


@pytest.fixture
def routed(browser: Any, world: tuple[World, Inspector]) -> Iterator[tuple[Any, HeldReplies]]:
    """A page whose replies of one type the test may hold back, and what holds them."""
    page = browser.new_page()
    replies = HeldReplies(page)
    page.goto(world[1].url)
    page.wait_for_selector(lit("Lamp", "LampStates.Off"))
    yield page, replies
    replies.release()
    page.close()
    world[0].lamp.on = False  # as the other tests expect it, whatever this one did
    wait_until(lambda: world[1].hub.pages == 0, "the page left")


def pill(page: Any, event: str) -> Any:
    return card(page, "Platformer").locator(f'.pill[data-event="{event}"]')


def test_events_are_sent_from_the_palette(page: Any) -> None:
    from playwright.sync_api import expect

    palette = card(page, "Platformer").locator(".palette")
    expect(palette.locator(".trigger-type")).to_have_text(
        ["input", "anim_finished", "timer", "held", "landed"]
    )
    pill(page, "input Attack").locator("button.send").click()
    page.wait_for_selector(lit("Platformer", "Hero.Arms.Slashing"))
    pill(page, "anim_finished Slash").locator("button.send").click()
    page.wait_for_selector(lit("Platformer", "Hero.Arms.Relaxed"))

    # A level trigger is held by one click and released by the next.
    held = pill(page, "held Right").locator("button.send")
    held.click()
    page.wait_for_selector(lit("Platformer", "Hero.Legs.Running"))
    expect(held).to_have_attribute("aria-pressed", "true")
    held.click()
    page.wait_for_selector(lit("Platformer", "Hero.Legs.Standing"))
    expect(held).to_have_attribute("aria-pressed", "false")

    events = page.locator("#timeline-rows tr.event")
    expect(events.filter(has_text="Attack")).to_have_count(1)
    expect(events.filter(has_text="Attack").locator("td.what")).to_have_text("event \u00b7 input")


def test_a_level_clicked_again_before_the_program_answers_is_released(
    routed: tuple[Any, HeldReplies], world: tuple[World, Inspector], monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    page, replies = routed
    adapter = world[1].hub.adapter("Platformer")
    modes: list[str] = []
    send_event = adapter.send_event  # type: ignore[attr-defined]

    def noted(trigger: str, name: str, mode: str) -> object:
        modes.append(mode)
        return send_event(trigger, name, mode)

    monkeypatch.setattr(adapter, "send_event", noted)
    held = pill(page, "held Right").locator("button.send")
    expect(held).to_have_attribute("aria-pressed", "false")

    # Each click shows at once what it asked for: the second, made before the program's
    # answer to the first came, releases the level.
    replies.hold("event-sent")
    held.click()
    expect(held).to_have_attribute("aria-pressed", "true")
    replies.wait(1)
    held.click()
    expect(held).to_have_attribute("aria-pressed", "false")
    replies.wait(2)
    replies.release()

    wait_until(lambda: modes == ["hold", "release"], "the program got a hold, then a release")
    page.wait_for_selector(lit("Platformer", "Hero.Legs.Standing"))
    expect(held).to_have_attribute("aria-pressed", "false")


def test_a_level_the_program_refuses_is_shown_released_with_the_error(
    page: Any, world: tuple[World, Inspector], monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    def refuse(trigger: str, name: str, mode: str) -> None:
        raise InspectError(f"the program refused to {mode} {trigger} {name}")

    monkeypatch.setattr(world[1].hub.adapter("Platformer"), "send_event", refuse)
    held = pill(page, "held Right").locator("button.send")
    held.click()
    expect(page.locator("#notices .notice .text")).to_have_text(
        "the program refused to hold held Right"
    )
    expect(held).to_have_attribute("aria-pressed", "false")


def test_time_travel_shows_the_states_and_values_at_a_step(
    page: Any, world: tuple[World, Inspector]
) -> None:
    from playwright.sync_api import expect

    flick(page, world[0].lamp)

    page.fill("#timeline-search", "LampStates.On")
    entered = page.locator("#timeline-rows tr").filter(has_text="enter \u00b7 Sibling")
    frame = entered.locator("td").nth(1).inner_text()
    entered.click()

    lamp_card = card(page, "Lamp")
    expect(lamp_card).to_have_class("card travelling")
    expect(lamp_card.locator(".travel .where")).to_contain_text(f"frame {frame}")
    expect(node(page, "Lamp", "LampStates.On")).to_have_class("node st-active")
    expect(node(page, "Lamp", "LampStates.Off")).to_have_class("node")
    expect(lamp_card.locator(".active-states")).to_have_text("Power \u203a On")
    values = lamp_card.locator(".travel table.values tr")
    expect(values).to_have_text(
        ["state values", "brightness1.0", "fields", "onTrue", "brokenFalse"]
    )
    expect(entered).to_have_class("step enter picked")

    # The slider steps through this machine's rows: one back is just before On entered.
    slider = lamp_card.locator('.travel input[type="range"]')
    slider.press("ArrowLeft")
    expect(lamp_card.locator(".active-states")).to_have_text("Power")

    lamp_card.locator(".travel button.live").click()
    expect(lamp_card).to_have_class("card")
    expect(node(page, "Lamp", "LampStates.Off")).to_have_class("node st-active")


def test_a_step_that_arrives_after_live_was_clicked_leaves_the_card_live(
    routed: tuple[Any, HeldReplies], world: tuple[World, Inspector]
) -> None:
    from playwright.sync_api import expect

    page, replies = routed
    lamp = world[0].lamp
    flick(page, lamp)
    page.fill("#timeline-search", "LampStates.On")
    page.locator("#timeline-rows tr").filter(has_text="enter \u00b7 Sibling").click()
    lamp_card = card(page, "Lamp")
    expect(lamp_card).to_have_class("card travelling")

    # One step back is asked for; its answer is held until the card went back live.
    replies.hold("travelled")
    lamp_card.locator('.travel input[type="range"]').press("ArrowLeft")
    replies.wait(1)
    lamp_card.locator(".travel button.live").click()
    expect(lamp_card).to_have_class("card")
    replies.release()

    # The page reads the held answer before the lamp's next change, and stays live.
    lamp.on = True
    expect(node(page, "Lamp", "LampStates.On")).to_have_class("node st-active")
    expect(lamp_card).to_have_class("card")
    lamp.on = False
    page.wait_for_selector(lit("Lamp", "LampStates.Off"))


def test_a_breakpoint_set_on_a_node_pauses_the_program(
    page: Any, world: tuple[World, Inspector]
) -> None:
    from playwright.sync_api import expect

    lamp, gate = world[0].lamp, world[1].hub.gate
    node(page, "Lamp", "LampStates.On").click()
    toggle = card(page, "Lamp").locator('.selection input[data-break="enter"]')
    toggle.check()
    expect(node(page, "Lamp", "LampStates.On")).to_have_class("node st-selected st-break")
    wait_until(lambda: world[1].hub.breakpoints("Lamp") == [("enter", "LampStates.On")], "set")

    lamp.on = True
    expect(page.locator("#run-state")).to_have_text("paused")
    assert gate.paused
    frame = gate.hit[4] if gate.hit else -1
    expect(page.locator("#hit")).to_have_text(
        f"Breakpoint: Lamp entered LampStates.On (frame {frame})"
    )
    # The page shows the machine at the step that hit, and the program stays there.
    expect(card(page, "Lamp")).to_have_class("card travelling")
    expect(page.locator("#timeline-rows tr.picked td.state")).to_have_text("LampStates.On")
    assert gate.frame == frame

    toggle.uncheck()
    wait_until(lambda: world[1].hub.breakpoints("Lamp") == [], "cleared")
    page.click("#pause")
    expect(page.locator("#run-state")).to_have_text("running")
    expect(page.locator("#hit")).to_be_hidden()
    lamp.on = False
    page.wait_for_selector(lit("Lamp", "LampStates.Off"))


def test_an_event_breakpoint_pauses_when_the_event_arrives(
    page: Any, world: tuple[World, Inspector]
) -> None:
    from playwright.sync_api import expect

    jump = pill(page, "input Jump")
    jump.locator('input[data-break="event"]').check()
    wait_until(lambda: world[1].hub.breakpoints("Platformer") != [], "the breakpoint is set")
    jump.locator("button.send").click()

    expect(page.locator("#run-state")).to_have_text("paused")
    expect(page.locator("#hit")).to_contain_text("Breakpoint: Platformer got the event input Jump")
    page.click("#pause")
    expect(page.locator("#run-state")).to_have_text("running")


def test_a_pause_ends_with_the_last_page(browser: Any, world: tuple[World, Inspector]) -> None:
    from playwright.sync_api import expect

    hub = world[1].hub
    first, second = browser.new_page(), browser.new_page()
    for page in (first, second):
        page.goto(world[1].url)
        expect(page.locator("#connection")).to_have_text("connected")
    first.click("#pause")
    wait_until(lambda: hub.gate.paused, "the program is paused")
    node(first, "Lamp", "LampStates.On").click()
    card(first, "Lamp").locator('.selection input[data-break="exit"]').check()
    wait_until(lambda: hub.breakpoints("Lamp") != [], "the breakpoint is set")

    first.close()
    expect(second.locator("#run-state")).to_have_text("paused")  # a page still watches
    second.close()
    wait_until(lambda: not hub.gate.paused, "the program runs again")
    assert hub.breakpoints("Lamp") == []


def test_chart_diagrams_label_their_transitions(page: Any) -> None:
    from playwright.sync_api import expect

    chart = card(page, "Platformer")
    link = chart.locator('g.edge[data-link="Hero.Arms.Relaxed->Hero.Arms.Slashing"] text')
    expect(link).to_have_text("input: Attack")
    expect(
        chart.locator('g.edge[data-link="Hero.Arms.Aiming->Hero.Arms.Relaxed"] text')
    ).to_have_text("not held: Aim")
    # Drawn as a statechart: the states with children are boxes, the others nodes; the
    # start marker and the dots and diamonds inside the boxes are no states to select.
    expect(chart.locator("g.cluster[data-state]")).to_have_count(3)
    expect(chart.locator("g.node[data-state]")).to_have_count(7)
    expect(chart.locator("g.node.marker")).to_have_count(3)  # start, Legs' diamond, Arms' dot


def test_zoom_fit_and_expand(page: Any) -> None:
    from playwright.sync_api import expect

    chart = card(page, "Platformer")
    view = chart.locator(".diagram-view")
    fitted = float(view.get_attribute("data-zoom") or 0)
    assert fitted >= 0.8  # text stays readable

    chart.locator("button.zoom-in").click()
    expect(view).to_have_attribute("data-zoom", f"{fitted * 1.25:.2f}")
    view.hover()
    page.keyboard.down("Control")
    page.mouse.wheel(0, -200)
    page.keyboard.up("Control")
    wait_until(lambda: float(view.get_attribute("data-zoom") or 0) > fitted * 1.3, "zoomed in")
    # Dragging the background pans the zoomed diagram.
    left = view.evaluate("view => view.scrollLeft")
    box = view.bounding_box()
    page.mouse.move(box["x"] + box["width"] - 10, box["y"] + 10)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] - 110, box["y"] + 10, steps=5)
    page.mouse.up()
    assert view.evaluate("view => view.scrollLeft") == left + 100
    chart.locator("button.fit").click()
    expect(view).to_have_attribute("data-zoom", f"{fitted:.2f}")

    chart.locator("button.expand").click()
    expect(chart).to_have_class("card wide expanded")
    box, viewport = chart.bounding_box(), page.viewport_size
    assert box["width"] > viewport["width"] - 40
    page.keyboard.press("Escape")
    expect(chart).to_have_class("card wide")


def test_an_expanded_diagram_keeps_the_size_its_zoom_gives(page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 800, "height": 600})  # narrower than the chart
    chart = card(page, "Platformer")
    chart.locator("button.expand").click()
    expect(chart).to_have_class("card wide expanded")
    view = chart.locator(".diagram-view")
    before = float(view.get_attribute("data-zoom") or 0)
    for _ in range(3):
        chart.locator("button.zoom-in").click()
    wait_until(lambda: float(view.get_attribute("data-zoom") or 0) > before, "zoomed in")
    svg = view.locator("svg.diagram")
    drawn, asked = svg.evaluate(
        "svg => [svg.getBoundingClientRect().width, parseFloat(svg.style.width)]"
    )
    assert asked > view.bounding_box()["width"]  # wider than the view: panned, not squeezed
    assert abs(drawn - asked) < 1
    page.keyboard.press("Escape")


def test_the_dark_theme_follows_the_system(page: Any) -> None:
    from playwright.sync_api import expect

    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_css("background-color", "rgb(22, 20, 15)")
    page.emulate_media(color_scheme="light")
    expect(page.locator("html")).to_have_css("background-color", "rgb(246, 242, 234)")


def test_watch_shown_says_when_it_stops_and_unstarted_machines_say_so(browser: Any) -> None:
    from playwright.sync_api import expect

    lamps = [Lamp(f"Lamp {number:03d}") for number in range(105)]  # never started
    with serve([lamp.machine for lamp in lamps], port=0) as inspector:
        page = browser.new_page()
        page.goto(inspector.url)
        expect(page.locator("#cards article.card")).to_have_count(6)
        page.click("#watch-shown")

        expect(page.locator("#cards article.card")).to_have_count(100)
        expect(page.locator("#notices .notice .text")).to_have_text(
            "Watching the first 100 of the 105 machines shown: narrow the filter to watch the "
            "others."
        )
        expect(card(page, "Lamp_000").locator(".active-states")).to_have_text("not started")
        page.close()


def test_a_chart_batch_is_shown_as_a_population(browser: Any) -> None:
    from crowd import Crowd
    from playwright.sync_api import expect

    crowd = Crowd(300)
    crowd.batch.start()
    with serve([crowd.batch], port=0, rate=30) as inspector:
        loop = Loop(inspector, lambda: crowd.frame(crowd.inputs()))
        page = browser.new_page()
        page.goto(inspector.url)
        population = card(page, "Crowd")
        expect(population.locator(".kind")).to_have_text("chart-batch")
        # Every state's node says how many agents are in it; the root holds them all.
        expect(node(page, "Crowd", "Character")).to_have_attribute("data-count", "300")
        expect(population.locator(".population-total")).to_contain_text("300 agents")
        leaves = [
            "Character.Alive.Combo.Hit1.Windup",
            "Character.Alive.Combo.Hit1.Window",
            "Character.Alive.Combo.Hit1.Recover",
            "Character.Alive.Combo.Hit1.Next",
            "Character.Alive.Combo.Hit2",
            "Character.Alive.Jump",
            "Character.Alive.Locomotion.Idle",
            "Character.Alive.Locomotion.Walk",
            "Character.Dead",
        ]
        lines = population.locator("svg.population-chart polyline")
        expect(lines).to_have_count(len(leaves))
        assert lines.evaluate_all("lines => lines.map(l => l.dataset.state)") == leaves
        # The counts follow the frames, and add up to the population.
        wait_until(lambda: _leaf_total(population) == 300 and _frame(population) > 30, "frames")
        _axes_show_every_state(population)
        population.locator('.legend-item[data-state="Character.Dead"]').click()
        expect(lines).to_have_count(len(leaves) - 1)
        page.close()
        loop.stop()


def _axes_show_every_state(population: Any) -> None:
    """The chart has axes: agents (a log scale at first) and frames; on the log scale every
    state holding agents is drawn clear of the bottom, however few it holds."""
    from playwright.sync_api import expect

    chart = population.locator("svg.population-chart")
    scale = population.locator("button.scale")
    expect(scale).to_have_attribute("aria-pressed", "true")
    expect(chart.locator(".axis.y text:not(.title)")).to_have_text(["0", "1", "10", "100"])
    expect(chart.locator(".axis.y text.title")).to_have_text("agents")
    frames = _texts(chart.locator(".axis.x text:not(.title)"))
    assert len(frames) >= 2 and frames[0] == "0"
    lifts = chart.evaluate(LIFTS)
    assert lifts and all(lift >= 8 for count, lift in lifts if count > 0), lifts

    scale.click()
    expect(scale).to_have_attribute("aria-pressed", "false")
    ticks = [
        int(text.replace(",", "")) for text in _texts(chart.locator(".axis.y text:not(.title)"))
    ]
    steps = {b - a for a, b in itertools.pairwise(ticks)}
    assert ticks[0] == 0 and len(steps) == 1 and ticks[-1] >= 100
    scale.click()


def _texts(found: Any) -> list[str]:
    return list(found.evaluate_all("texts => texts.map(text => text.textContent)"))


# For each line: the latest count of its state and how far above the bottom it is drawn.
LIFTS = """chart => {
  const bottom = Number(chart.querySelector(".axis.y line.base").getAttribute("y1"));
  const legend = chart.closest(".population").querySelectorAll(".legend-item");
  const counts = new Map([...legend].map(
    (i) => [i.dataset.state, Number(i.textContent.split(" ").pop().replace(/,/g, ""))]));
  return [...chart.querySelectorAll("polyline")].map((line) => {
    const last = line.getAttribute("points").split(" ").pop().split(",");
    return [counts.get(line.dataset.state), bottom - Number(last[1])];
  });
}"""


def _frame(population: Any) -> int:
    text = population.locator(".population-total").inner_text()
    return int(text.split("frame ")[1].split(" ")[0])


def _leaf_total(population: Any) -> int:
    counts = population.locator(".legend-item").evaluate_all(
        "items => items.map(i => Number(i.textContent.split(' ').pop().replace(/,/g, '')))"
    )
    return sum(counts)
