"""Take the inspector screenshots of the documentation (``docs/images/inspector-*.png``).

Run ``python examples/inspector_screenshots.py``. It serves the demo world of
``examples/inspector_demo.py``, opens the page in headless Chromium (the system's
``chromium``, driven by Playwright), plays a fixed number of frames so that every picture
shows the same states, and writes the pictures. Needs the ``inspect`` extra, Playwright
and Chromium (``apt-get install chromium`` on Debian or Ubuntu).
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from inspector_demo import DemoWorld

from statetree.inspect import Inspector, serve

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
FRAMES = 150
VIEWPORT = {"width": 1500, "height": 1000}

CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
"""Chromium's options: no sandbox (containers), no network of its own, no first-run pages."""


def chromium_path() -> str | None:
    """The system's Chromium, if it is installed."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@contextmanager
def chromium(viewport: dict[str, int] = VIEWPORT) -> Iterator[Any]:
    """A Playwright browser context on the system's Chromium, with a fresh profile.

    Raises:
        RuntimeError: Chromium is not installed.
    """
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise RuntimeError("Chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=executable,
            headless=True,
            args=list(CHROMIUM_ARGS),
            viewport=viewport,
        )
        try:
            yield context
        finally:
            context.close()


def play(world: DemoWorld, inspector: Inspector, frames: int, stop: threading.Event) -> None:
    """Run ``frames`` frames of ``world`` as fast as the inspector allows, then pause (as
    the page's Pause button does) and keep asking, as a game loop would, until ``stop``:
    the pictures then always show the same frame, and edits from the page still apply."""
    while not stop.is_set():
        if inspector.frame():
            world.tick(1 / 30)
            if world.frame == frames:
                inspector.hub.gate.pause(True)
        else:
            stop.wait(0.01)


def take(output: Path) -> list[Path]:
    """Serve the demo, play it, and write the screenshots into ``output``."""
    with tempfile.TemporaryDirectory() as charts, chromium() as context:
        world = DemoWorld(npcs=40, chart=Path(charts) / "platformer.yaml")
        return _pictures(world, context, output)


def _pictures(world: DemoWorld, context: Any, output: Path) -> list[Path]:
    """Open the page, play the world, then take each picture."""
    with serve(world.machines(), port=0) as inspector:
        world.attach(inspector)
        page = context.new_page()
        page.goto(inspector.url)
        page.wait_for_selector('article[data-machine="Hero"] svg g.node')
        page.wait_for_selector('article[data-machine="Player_1"] table.flags')
        stop = threading.Event()
        player = threading.Thread(target=play, args=(world, inspector, FRAMES, stop))
        player.start()
        try:
            return _take_pictures(page, output)
        finally:
            stop.set()
            player.join()


PICTURES = ("overview", "bitmask", "timeline", "editor", "debugger", "population", "dark")
"""The pictures, each ``docs/images/inspector-NAME.png``."""


def _painted(page: Any) -> None:
    """Wait until the page has drawn what it was just given (two animation frames)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _take_pictures(page: Any, output: Path) -> list[Path]:
    from playwright.sync_api import expect

    paths = {name: output / f"inspector-{name}.png" for name in PICTURES}
    expect(page.locator("#frame")).to_have_text(str(FRAMES))
    page.click('article[data-machine="Player_1"] tr[data-state="Shooting"]')
    page.wait_for_selector('article[data-machine="Player_1"] .explain:not([hidden])')
    page.locator("#cards").evaluate("cards => cards.scrollTo(0, 0)")
    _painted(page)
    page.screenshot(path=str(paths["overview"]))
    page.emulate_media(color_scheme="dark")
    platformer = page.locator('article[data-machine="Platformer"]')
    platformer.evaluate("card => card.scrollIntoView({block: 'start'})")  # its statechart
    _painted(page)
    page.screenshot(path=str(paths["dark"]))
    page.emulate_media(color_scheme="light")
    page.locator("#cards").evaluate("cards => cards.scrollTo(0, 0)")
    page.locator('article[data-machine="Player_1"]').screenshot(path=str(paths["bitmask"]))
    page.fill("#timeline-search", "Torch")
    expect(page.locator("#timeline-count")).to_contain_text(" of ")
    _painted(page)
    page.locator("#timeline").screenshot(path=str(paths["timeline"]))
    page.fill("#timeline-search", "")
    _edit_chart(page, paths["editor"])
    _debug_chart(page, paths["debugger"])
    _population(page, paths["population"])
    return list(paths.values())


def _population(page: Any, path: Path) -> None:
    """The crowd of 2,000 characters run as one chart batch, on the whole page."""
    from playwright.sync_api import expect

    with _expanded(page, "Crowd", 1250) as crowd:
        expect(crowd.locator(".population-total")).to_contain_text("2,000 agents")
        _painted(page)
        page.screenshot(path=str(path))


@contextmanager
def _expanded(page: Any, machine: str, height: int) -> Iterator[Any]:
    """A machine's card on the whole page, in a viewport ``height`` pixels high."""
    page.set_viewport_size({"width": VIEWPORT["width"], "height": height})
    card = page.locator(f'article[data-machine="{machine}"]')
    card.locator("button.expand").click()
    try:
        yield card
    finally:
        page.keyboard.press("Escape")
        page.set_viewport_size(VIEWPORT)


def _edit_chart(page: Any, path: Path) -> None:
    """Select a state of the platformer chart and begin a bad edit: the loader's message
    shows next to the field, nothing is saved."""
    from playwright.sync_api import expect

    with _expanded(page, "Platformer", 1000) as card:
        card.locator('svg g.node[data-state="Hero.Legs.Running"]').click()
        pre = card.locator('.selection fieldset[data-section="pre"]')
        pre.locator("select.kind").select_option("timer")
        pre.locator("input.trigger-name").fill("Nap")
        expect(pre.locator(".field-message .problem")).to_contain_text("no start_timer action")
        _painted(page)
        page.screenshot(path=str(path))


def _debug_chart(page: Any, path: Path) -> None:
    """Stop the world when the platformer hero starts slashing, and show that step."""
    from playwright.sync_api import expect

    card = page.locator('article[data-machine="Platformer"]')
    card.locator('svg g.node[data-state="Hero.Arms.Slashing"]').click()
    card.locator('.selection input[data-break="enter"]').check()
    expect(card.locator('svg g.node[data-state="Hero.Arms.Slashing"]')).to_have_class(
        re.compile(r"\bst-break\b")
    )
    page.click("#pause")  # resume: the hero's script attacks at frame 260
    expect(page.locator("#hit")).to_contain_text("Platformer entered Hero.Arms.Slashing")
    expect(card).to_have_class("card wide travelling")
    expect(card.locator(".travel table.values")).to_be_visible()
    card.evaluate("card => card.scrollIntoView()")
    _painted(page)
    page.screenshot(path=str(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=IMAGES, help="where to write them")
    args = parser.parse_args()
    args.output.mkdir(parents=True, exist_ok=True)
    for path in take(args.output):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
