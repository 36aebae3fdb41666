"""The documentation site builds with ``mkdocs build --strict``, and a broken link fails it;
opened from disk, with no network, its links and its search work."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
import yaml
from inspector_screenshots import chromium_path

ROOT = Path(__file__).resolve().parents[2]


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=config.parent,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's site, built once for this module's tests."""
    folder = tmp_path_factory.mktemp("docs") / "site"
    done = mkdocs_build(ROOT / "mkdocs.yml", folder)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr
    return folder


def test_the_site_builds_strictly_with_the_api_reference(site: Path) -> None:
    reference = (site / "reference" / "core.html").read_text()
    assert 'id="statetree.StateMachine"' in reference  # generated from the docstrings
    assert 'id="statetree.plot.build_diagram"' in (site / "reference" / "plot.html").read_text()
    assert "The first release." in (site / "changelog.html").read_text()


def test_the_reference_shows_the_docstrings_cross_references_as_code(site: Path) -> None:
    structure = (site / "reference" / "structure.html").read_text()
    assert "<code>Structure</code>" in structure  # :class:`Structure`, read as code
    pages = sorted((site / "reference").glob("*.html"))
    roles = [p.name for p in pages if re.search(r":(class|meth|func|mod):<code>", p.read_text())]
    assert roles == []
    assert not [p.name for p in pages if ".. code-block::" in p.read_text()]


# Where a page may point at another site: its links, never what it loads.
LOADED = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=\"(https?:)?//", re.I)


def test_no_page_loads_anything_from_another_site(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 30
    loading = [str(page.relative_to(site)) for page in pages if LOADED.search(page.read_text())]
    assert loading == []
    assert "fonts.googleapis.com" not in (site / "index.html").read_text()


@pytest.mark.skipif(chromium_path() is None, reason="Chromium is not installed")
@pytest.mark.skipif(find_spec("playwright") is None, reason="Playwright is not installed")
def test_opened_from_disk_links_and_search_work_without_the_network(site: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path())
        try:
            page = browser.new_page()
            elsewhere: list[str] = []
            page.on(
                "request",
                lambda request: (
                    elsewhere.append(request.url)
                    if not request.url.startswith(("file:", "data:", "blob:", "about:"))
                    else None
                ),
            )
            page.goto((site / "index.html").as_uri())
            page.locator("a.md-nav__link[href='getting-started.html']").first.click()
            expect(page).to_have_url((site / "getting-started.html").as_uri())
            expect(page.locator("h1")).to_contain_text("Getting started")

            page.locator("input.md-search__input").click(force=True)
            page.keyboard.type("ChartBatch")
            results = page.locator(".md-search-result__item")
            expect(results.first).to_be_visible()
            expect(page.locator(".md-search-result__meta")).to_contain_text("matching document")
            results.first.locator("a").first.click()
            assert page.url.startswith("file://") and ".html" in page.url
            assert elsewhere == []
        finally:
            browser.close()


def test_every_page_is_in_the_navigation() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    listed: set[str] = set()

    def collect(items: object) -> None:
        if isinstance(items, list):
            for item in items:
                collect(item)
        elif isinstance(items, dict):
            for value in items.values():
                collect(value)
        elif isinstance(items, str):
            listed.add(items)

    collect(config["nav"])
    pages = {str(page.relative_to(ROOT / "docs")) for page in (ROOT / "docs").rglob("*.md")}
    assert pages == listed


def test_a_broken_link_or_anchor_fails_the_build(tmp_path: Path) -> None:
    # The project's own settings, on a two-page site whose links are wrong.
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    config.update(nav=["index.md", "other.md"], plugins=["search"], repo_url=None, hooks=[])
    config["markdown_extensions"] = [
        ext for ext in config["markdown_extensions"] if "pymdownx.snippets" not in str(ext)
    ]
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nSee [the guide](guide.md).\n")
    (tmp_path / "docs" / "other.md").write_text("# Other\n\nSee [home](index.md#nowhere).\n")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))

    done = mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site")

    assert done.returncode != 0
    assert "'guide.md', but the target is not found" in done.stderr
    assert "'index.md#nowhere', but the doc 'index.md' does not contain an anchor" in done.stderr
