"""The manual's pages link to files that exist (README.md is the front page, docs/ the rest: issue 32 item 5)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_relative_link_points_at_a_file():
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not broken, broken


def test_the_front_page_is_short_and_names_every_page():
    front = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(front.splitlines()) < 400
    for page in sorted((ROOT / "docs").rglob("*.md")):
        assert str(page.relative_to(ROOT)) in front, page
