"""Patterns in the visual chart editor, driven in headless Chromium: the combo's ComboStep
is listed with its two uses, edited once for both, and one use is detached."""

from __future__ import annotations

import runpy
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import BROWSER, Loop, card, node

from statetree.chart import ChartMachine, Registry, load
from statetree.inspect import ChartFile, EditableChartAdapter, Inspector, serve

pytestmark = BROWSER

CHARTS = Path(__file__).resolve().parents[2] / "examples" / "charts"
GAME: Registry = runpy.run_path(str(CHARTS / "game.py"))["REGISTRY"]
MACHINE = "Combo"
STEP = "Character.Alive.ComboAttack.ComboAttack"


def ignore(call: object) -> None:
    pass


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[EditableChartAdapter, Inspector]]:
    """A copy of the combo, running on its own thread, and the inspector serving it."""
    path = tmp_path / "combo_attack.yaml"
    shutil.copyfile(CHARTS / "combo_attack.yaml", path)
    handlers = {action.name: ignore for action in GAME.host_actions()}
    machine = ChartMachine(load(path, GAME), handlers, name=MACHINE)
    machine.start()
    adapter = EditableChartAdapter(machine, ChartFile(path, GAME))
    with serve([adapter], port=0, rate=30) as inspector:
        loop = Loop(inspector, lambda: machine.tick(0.01))
        yield adapter, inspector
        loop.stop()


@pytest.fixture
def combo(served: tuple[EditableChartAdapter, Inspector]) -> EditableChartAdapter:
    return served[0]


@pytest.fixture
def page(browser: Any, served: tuple[EditableChartAdapter, Inspector]) -> Iterator[Any]:
    from playwright.sync_api import expect

    page = browser.new_page()
    page.goto(served[1].url)
    expect(card(page, MACHINE).locator(".editor-head h4")).to_have_text("combo_attack.yaml (yaml)")
    yield page
    page.close()


def test_a_pattern_is_listed_with_its_uses_and_edited_once_for_both(
    page: Any, combo: EditableChartAdapter
) -> None:
    from playwright.sync_api import expect

    editor = card(page, MACHINE).locator(".editor")
    patterns = editor.locator("details.patterns")
    patterns.locator("summary").click()
    step = patterns.locator('.pattern[data-pattern="ComboStep"]')
    expect(step.locator(".use")).to_have_count(2)
    expect(step.locator(".use").nth(1)).to_have_attribute("data-use", f"{STEP}2")

    # A state inside a use says where it comes from, and opens the pattern's own state.
    node(page, MACHINE, f"{STEP}2.Window").click()
    panel = card(page, MACHINE).locator(".selection")
    expect(panel.locator(".pattern-note")).to_have_text(
        "From the pattern ComboStep, used by ComboAttack2."
    )
    panel.locator("button.edit-pattern").click()
    expect(panel.locator("h4").first).to_have_text("@ComboStep.Window")
    form = panel.locator('.state-form[data-path="@ComboStep.Window"]')
    form.locator('[data-section="enter"] button', has_text="+ action").click()
    row = form.locator('[data-section="enter"] .action-editor').last
    row.locator("select").first.select_option("raise")
    row.locator("input").first.fill("Open")
    form.locator('[data-section="enter"] button.apply').click()
    expect(editor.locator(".edit-result p.ok")).to_contain_text("Saved and reloaded")
    for n in (1, 2):
        window = combo.chart_machine.chart.find(f"{STEP}{n}.Window")
        assert window is not None and str(window.enter[-1]) == "raise(name='Open')"
    assert combo.file.read().count("Open") == 1  # written once, in the pattern


def test_a_use_is_detached_into_plain_states(page: Any, combo: EditableChartAdapter) -> None:
    from playwright.sync_api import expect

    node(page, MACHINE, f"{STEP}1").click()
    panel = card(page, MACHINE).locator(".selection")
    expect(panel.locator(".pattern-note")).to_have_text(
        f"A use of the pattern ComboStep (combo_attack.yaml:{line(combo, 'ComboAttack1')})."
    )
    expect(panel.locator('input[data-argument="damage"]')).to_have_value("2")
    panel.locator("button.detach").click()
    expect(card(page, MACHINE).locator(".edit-result p.ok")).to_contain_text(
        "Saved and reloaded: kept"
    )
    assert combo.file.read().count("use: ComboStep") == 1
    # Written out, ComboAttack1 is edited as any state; ComboAttack2 is still a use.
    node(page, MACHINE, f"{STEP}1.Window").click()
    expect(panel.locator('input[data-field="name"]')).to_have_value("Window")
    node(page, MACHINE, f"{STEP}2.Window").click()
    expect(panel.locator(".pattern-note")).to_have_count(1)


def line(combo: EditableChartAdapter, attack: str) -> int:
    lines = combo.file.read().splitlines()
    return next(n for n, text in enumerate(lines, 1) if f"name: {attack}" in text)
