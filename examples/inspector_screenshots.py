"""Take the inspector screenshots of the documentation (``docs/images/inspector-*.png``).

Run ``python examples/inspector_screenshots.py``. It serves the demo world of
``examples/inspector_demo.py``, opens the page in headless Chromium (the system's
``chromium``, driven by Playwright), plays a fixed number of frames so that every picture
shows the same states, and writes the pictures. Needs the ``inspect`` extra, Playwright
and Chromium (``apt-get install chromium`` on Debian or Ubuntu).
"""

from __future__ import annotations

import argparse
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


def _take_pictures(page: Any, output: Path) -> list[Path]:
    from playwright.sync_api import expect

    overview, bitmask, timeline, chart = (
        output / f"inspector-{name}.png" for name in ("overview", "bitmask", "timeline", "chart")
    )
    expect(page.locator("#frame")).to_have_text(str(FRAMES))
    page.click('article[data-machine="Player_1"] tr[data-state="Shooting"]')
    page.wait_for_selector('article[data-machine="Player_1"] .explain:not([hidden])')
    page.locator("#cards").evaluate("cards => cards.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    page.screenshot(path=str(overview))
    page.locator('article[data-machine="Player_1"]').screenshot(path=str(bitmask))
    page.fill("#timeline-search", "Torch")
    page.wait_for_timeout(200)
    page.locator("#timeline").screenshot(path=str(timeline))
    _edit_chart(page, chart)
    return [overview, bitmask, timeline, chart]


def _edit_chart(page: Any, path: Path) -> None:
    """Rename a state of the platformer chart from the page, and picture the result."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": VIEWPORT["width"], "height": 2000})  # the whole card
    card = page.locator('article[data-machine="Platformer"]')
    card.locator("select.state-chooser").select_option("Hero.Arms.Aiming")
    card.locator('input[data-field="rename to"]').fill("Aim")
    card.locator('input[data-field="rename to"] + button').click()
    expect(card.locator(".edit-result p.ok")).to_be_visible()
    expect(card.locator('svg g.node[data-state="Hero.Arms.Aim"]')).to_have_count(1)
    card.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    card.screenshot(path=str(path))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=IMAGES, help="where to write them")
    args = parser.parse_args()
    args.output.mkdir(parents=True, exist_ok=True)
    for path in take(args.output):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
