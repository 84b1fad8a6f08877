"""The window's code as feature packages: which package may import which (docs/dev/architecture.md says why).

Read from the source (``tests/test_import_cycles.py``'s graph, lazy imports and
module names given as strings included), so a view that reaches into another
feature fails here, not in a review.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_import_cycles import ROOT, import_graph

GUI = ROOT / "explorer" / "gui"
# package -> the other explorer.gui packages it may import
ALLOWED = {
    "common": set(),
    "workspace": {"common"},
    "explore": {"common", "workspace"},
    "occupancy": {"common"},
    "gemm": {"common"},
    "measure": {"common"},
    "kernel": {"common"},
    "lessons": {"common"},
    "files": {"common"},
    "compare": {"common", "explore", "workspace"},
    "sass": {"common"},
    "headless": {"common", "explore", "files", "shell", "workspace"},
    "shell": {"common", "workspace", "explore", "occupancy", "gemm", "measure", "kernel", "lessons", "files", "compare", "sass"},
}


def packages() -> set[str]:
    return {p.parent.name for p in GUI.glob("*/__init__.py")}


def test_every_package_has_rules_a_readme_line_and_a_test_folder():
    assert packages() == set(ALLOWED)
    readme = (GUI.parents[1] / "docs" / "dev" / "architecture.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(\w+)/` \|", readme, re.MULTILINE))
    assert listed == set(ALLOWED)
    tests = Path(__file__).resolve().parent
    assert {p.parent.name for p in tests.glob("*/__init__.py")} == set(ALLOWED)


def test_at_most_twelve_modules_directly_in_explorer_gui():
    assert len([p for p in GUI.glob("*.py") if p.name != "__init__.py"]) <= 12


def test_packages_import_only_what_they_may():
    wrong = []
    for module, imported in import_graph().items():
        parts = module.split(".")
        if parts[:2] != ["explorer", "gui"] or len(parts) < 4:
            continue
        package = parts[2]
        for target in imported:
            tparts = target.split(".")
            if tparts[:2] == ["explorer", "gui"] and len(tparts) >= 3:
                other = tparts[2]
                if other != package and other not in ALLOWED[package]:
                    wrong.append(f"{module} imports {target}")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_core_never_imports_the_window():
    wrong = [f"{module} imports {target}" for module, imported in import_graph().items()
             if not module.startswith("explorer.gui") and module not in ("explorer.cli.main", "explorer.cli.commands",
                                                                          "explorer.cli.cmd_render",
                                                                          "explorer.cli.cmd_render_slides")
             for target in imported if target.startswith("explorer.gui")]
    assert not wrong, "\n".join(sorted(wrong))
