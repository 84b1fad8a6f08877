"""No import cycle anywhere in explorer/, lazy (function-level) imports included.

The graph is read from the source with ``ast``, not from ``sys.modules``: every
``import`` and ``from ... import`` statement wherever it stands (module level, in a
function, under ``if TYPE_CHECKING``), relative imports resolved, and module names
given as string constants (the window's ``FEATURES`` and the CLI's command list,
imported with ``importlib``). Importing ``a.b.c`` imports the packages ``a`` and
``a.b`` as well; a module's own parent packages are not counted (a package always
runs before its modules). A cycle is a strongly connected set of two or more modules.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(root: Path, package: str = "explorer") -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package) for every .py under ``root/package``."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def import_graph(root: Path = ROOT, package: str = "explorer") -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (and their parent packages)."""
    mods = modules(root, package)

    def resolve(name: str) -> str | None:
        while name and name not in mods:  # "a.b.func" -> "a.b"
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in mods}
    for name, (path, is_package) in mods.items():
        own_package = name if is_package else name.rpartition(".")[0]
        targets: list[str] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = own_package.split(".")[: len(own_package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                targets += [f"{base}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in mods:
                targets.append(node.value)  # importlib.import_module("explorer.gui.measure.feature")
        for target in targets:
            found = resolve(target)
            while found:
                if found != name and not name.startswith(found + "."):
                    graph[name].add(found)
                found = found.rpartition(".")[0] or None
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph) + 100))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_explorer_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 100 and "explorer.gui.shell.main_window" in graph
    assert cycles(graph) == [], "break these cycles (a lazy import inside a function counts too)"


def test_the_finder_sees_lazy_relative_and_string_imports(tmp_path):
    """A planted cycle through a function-level import, a relative import and a module-name string."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    for init in (pkg / "__init__.py", pkg / "sub" / "__init__.py"):
        init.write_text("")
    (pkg / "a.py").write_text("def later():\n    from pkg.sub import b\n")
    (pkg / "sub" / "b.py").write_text("from ..c import thing\n")
    (pkg / "c.py").write_text("import importlib\nFEATURES = ['pkg.a']\nthing = 1\n")
    (pkg / "d.py").write_text("import pkg.c\n")  # imports into the cycle, is not part of it
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.a"] >= {"pkg.sub", "pkg.sub.b"} and "pkg.c" in graph["pkg.sub.b"]
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    (pkg / "c.py").write_text("thing = 1\n")
    assert cycles(import_graph(tmp_path, "pkg")) == []


def test_the_old_smoke_test_cycle_would_be_found():
    """app -> smoke -> render -> app, the cycle --smoke-test forwarding used to make."""
    graph = import_graph()
    graph["explorer.gui.shell.app"].add("explorer.gui.headless.smoke")
    assert ["explorer.gui.headless.render", "explorer.gui.headless.smoke", "explorer.gui.shell.app"] in cycles(graph)
