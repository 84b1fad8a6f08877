"""The package list in pyproject.toml covers every package, and a wheel carries the resources."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_is_listed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "explorer").rglob("__init__.py")
        if "__pycache__" not in p.parts
    }
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"


def test_readme_and_ci_run_the_same_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    ci_command = [line for line in ci.splitlines() if "pytest" in line and not line.lstrip().startswith("#")]
    assert len(ci_command) == 1
    assert ci_command[0].strip() in readme
