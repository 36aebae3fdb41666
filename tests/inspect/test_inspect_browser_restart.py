"""A page left open while its program restarts: it reconnects to the new program, keeps
watching what the new one still has, and forgets the steps and hits of the old one."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from browser_support import BROWSER, card, lit, served, wait_until
from inspect_samples import Lamp

pytestmark = BROWSER


def test_a_restarted_program_is_followed_without_what_it_no_longer_has(browser: Any) -> None:
    from playwright.sync_api import expect

    kept, gone = Lamp("Kept"), Lamp("Gone")

    def tick() -> None:
        kept.on, gone.on = not kept.on, not gone.on
        kept.tick()
        gone.tick()

    page = browser.new_page()
    try:
        with served([kept.machine, gone.machine], tick) as first:
            page.goto(first.url)
            page.wait_for_selector(lit("Kept", "LampStates.On"))
            page.wait_for_selector(lit("Gone", "LampStates.On"))
            wait_until(lambda: page.evaluate("inspector.timeline.rows.length") > 20, "steps")
            old = page.evaluate("inspector.page.program")
            port = urlsplit(first.url).port
        again = Lamp("Kept")
        from statetree.inspect import serve

        with serve([again.machine], port=port, rate=30) as second:
            again.tick()
            second.frame()
            wait_until(lambda: page.evaluate("inspector.page.program") != old, "reconnected")
            expect(card(page, "Gone")).to_have_count(0)
            expect(card(page, "Kept")).to_have_count(1)
            page.wait_for_selector(lit("Kept", "LampStates.Off"))
            assert page.evaluate("[...inspector.page.watched]") == ["Kept"]
            # The old program's steps are gone: the rows are the new one's only.
            machines = page.evaluate("inspector.timeline.rows.map((row) => row[2])")
            assert set(machines) <= {"Kept"} and len(machines) <= 2
            assert page.locator("#notices .notice").count() == 0
    finally:
        page.close()
