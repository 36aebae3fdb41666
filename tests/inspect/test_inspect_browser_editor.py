"""The visual chart editor, driven in headless Chromium as a designer would use it.

Each test edits a fresh copy of the platformer chart while its machine runs on its own
thread; the page, the saved file and the running machine are checked.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import BROWSER, card, grip, node, served, wait_until
from inspector_demo import CHART, platformer

from statetree.chart.policy import DEFINITIONS
from statetree.inspect import EditableChartAdapter, Inspector

pytestmark = BROWSER

MACHINE = "Platformer"


class Chart:
    """The chart under edit: its adapter, its file and the inspector serving it."""

    def __init__(self, adapter: EditableChartAdapter, inspector: Inspector) -> None:
        self.adapter = adapter
        self.inspector = inspector
        self.path = adapter.file.path
        self.original = self.path.read_text()

    @property
    def text(self) -> str:
        return self.path.read_text()

    @property
    def states(self) -> list[str]:
        return [path for path, _, _ in self.adapter.chart_machine.chart.walk()]


@pytest.fixture
def chart(tmp_path: Path) -> Iterator[Chart]:
    path = tmp_path / "platformer.yaml"
    shutil.copyfile(CHART, path)
    adapter = platformer(path)
    with served([adapter], lambda: adapter.chart_machine.tick(0.01)) as inspector:
        yield Chart(adapter, inspector)


@pytest.fixture
def page(browser: Any, chart: Chart) -> Iterator[Any]:
    from playwright.sync_api import expect

    page = browser.new_page()
    page.goto(chart.inspector.url)
    expect(card(page, MACHINE).locator(".editor-head h4")).to_have_text("platformer.yaml (yaml)")
    yield page
    page.close()


def select(page: Any, state: str) -> Any:
    """Click a state in the diagram; returns the panel that edits it."""
    from playwright.sync_api import expect

    grip(page, MACHINE, state).click()
    panel = card(page, MACHINE).locator(".selection")
    expect(panel.locator("h4").first).to_have_text(state)
    return panel


def test_a_state_is_renamed_by_clicking_it_and_typing(page: Any, chart: Chart) -> None:
    from playwright.sync_api import expect

    panel = select(page, "Hero.Arms.Aiming")
    panel.locator('input[data-field="name"]').fill("Aim")
    panel.locator("button.rename").click()

    expect(node(page, MACHINE, "Hero.Arms.Aim")).to_have_count(1)
    expect(node(page, MACHINE, "Hero.Arms.Aiming")).to_have_count(0)
    # The selection follows the state, the diagram and the file follow the rename.
    expect(panel.locator("h4").first).to_have_text("Hero.Arms.Aim")
    expect(card(page, MACHINE).locator(".edit-result p.ok")).to_have_text(
        "Saved and reloaded: kept 5, exited 0, entered 0"
    )
    assert "        - name: Aim\n" in chart.text
    assert "{on: {held: Aim}, to: Aim}" in chart.text
    assert chart.text.startswith("# A platformer hero")
    assert "Hero.Arms.Aim" in chart.states


def test_a_blank_name_is_said_next_to_its_field_and_sends_nothing(page: Any, chart: Chart) -> None:
    from playwright.sync_api import expect

    panel = select(page, "Hero.Arms.Aiming")
    panel.locator('input[data-field="name"]').fill("   ")
    panel.locator("button.rename").click()
    expect(panel.locator(".field-message .problem").first).to_have_text("a state needs a name")
    panel.locator("button.add-child").click()
    expect(panel.locator(".field-message .problem").last).to_have_text("type the new child's name")
    assert chart.text == chart.original


def test_children_are_added_reordered_and_deleted_and_undone(page: Any, chart: Chart) -> None:
    from playwright.sync_api import expect

    panel = select(page, "Hero.Arms")
    panel.locator('input[data-field="add-child"]').fill("Blocking")
    panel.locator("button.add-child").click()
    expect(node(page, MACHINE, "Hero.Arms.Blocking")).to_have_count(1)
    expect(panel.locator("h4").first).to_have_text("Hero.Arms.Blocking")
    assert "        - name: Blocking\n" in chart.text

    panel = select(page, "Hero.Arms")
    panel.locator('.child[data-child="Relaxed"] button', has_text="\u2193").click()
    expect(panel.locator(".child").first).to_have_attribute("data-child", "Aiming")
    assert chart.states[6:8] == ["Hero.Arms.Aiming", "Hero.Arms.Relaxed"]

    panel = select(page, "Hero.Arms.Slashing")
    panel.locator("button.delete-state").click()
    expect(node(page, MACHINE, "Hero.Arms.Slashing")).to_have_count(0)
    assert "Slashing" not in chart.text  # the transition to it went with it

    editor = card(page, MACHINE).locator(".editor")
    head = editor.locator(".editor-head")
    expect(head).to_have_attribute("data-undo", "3")
    for left in ("2", "1", "0"):
        editor.locator("button.undo").click()
        expect(head).to_have_attribute("data-undo", left)
    expect(editor.locator(".edit-result p.ok")).to_contain_text("Undone and reloaded")
    expect(node(page, MACHINE, "Hero.Arms.Slashing")).to_have_count(1)
    assert chart.text == chart.original  # to the byte: comments and layout
    expect(editor.locator("button.undo")).to_be_disabled()

    editor.locator("button.redo").click()
    expect(head).to_have_attribute("data-undo", "1")  # saved: the reply came
    expect(node(page, MACHINE, "Hero.Arms.Blocking")).to_have_count(1)
    assert "        - name: Blocking\n" in chart.text


def test_ctrl_z_undoes_and_ctrl_shift_z_redoes_after_clicking_a_state(
    page: Any, chart: Chart
) -> None:
    """Clicking a state leaves the focus on the page, and an edit redraws the form: the
    shortcuts go to the editor last used all the same."""
    from playwright.sync_api import expect

    panel = select(page, "Hero.Arms.Aiming")
    panel.locator('input[data-field="name"]').fill("Aim")
    panel.locator("button.rename").click()
    expect(node(page, MACHINE, "Hero.Arms.Aim")).to_have_count(1)
    head = card(page, MACHINE).locator(".editor .editor-head")
    expect(head).to_have_attribute("data-undo", "1")

    select(page, "Hero.Arms.Aim")
    assert page.evaluate("document.activeElement === document.body")
    page.keyboard.press("Control+z")
    expect(head).to_have_attribute("data-undo", "0")
    assert chart.text == chart.original
    page.keyboard.press("Control+Shift+z")  # the redrawn form took the focus away again
    expect(head).to_have_attribute("data-undo", "1")
    assert "        - name: Aim\n" in chart.text


def test_a_transition_is_drawn_by_dragging_from_state_to_state(page: Any, chart: Chart) -> None:
    from playwright.sync_api import expect

    node(page, MACHINE, "Hero.Arms.Slashing").drag_to(node(page, MACHINE, "Hero.Arms.Aiming"))
    form = card(page, MACHINE).locator(".connect")
    expect(form.locator("h4")).to_have_text("New transition Slashing \u2192 Aiming")
    form.locator("select.kind").select_option("held")
    form.locator("input.trigger-name").fill("Aim")
    form.locator("button.add-transition").click()

    expect(form).to_have_count(0)
    assert (
        "            - {on: {anim_finished: Slash}, to: Relaxed}\n"
        "            - {on: {held: Aim}, to: Aiming}\n"
    ) in chart.text
    slashing = chart.adapter.chart_machine.chart.find("Hero.Arms.Slashing")
    assert slashing is not None
    assert [t.to for t in slashing.transitions] == ["Relaxed", "Aiming"]
    # The diagram draws it, labelled with its trigger.
    drawn = card(page, MACHINE).locator('g.edge[data-link="Hero.Arms.Slashing->Hero.Arms.Aiming"]')
    expect(drawn.locator("text")).to_have_text("held: Aim")


def test_a_transition_between_non_siblings_is_explained(page: Any, chart: Chart) -> None:
    from playwright.sync_api import expect

    node(page, MACHINE, "Hero.Arms.Slashing").drag_to(node(page, MACHINE, "Hero.Legs.Jumping"))

    expect(page.locator("#notices .notice .text")).to_have_text(
        "A transition goes to a sibling: Jumping is not a sibling of Slashing (drag between "
        "two children of one state)."
    )
    assert chart.text == chart.original


def test_actions_are_edited_with_typed_controls(page: Any, chart: Chart) -> None:
    from playwright.sync_api import expect

    panel = select(page, "Hero.Legs.Running")
    enter = panel.locator('fieldset[data-section="enter"]')
    loop = enter.locator('input[data-param="loop"]')
    expect(loop).to_have_attribute("type", "checkbox")
    expect(loop).to_be_checked()
    value = enter.locator('input[data-param="value"]')
    expect(value).to_have_attribute("type", "number")
    expect(value).to_have_attribute("min", "0")
    expect(value).to_have_value("1")
    layer = enter.locator('select[data-param="layer"]')  # a parameter with choices
    expect(layer.locator("option")).to_have_text(["(default: full)", "full", "legs", "arms"])
    expect(layer).to_have_value('"legs"')
    expect(enter.locator("select.kind").first).to_have_value("play_animation")

    loop.uncheck()
    layer.select_option(label="arms")
    value.fill("-1")
    expect(enter.locator(".field-message .problem")).to_have_text(
        "line 22: set_speed: 'value' must be at least 0, got -1"
    )
    value.fill("2.5")
    expect(enter.locator(".field-message")).to_have_text("\u2713 the chart loads")
    enter.locator("button.apply").click()

    expect(card(page, MACHINE).locator(".edit-result p.ok")).to_contain_text("Saved")
    assert (
        "          enter:\n"
        "            - play_animation: {name: Run, layer: arms, loop: false}\n"
        "            - set_speed: {value: 2.5}\n"
    ) in chart.text
    running = chart.adapter.chart_machine.chart.find("Hero.Legs.Running")
    assert running is not None
    assert [str(action) for action in running.enter] == [
        "play_animation(name='Run', layer='arms', loop=False)",
        "set_speed(value=2.5)",
    ]


def test_a_bad_edit_gets_the_loaders_message_next_to_the_field(page: Any, chart: Chart) -> None:
    from playwright.sync_api import expect

    panel = select(page, "Hero.Legs.Running")
    pre = panel.locator('fieldset[data-section="pre"]')
    pre.locator("select.kind").select_option("timer")
    pre.locator("input.trigger-name").fill("Nap")

    # Checked as typed, with the loader's own words, next to the field: nothing is saved.
    message = pre.locator(".field-message .problem")
    expect(message).to_have_text(
        "line 19: no start_timer action starts a timer named 'Nap' (timers started: Reload)"
    )
    pre.locator("button.apply").click()
    expect(message).to_have_count(1)
    expect(pre.locator(".field-message")).not_to_contain_text("saving")
    assert chart.text == chart.original
    expect(page.locator("#notices .notice")).to_have_count(0)


# What the form of each state offers, as the chart's rule says (Hero is concurrent, Legs a
# priority state whose last child is its ground state, Arms explicit): whether its policy
# can be chosen, and its sections.
OFFERS = {
    "Hero": (True, ["children", "enter", "exit"]),
    "Hero.Legs": (True, ["children", "enter", "exit"]),
    "Hero.Legs.Jumping": (False, ["children", "pre", "post", "enter", "exit"]),
    "Hero.Legs.Standing": (False, ["children", "enter", "exit"]),
    "Hero.Arms.Aiming": (False, ["children", "enter", "exit", "transitions"]),
}


@pytest.mark.parametrize("state", list(OFFERS))
def test_each_state_is_offered_only_what_the_loader_accepts_there(
    page: Any, chart: Chart, state: str
) -> None:
    from playwright.sync_api import expect

    policy, sections = OFFERS[state]
    form = select(page, state).locator(".state-form")
    expect(form.locator("fieldset.section")).to_have_count(len(sections))
    shown = form.locator("fieldset.section").evaluate_all(
        "sets => sets.map(set => set.dataset.section || set.classList[1])"
    )
    assert shown == sections
    chooser = form.locator('select[data-field="policy"]')
    if policy:  # the policies the library defines, as the server sends them
        expect(chooser).to_be_enabled()
        options = chooser.locator("option").evaluate_all(
            "options => options.map(option => [option.value, option.title])"
        )
        assert options == [
            ["", ""],
            *([p, found.summary] for p, found in DEFINITIONS.items()),
        ]
    else:  # a leaf: a policy would choose among children it does not have
        expect(chooser).to_be_disabled()
        expect(chooser).to_have_value("")
    expect(form.locator("p.placement")).not_to_be_empty()


def test_the_text_is_edited_checked_and_saved(page: Any, chart: Chart) -> None:
    from playwright.sync_api import expect

    editor = card(page, MACHINE).locator(".editor")
    editor.locator("details.text-editor summary").click()
    text = editor.locator("textarea.source")
    text.fill(chart.original.replace("name: Platformer", "name: Platformer!"))
    expect(editor.locator(".text-editor .field-message .problem")).to_contain_text("line 4:")

    text.fill(chart.original.replace("# the ground state", "# the ground: no pre"))
    expect(editor.locator(".text-editor .field-message")).to_have_text("\u2713 the chart loads")
    editor.locator(".text-editor button.primary").click()

    expect(editor.locator(".edit-result p.ok")).to_contain_text("Saved")
    assert "- name: Standing                  # the ground: no pre\n" in chart.text


def rename_legs(page: Any) -> Any:
    """Rename Hero.Legs to Lower through its panel; the panel, showing Hero.Lower."""
    from playwright.sync_api import expect

    panel = select(page, "Hero.Legs")
    panel.locator('input[data-field="name"]').fill("Lower")
    panel.locator("button.rename").click()
    expect(panel.locator("h4").first).to_have_text("Hero.Lower")
    return panel


def test_undoing_a_rename_clears_the_selection_of_the_name_it_took_back(
    page: Any, chart: Chart
) -> None:
    from playwright.sync_api import expect

    panel = rename_legs(page)
    head = card(page, MACHINE).locator(".editor .editor-head")
    expect(head).to_have_attribute("data-undo", "1")

    card(page, MACHINE).locator(".editor button.undo").click()

    expect(head).to_have_attribute("data-undo", "0")
    expect(node(page, MACHINE, "Hero.Legs")).to_have_count(1)
    # Hero.Lower is gone: nothing is selected, so no breakpoint can be asked on it.
    expect(panel).to_be_hidden()
    expect(panel.locator("*")).to_have_count(0)
    expect(card(page, MACHINE).locator(".st-selected")).to_have_count(0)
    assert chart.text == chart.original
    assert page.locator("#notices .notice").count() == 0


def test_after_an_undo_the_selected_state_stays_selected_if_it_is_still_there(
    page: Any, chart: Chart
) -> None:
    from playwright.sync_api import expect

    rename_legs(page)
    panel = select(page, "Hero.Arms.Aiming")

    card(page, MACHINE).locator(".editor button.undo").click()

    expect(node(page, MACHINE, "Hero.Legs")).to_have_count(1)
    expect(card(page, MACHINE).locator(".editor .editor-head")).to_have_attribute("data-undo", "0")
    expect(panel.locator("h4").first).to_have_text("Hero.Arms.Aiming")
    expect(panel.locator(".state-form")).to_have_attribute("data-path", "Hero.Arms.Aiming")
    # Its breakpoints are those of the state the machine has.
    panel.locator('input[data-break="enter"]').check()
    hub = chart.inspector.hub
    wait_until(
        lambda: hub.breakpoints(MACHINE) == [("enter", "Hero.Arms.Aiming")], "the breakpoint"
    )
    assert page.locator("#notices .notice").count() == 0


def test_a_text_over_the_message_limit_is_refused_next_to_the_field(
    page: Any, chart: Chart
) -> None:
    from playwright.sync_api import expect

    editor = card(page, MACHINE).locator(".editor")
    editor.locator("details.text-editor summary").click()
    editor.locator("textarea.source").fill(chart.original + "# " + "x" * 70000 + "\n")
    editor.locator(".text-editor button.primary").click()

    # The page does not send what the server would refuse unread: it says so next to the
    # field that would have sent it (not in a notice, with the request left waiting).
    expect(editor.locator(".text-editor .field-message .problem")).to_have_text(
        re.compile(
            r"the chart's text is too long to send: 7\d{4} bytes with its request, the "
            r"inspector takes 65536; edit a chart this large in its file"
        )
    )
    assert page.locator("#notices .notice").count() == 0
    assert chart.text == chart.original


def test_a_number_field_sends_what_was_typed_for_the_loader_to_judge(page: Any) -> None:
    # A whole-number field given 1.5 is not rounded to 1, nor 1e999 sent as null: the
    # loader refuses them with its own message, and nothing is saved.
    read = page.evaluate(
        """import("/static/controls.js").then(({ numberOf }) =>
             ["1.5", "2e3", "1e999", "-0", "x"].map((text) => numberOf(text)))"""
    )
    assert read == [1.5, 2000, "1e999", 0, "x"]
