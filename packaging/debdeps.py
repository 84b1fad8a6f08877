"""What a bundle needs from the system, as Debian packages (a small dpkg-shlibdeps).

    python packaging/debdeps.py BUNDLE_DIR            -> "libc6 (>= 2.34), libegl1, libgl1, ..."
    python packaging/debdeps.py BUNDLE_DIR --missing  -> the sonames this machine cannot provide
    python packaging/debdeps.py BUNDLE_DIR --glibc    -> the oldest glibc the bundle runs on

Every ELF file's DT_NEEDED names that the bundle does not contain itself are looked
up with ``ldconfig -p`` and mapped to the package owning the file (``dpkg -S``).
PyInstaller deliberately leaves out libc, libGL/libEGL and libxcb; this lists them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # the checkout, where no explorer is installed
from elfdeps import is_elf, needed

from explorer.gui.shell.xcb_libs import policy_name  # Debian's library-package naming, shared with the start-up check

GLIBC_MIN = "2.34"  # the PySide6 wheels' floor (manylinux_2_34); the build machine's libraries may raise it
# loaded at run time only when present (never DT_NEEDED by anything we ship, listed for clarity)
OPTIONAL = {"libcuda.so.1", "libnvidia-ml.so.1"}


def external_sonames(bundle: Path) -> set[str]:
    provided, wanted = set(), set()
    for root, _dirs, files in os.walk(bundle):
        for name in files:
            provided.add(name)
            path = Path(root) / name
            if not path.is_symlink() and is_elf(path):
                wanted.update(needed(path))
    return wanted - provided - OPTIONAL


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def glibc_floor(bundle: Path) -> str:
    """The newest GLIBC_2.x symbol version any bundled file needs: the oldest glibc it runs on.

    Bundled system libraries come from the build machine (libstdc++, libexpat...), so a
    bundle built on Debian 12 needs glibc 2.36 even though PySide6 itself needs 2.34."""
    floor = GLIBC_MIN
    for root, _dirs, files in os.walk(bundle):
        for name in files:
            path = Path(root) / name
            if path.is_symlink() or not is_elf(path):
                continue
            for v in re.findall(rb"GLIBC_(2\.\d+)", path.read_bytes()):
                if _version_key(v.decode()) > _version_key(floor):
                    floor = v.decode()
    return floor


def _ldconfig() -> dict[str, str]:
    out = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True, check=True).stdout
    arch = "x86-64" if os.uname().machine == "x86_64" else os.uname().machine
    found: dict[str, str] = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+) \(([^)]*)\) => (\S+)", line)
        if m and (arch in m.group(2) or "64" in m.group(2)):
            found.setdefault(m.group(1), m.group(3))
    return found


def _owner(path: str) -> str | None:
    variants = [path, os.path.realpath(path)]
    for p in list(variants):  # merged /usr: dpkg may know the file under the other spelling
        variants.append(p[4:] if p.startswith("/usr/") else "/usr" + p)
    for p in variants:
        proc = subprocess.run(["dpkg-query", "-S", p], check=False, capture_output=True, text=True)
        if proc.returncode == 0 and proc.stdout:
            return proc.stdout.split(":", 1)[0].strip()
    return None


def depends(bundle: Path) -> tuple[list[str], list[str]]:
    """(Debian package names, sonames this machine lacks: named by Debian's policy instead).

    The only ones expected missing on a build machine are the Wayland client libraries
    (the wayland platform plugin is optional: without them Qt falls back to xcb)."""
    libs = _ldconfig()
    packages, missing = set(), []
    for soname in sorted(external_sonames(bundle)):
        path = libs.get(soname)
        owner = _owner(path) if path else None
        if owner is None:
            missing.append(soname)
            owner = policy_name(soname)
        packages.add(owner)
    packages.discard("libc6")
    return [f"libc6 (>= {glibc_floor(bundle)})"] + sorted(packages), missing


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    if "--glibc" in argv:
        print(glibc_floor(Path(argv[0])))
        return 0
    pkgs, missing = depends(Path(argv[0]))
    if "--missing" in argv:
        print("\n".join(missing))
        return 0
    if missing:
        print(f"debdeps: this machine lacks {', '.join(missing)}; named by Debian policy", file=sys.stderr)
    print(", ".join(pkgs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
