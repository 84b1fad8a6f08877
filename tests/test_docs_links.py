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


def test_the_feature_table_names_files_that_exist():
    """docs/dev/architecture.md "Where a feature lives": every path it names (under explorer/, or from the
    repository's root: resources/, scripts/, setup.py) exists; ``*`` globs match something."""
    text = (ROOT / "docs" / "dev" / "architecture.md").read_text(encoding="utf-8")
    table = text[text.index("## Where a feature lives"):].split("\n\n")[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| you want")]
    assert len(rows) >= 15
    missing = []
    for row in rows:
        for name in re.findall(r"`([^`]+)`", row.split(" | ", 1)[1]):
            if not re.fullmatch(r"[\w./*-]+", name) or "/" not in name:
                continue  # a symbol (``interp.OP_CLASS``), a command (``render --scale``), a module named beside
                # its package's path in the same row (``unit_strip.py``)
            if not any(list(base.glob(name)) if "*" in name else (base / name).exists()
                       for base in (ROOT / "explorer", ROOT)):
                missing.append(name)
    assert not missing, missing
