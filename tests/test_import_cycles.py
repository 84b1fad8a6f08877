"""No import cycle anywhere in explorer/, lazy (function-level) imports included, and the floors hold.

The graph is read from the source with ``ast``, not from ``sys.modules``: every
``import`` and ``from ... import`` statement wherever it stands (module level, in a
function, under ``if TYPE_CHECKING``), relative imports resolved, and module names
given as string constants (the window's ``FEATURES`` and the CLI's command list,
imported with ``importlib``). Importing ``a.b.c`` imports the packages ``a`` and
``a.b`` as well; a module's own parent packages are not counted (a package always
runs before its modules). A cycle is a strongly connected set of two or more modules.

The same graph with every module collapsed to its package (``package_graph``) has no
cycle either, and every package sits on a floor of ``FLOORS`` and imports only its
own floor and the floors below (docs/dev/architecture.md, "The floors").
"""

from __future__ import annotations

import ast
import re
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


# The floors, bottom to top: a package may import the packages of its own floor and of the floors below it,
# never one above (docs/dev/architecture.md, "The floors", lists the same table). ``explorer.gui`` is one
# package here (tests/gui/test_layout.py rules inside it); a top-level module is a package of its own.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("explorer", "explorer.texts"),  # the package itself: __version__
    ("explorer.paths", "explorer.timeline"),
    ("explorer.model",),
    ("explorer.occupancy", "explorer.jit"),
    ("explorer.gemm", "explorer.toolchain"),
    ("explorer.sass",),
    ("explorer.sass.execute",),
    ("explorer.sim",),
    ("explorer.gpu",),
    ("explorer.gui",),
    ("explorer.cli",),
    ("explorer.startup", "explorer.__main__"),
)
OWN_PACKAGES = ("explorer.sass.execute",)  # a subpackage that is a package of its own in the package graph


def package_of(module: str) -> str:
    """``explorer.sim.engine`` -> ``explorer.sim``; ``explorer.gui.shell.app`` -> ``explorer.gui``."""
    for own in OWN_PACKAGES:
        if module == own or module.startswith(own + "."):
            return own
    return ".".join(module.split(".")[:2])


def package_edges(graph: dict[str, set[str]]) -> dict[tuple[str, str], list[str]]:
    """(package, package it imports) -> the module imports that make the edge, "a.b -> c.d", sorted. A parent
    package a module imports only as the parent of another import is named only where it alone makes the edge."""
    named: dict[tuple[str, str], list[str]] = {}
    implied: dict[tuple[str, str], list[str]] = {}
    for module in sorted(graph):
        for target in sorted(graph[module]):
            a, b = package_of(module), package_of(target)
            if a != b:
                parent = any(other.startswith(target + ".") for other in graph[module])
                (implied if parent else named).setdefault((a, b), []).append(f"{module} -> {target}")
    return {edge: named.get(edge) or implied[edge] for edge in sorted(named.keys() | implied.keys())}


def package_graph(graph: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Package -> the packages it imports (lazy imports included, as in ``import_graph``)."""
    graph = import_graph() if graph is None else graph
    packages: dict[str, set[str]] = {package_of(module): set() for module in graph}
    for a, b in package_edges(graph):
        packages[a].add(b)
    return packages


def package_cycle_report(graph: dict[str, set[str]]) -> list[str]:
    """Per package cycle, one paragraph: the packages, then each edge inside it with its module imports."""
    edges = package_edges(graph)
    report = []
    for cycle in cycles(package_graph(graph)):
        inside = [f"  {a} -> {b}: {'; '.join(imports)}" for (a, b), imports in sorted(edges.items())
                  if a in cycle and b in cycle]
        report.append("\n".join([f"{', '.join(cycle)} import each other:", *inside]))
    return report


def layering_violations(graph: dict[str, set[str]]) -> list[str]:
    """Every package that is on no floor, and every import of a package on a higher floor, one line each."""
    floor = {package: n for n, packages in enumerate(FLOORS) for package in packages}
    wrong = [f"{package} is on no floor: add it to FLOORS (and to docs/dev/architecture.md)"
             for package in sorted(package_graph(graph)) if package not in floor]
    for (a, b), imports in sorted(package_edges(graph).items()):
        if a in floor and b in floor and floor[b] > floor[a]:
            wrong.append(f"{a} (floor {floor[a]}) imports {b} (floor {floor[b]}): {'; '.join(imports)}")
    return wrong


def test_explorer_has_no_package_cycle():
    graph = import_graph()
    assert len(package_graph(graph)) >= sum(map(len, FLOORS))
    report = package_cycle_report(graph)
    assert not report, "break these package cycles (a lazy import counts too):\n" + "\n".join(report)


def test_every_package_imports_only_its_floor_and_below():
    graph = import_graph()
    missing = sorted(p for packages in FLOORS for p in packages if p not in package_graph(graph))
    assert not missing, f"FLOORS names packages that are not there: {missing}"
    wrong = layering_violations(graph)
    assert not wrong, "imports up the floors (move the code down, or the importer up):\n" + "\n".join(wrong)


def test_an_upward_import_and_the_old_atomic_cycle_would_be_found():
    """A lazy import of the window in the simulator, and explorer.atomic as it was (it imported model.errors,
    model.scenario imported it): the package cycle, the unknown package and the upward edge are named."""
    graph = {module: set(targets) for module, targets in import_graph().items()}
    assert layering_violations(graph) == [] and package_cycle_report(graph) == []
    graph["explorer.sim.engine"].add("explorer.gui.shell.app")
    graph["explorer.atomic"] = {"explorer.model", "explorer.model.errors"}
    graph["explorer.model.scenario"].add("explorer.atomic")
    wrong = layering_violations(graph)
    assert "explorer.atomic is on no floor: add it to FLOORS (and to docs/dev/architecture.md)" in wrong
    assert any(line.startswith("explorer.sim (floor 7) imports explorer.gui (floor 9): ")
               and "explorer.sim.engine -> explorer.gui.shell.app" in line for line in wrong), wrong
    report = package_cycle_report(graph)
    assert "explorer.atomic, explorer.model import each other:\n  explorer.atomic -> explorer.model: " \
           "explorer.atomic -> explorer.model.errors\n  explorer.model -> explorer.atomic: " \
           "explorer.model.scenario -> explorer.atomic" in report
    assert any(cycle.startswith("explorer.gpu, explorer.gui, explorer.sim import each other:\n")
               and "\n  explorer.sim -> explorer.gui: explorer.sim.engine -> explorer.gui.shell.app" in cycle
               for cycle in report), report


def test_the_architecture_page_lists_the_same_floors():
    """docs/dev/architecture.md's floor table: each package on the row of its floor, as a path."""
    page = (ROOT / "docs" / "dev" / "architecture.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (\d+) \| (.*)$", page, re.MULTILINE))
    wrong = []
    for n, packages in enumerate(FLOORS):
        for package in packages:
            path = package.replace(".", "/")
            path = f"`{path}/__init__.py`" if package == "explorer" else f"`{path}`" if (ROOT / path).is_dir() \
                else f"`{path}.py`"
            if path not in rows.get(str(n), "").split(" | ")[0]:
                wrong.append(f"floor {n}: {path}")
    assert not wrong, "docs/dev/architecture.md's floor table lacks:\n" + "\n".join(wrong)
