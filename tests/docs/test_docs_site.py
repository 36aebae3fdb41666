"""The documentation site builds with ``mkdocs build --strict``, and a broken link fails it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

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


def test_the_site_builds_strictly_with_the_api_reference(tmp_path: Path) -> None:
    done = mkdocs_build(ROOT / "mkdocs.yml", tmp_path / "site")

    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr
    reference = (tmp_path / "site" / "reference" / "core" / "index.html").read_text()
    assert 'id="statetree.StateMachine"' in reference  # generated from the docstrings
    assert (
        'id="statetree.plot.build_diagram"'
        in (tmp_path / "site" / "reference" / "plot" / "index.html").read_text()
    )
    changelog = (tmp_path / "site" / "changelog" / "index.html").read_text()
    assert "The first release." in changelog


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
    config.update(nav=["index.md", "other.md"], plugins=["search"], repo_url=None)
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
