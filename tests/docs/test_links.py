"""Links that must work outside the repository: the README on a package index, the site.

The README is shown where relative links break (a package index), so its links are absolute,
into the project's repository; the guide's links to files outside ``docs/`` are too. Every
such link must name a file or folder that exists here, on the branch it points to.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
SOURCE = PROJECT["urls"]["Source"]
LINK = re.compile(r"\]\(([^)\s]+)\)")
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]


def links(page: Path) -> list[str]:
    return LINK.findall(page.read_text(encoding="utf-8"))


def test_the_readme_has_no_relative_links() -> None:
    relative = [url for url in links(ROOT / "README.md") if "://" not in url]

    assert relative == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_links_into_the_repository_name_files_that_exist(page: Path) -> None:
    prefix = re.compile(re.escape(SOURCE) + r"/(?:blob|tree)/main/([^#?]*)")
    targets = [match[1] for url in links(page) if (match := prefix.match(url))]

    assert [target for target in targets if not (ROOT / target).exists()] == []


def test_the_project_urls_are_those_of_the_repository() -> None:
    urls = PROJECT["urls"]

    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    assert all(url.startswith(SOURCE) for url in urls.values())
    assert urls["Changelog"] == f"{SOURCE}/blob/main/CHANGELOG.md"
    assert (ROOT / "CHANGELOG.md").is_file()
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert PROJECT["license"] == "MIT"
