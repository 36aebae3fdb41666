"""What a person first meets on the page, in headless Chromium: a chart framed on its active
states at a readable size, drawn as a statechart or in the book's levels, zoomed only with
Ctrl + wheel; a timeline that is resized, collapsed, and brings a clicked step's card into
view.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import BROWSER, card, lit, node, served, wait_until
from inspect_samples import Lamp

from statetree.chart import ChartMachine, Event, load
from statetree.inspect import Inspector
from statetree.inspect.chart_world import ChartWorld

pytestmark = BROWSER

READABLE = 0.75
"""The smallest zoom of a first view and of Fit (12-point labels 12 pixels high)."""

STEPS = 14


def ladder(path: Path) -> Path:
    """A tall chart: a line of states, each going to the next on ``input Next``."""
    lines = ["version: 1", "name: Ladder", "root:", "  name: Ladder", "  states:"]
    for step in range(STEPS):
        lines.append(f"    - name: Step{step}")
        if step + 1 < STEPS:
            lines.append(f"      transitions: [{{on: {{input: Next}}, to: Step{step + 1}}}]")
    path.write_text("\n".join(lines) + "\n")
    return path


class World:
    """The ladder chart, on its last step, and lamps whose cards come after its own."""

    def __init__(self, folder: Path) -> None:
        self.ladder = ChartWorld(ladder(folder / "ladder.yaml"))
        for _ in range(STEPS - 1):
            self.ladder.machine.send(Event("input", "Next"))
        self.lamps = [Lamp(f"Lamp {number}") for number in range(5)]

    def machines(self) -> list[object]:
        return [*self.ladder.machines(), *(lamp.machine for lamp in self.lamps)]

    def tick(self) -> None:
        self.ladder.tick(0.01)
        for lamp in self.lamps:
            lamp.tick()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[World, Inspector]]:
    world = World(tmp_path_factory.mktemp("charts"))
    with served(world.machines(), world.tick) as inspector:
        yield world, inspector


@pytest.fixture
def page(browser: Any, world: tuple[World, Inspector]) -> Iterator[Any]:
    page = browser.new_page()
    page.goto(world[1].url)
    page.evaluate("localStorage.clear()")  # the timeline's size, kept by an earlier test
    page.reload()
    page.wait_for_selector(lit("Ladder", f"Ladder.Step{STEPS - 1}"))
    page.wait_for_selector(lit("Lamp_4", "LampStates.Off"))
    yield page
    page.evaluate("localStorage.clear()")
    page.close()


def zoom(view: Any) -> float:
    return float(view.get_attribute("data-zoom") or 0)


def inside(item: Any, view: Any) -> bool:
    """Whether ``item`` is drawn wholly inside the visible part of ``view``."""
    box, frame = item.bounding_box(), view.bounding_box()
    return (
        box["x"] >= frame["x"]
        and box["y"] >= frame["y"]
        and box["x"] + box["width"] <= frame["x"] + frame["width"]
        and box["y"] + box["height"] <= frame["y"] + frame["height"]
    )


def test_a_chart_opens_framed_on_its_active_state_at_a_readable_size(page: Any) -> None:
    from playwright.sync_api import expect

    view = card(page, "Ladder").locator(".diagram-view")
    last = node(page, "Ladder", f"Ladder.Step{STEPS - 1}")
    first = node(page, "Ladder", "Ladder.Step0")
    expect(view).to_have_attribute("data-zoom", f"{READABLE:.2f}")  # too tall to fit whole
    wait_until(lambda: inside(last, view), "the active step is in view")
    assert not inside(first, view)  # the diagram was scrolled to it, far from its top

    # Fit stops at the same readable size, framed on the active state again.
    card(page, "Ladder").locator("button.zoom-out").click()
    card(page, "Ladder").locator("button.zoom-out").click()
    assert zoom(view) < READABLE
    view.evaluate("view => view.scrollTo(0, 0)")
    card(page, "Ladder").locator("button.fit").click()
    expect(view).to_have_attribute("data-zoom", f"{READABLE:.2f}")
    assert inside(last, view)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (800, 600)])
def test_a_cards_diagram_ends_above_the_timeline(page: Any, width: int, height: int) -> None:
    """The view is no taller than what the cards' area shows below the card's lines."""
    page.set_viewport_size({"width": width, "height": height})
    chart = card(page, "Ladder")
    chart.locator("button.fit").click()
    view = chart.locator(".diagram-view")
    wait_until(
        lambda: (
            view.bounding_box()["y"] + view.bounding_box()["height"]
            <= page.locator("#timeline").bounding_box()["y"]
        ),
        "the diagram ends above the timeline",
    )
    assert inside(node(page, "Ladder", f"Ladder.Step{STEPS - 1}"), view)


def test_the_wheel_scrolls_and_only_ctrl_wheel_zooms(page: Any) -> None:
    from playwright.sync_api import expect

    chart = card(page, "Ladder")
    view = chart.locator(".diagram-view")
    chart.locator("button.expand").click()
    expect(chart).to_have_class(re.compile(r"\bexpanded\b"))
    before, top = zoom(view), view.evaluate("view => view.scrollTop")
    view.hover()
    page.mouse.wheel(0, -300)
    wait_until(lambda: view.evaluate("view => view.scrollTop") < top, "the view scrolled")
    assert zoom(view) == before
    page.keyboard.down("Control")
    page.mouse.wheel(0, 200)
    page.keyboard.up("Control")
    wait_until(lambda: zoom(view) < before, "Ctrl + wheel zoomed out")
    page.keyboard.press("Escape")
    expect(chart).not_to_have_class(re.compile(r"\bexpanded\b"))


def test_a_chart_is_a_statechart_and_offers_the_books_levels(page: Any) -> None:
    from playwright.sync_api import expect

    chart = card(page, "Ladder")
    layout = chart.locator("button.layout")
    expect(chart.locator("svg.diagram")).to_have_class("diagram layout-nested")
    expect(chart.locator('g.cluster[data-state="Ladder"]')).to_have_count(1)
    expect(layout).to_have_text("Levels")

    layout.click()
    expect(chart.locator("svg.diagram")).to_have_class("diagram layout-tree")
    expect(chart.locator('g.node[data-state="Ladder"]')).to_have_count(1)
    expect(chart.locator(".st-active[data-state]")).to_have_count(2)
    expect(layout).to_have_text("Statechart")
    layout.click()
    expect(chart.locator('g.cluster[data-state="Ladder"]')).to_have_class("cluster st-active")

    # A class-based machine shows the book's levels first.
    lamp = card(page, "Lamp_0")
    expect(lamp.locator("svg.diagram")).to_have_class("diagram layout-tree")
    expect(lamp.locator("button.layout")).to_have_text("Statechart")


def test_the_timeline_is_resized_and_collapsed_and_keeps_it(page: Any) -> None:
    from playwright.sync_api import expect

    panel, handle = page.locator("#timeline"), page.locator("#timeline-resize")
    height = panel.bounding_box()["height"]
    grip = handle.bounding_box()
    page.mouse.move(grip["x"] + 200, grip["y"] + grip["height"] / 2)
    page.mouse.down()
    page.mouse.move(grip["x"] + 200, grip["y"] + grip["height"] / 2 - 150, steps=5)
    page.mouse.up()
    wait_until(lambda: abs(panel.bounding_box()["height"] - (height + 150)) <= 2, "taller")
    handle.focus()
    page.keyboard.press("ArrowDown")
    wait_until(lambda: abs(panel.bounding_box()["height"] - (height + 126)) <= 2, "shorter")

    cards = page.locator("#cards").bounding_box()["height"]
    page.click("#timeline-toggle")
    rows = page.locator("#timeline-body")
    expect(rows).to_be_hidden()
    expect(page.locator("#timeline-toggle")).to_have_attribute("aria-expanded", "false")
    assert page.locator("#cards").bounding_box()["height"] > cards + 200

    page.reload()  # the next visit finds it as it was left
    expect(page.locator("#timeline-body")).to_be_hidden()
    page.click("#timeline-toggle")
    expect(page.locator("#timeline-body")).to_be_visible()
    wait_until(lambda: abs(panel.bounding_box()["height"] - (height + 126)) <= 2, "its size")


def test_a_timeline_click_brings_the_machines_card_into_view(
    page: Any, world: tuple[World, Inspector]
) -> None:
    from playwright.sync_api import expect

    lamp = card(page, "Lamp_4")
    page.locator("#cards").evaluate("cards => cards.scrollTo(0, 0)")
    expect(lamp).not_to_be_in_viewport()
    world[0].lamps[4].on = True
    page.wait_for_selector(lit("Lamp_4", "LampStates.On"))
    world[0].lamps[4].on = False
    page.wait_for_selector(lit("Lamp_4", "LampStates.Off"))
    page.locator("#cards").evaluate("cards => cards.scrollTo(0, 0)")

    page.fill("#timeline-search", "Lamp 4")
    page.locator("#timeline-rows tr").filter(has_text="enter \u00b7 Sibling").first.click()

    expect(lamp).to_be_in_viewport()
    expect(lamp).to_have_class(re.compile(r"\btravelling\b"))  # showing the step clicked


def test_a_resized_window_frames_the_diagrams_again(page: Any) -> None:
    page.set_viewport_size({"width": 800, "height": 600})
    chart = card(page, "Ladder")
    chart.locator("button.fit").click()
    view = chart.locator(".diagram-view")
    before = view.bounding_box()["height"]
    page.set_viewport_size({"width": 1920, "height": 1080})
    # Framed again once the size settles: the view takes the room the window has now.
    wait_until(lambda: view.bounding_box()["height"] > before + 100, "the view grew")
    assert inside(node(page, "Ladder", f"Ladder.Step{STEPS - 1}"), view)


def wide(path: Path, name: str) -> Path:
    """A wide chart: a priority parent of many children, side by side."""
    lines = ["version: 1", f"name: {name}", "root:", f"  name: {name}", "  policy: priority"]
    lines.append("  states:")
    for child in range(STEPS):
        lines.append(f"    - name: S{child}")
        if child + 1 < STEPS:
            lines.append(f"      pre: {{input: Go{child}}}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_machine_not_started_is_framed_again_with_the_window(
    browser: Any, tmp_path: Path
) -> None:
    idle = ChartMachine(load(wide(tmp_path / "idle.yaml", "Idle")), name="Idle")  # not started
    live = ChartMachine(load(wide(tmp_path / "live.yaml", "Live")), name="Live")
    live.start()
    with served([idle, live], lambda: None) as inspector:
        page = browser.new_page()
        page.set_viewport_size({"width": 900, "height": 650})
        page.goto(inspector.url)
        page.wait_for_selector(lit("Live", f"Live.S{STEPS - 1}"))
        views = [card(page, name).locator(".diagram-view") for name in ("Idle", "Live")]
        wait_until(lambda: zoom(views[0]) > 0, "the idle chart is drawn")
        first = [zoom(view) for view in views]
        assert first[0] == first[1]
        page.set_viewport_size({"width": 1500, "height": 1000})
        wait_until(lambda: zoom(views[1]) > first[1], "the started chart is framed again")
        wait_until(lambda: zoom(views[0]) == zoom(views[1]), "so is the one not started")
        page.close()
