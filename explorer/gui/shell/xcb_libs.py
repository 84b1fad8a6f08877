"""Which system libraries Qt's xcb platform plugin really lacks, and the one apt command that installs them.

Why: when the xcb plugin cannot load, Qt (6.5+) says "xcb-cursor0 or libxcb-cursor0
is needed to load the Qt xcb platform plugin" whatever is missing; on a machine that
has libxcb-cursor0 but not libxcb-icccm4 or libxcb-keysyms1 that sends the user to
install what is already there. The dynamic loader knows better: ``ldd`` of the
plugin lists each library it cannot find ("=> not found"), as
``packaging/build.sh`` checks before it bundles. This module asks it (the plugin's
path is a plain argument, no shell) and names the Debian/Ubuntu packages by
Debian's library-package naming policy, which ``packaging/debdeps.py`` also uses.

Qt-free and side-effect free but for the one ``ldd`` call; the runner is a
parameter so tests give a fake ``ldd`` output.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Callable

LDD_TIMEOUT_S = 10
# libraries whose Debian package does not follow the policy name of its soname
PACKAGE_OF = {"libglib-2.0.so.0": "libglib2.0-0", "libgthread-2.0.so.0": "libglib2.0-0",
              "libgobject-2.0.so.0": "libglib2.0-0"}
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$")


def policy_name(soname: str) -> str:
    """Debian's package name for a library (libxcb-icccm.so.4 -> libxcb-icccm4, libxkbcommon-x11.so.0 ->
    libxkbcommon-x11-0): the name before ``.so`` in lower case, then the major version, with a hyphen
    between them when the name ends in a digit."""
    m = re.match(r"(.+)\.so\.(\d+)", soname)
    if not m:
        return soname
    base, major = m.group(1).lower().replace("_", "-"), m.group(2)
    return f"{base}-{major}" if base[-1].isdigit() else f"{base}{major}"


def package_of(soname: str) -> str:
    return PACKAGE_OF.get(soname, policy_name(soname))


def run_ldd(path: Path) -> str | None:
    """``ldd PATH``'s output, or None where ldd is absent or fails (the path is one plain argument)."""
    try:
        proc = subprocess.run(["ldd", str(path)], capture_output=True, text=True, timeout=LDD_TIMEOUT_S,
                              check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 or "not found" in proc.stdout else None


def not_found(ldd_output: str) -> list[str]:
    """The sonames ``ldd`` could not find, in its order, each once."""
    out: list[str] = []
    for line in ldd_output.splitlines():
        m = _NOT_FOUND.match(line)
        if m and m.group(1) not in out:
            out.append(m.group(1))
    return out


def missing_libraries(plugin: Path, runner: Callable[[Path], str | None] = run_ldd) -> list[str]:
    """The libraries ``plugin`` links that this machine cannot load ([] when all load or ldd cannot tell)."""
    if not Path(plugin).is_file():
        return []
    output = runner(Path(plugin))
    return not_found(output) if output else []


def missing_line(plugin: Path, runner: Callable[[Path], str | None] = run_ldd) -> str | None:
    """One line naming what the xcb plugin lacks and the apt command for it; None when nothing is missing."""
    missing = missing_libraries(plugin, runner)
    if not missing:
        return None
    packages = list(dict.fromkeys(package_of(s) for s in missing))
    return (f"warp-explorer: cannot open a window: Qt's xcb platform plugin cannot load "
            f"{', '.join(missing)} (ldd {plugin}); install {'it' if len(packages) == 1 else 'them'} with: "
            f"sudo apt-get install {' '.join(packages)}")
