"""Shipped SASS programs for the presets, so a fresh install's first simulation does not wait for NVRTC.

Why: a scenario runs its generated kernel's own SASS (``program = "sass"``), which
``explorer.sass.kernel_program`` builds by compiling the kernel with NVRTC and listing
the cubin with nvdisasm: ~0.4 s of CPU (0.5-0.7 s on an idle machine) the first time,
then read from the per-user cache. Only a fresh install pays it, but that is the
user's first impression (issue 14 item 18). So the build makes those cache entries
once (:func:`build`: the wheel's ``build_py`` in ``setup.py``, the bundle's spec) for
the default scenario and every preset, and ships them as ``resources/sass_seed/``;
``kernel_program`` reads an entry there when the per-user cache has none.

Why a shipped entry is only used where it is right: an entry's name is the hash of
everything its listing depends on (the generated source, the architecture, the
register request, the compiler's and nvdisasm's versions, the cache format), the
same key a locally made entry has. Another NVRTC or nvdisasm on the user's machine
(or a changed code generator) gives another key, so the program is compiled there as
before; a damaged entry is rebuilt. The seed is read, never written, at run time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from explorer.sass.kernel_program import CACHE_ENV, SEED_DIR_NAME  # noqa: F401 - SEED_DIR_NAME: the spec's


WARM_UP = """
from explorer.model.presets import default_scenario, load_preset, preset_names
from explorer.sass.kernel_program import sass_program
from explorer.sass.errors import ArchUnsupported
done = 0
for scenario in [default_scenario()] + [load_preset(name) for name in preset_names()]:
    if scenario.program != "sass":
        continue
    try:
        sass_program(scenario)
    except ArchUnsupported:
        continue  # an architecture this compiler cannot target: the model program runs there anyway
    done += 1
print(done)
"""


def nvrtc_lib_dirs(paths: list[str] | None = None) -> list[str]:
    """The folders of the NVRTC wheel's library on ``paths`` (default ``sys.path``).

    cuda-bindings looks for libnvrtc in the site-packages folders and where the dynamic loader looks,
    not on ``sys.path``: in pip's isolated build the wheel is only on the path, so the warm-up names
    its folder to the loader (``LD_LIBRARY_PATH``)."""
    out: list[str] = []
    for entry in sys.path if paths is None else paths:
        for lib in sorted(Path(entry).glob("nvidia/*/lib")) if entry else []:
            if any(lib.glob("libnvrtc.so*")) and str(lib) not in out:
                out.append(str(lib))
    return out


def build(out: Path, python: str = sys.executable, pythonpath: str | None = None) -> int:
    """Build the presets' programs in a child process with an empty cache and put its entries in ``out``
    (replaced); the number of entries. ``pythonpath``: where the child imports explorer from.

    NVRTC only (``WARP_EXPLORER_COMPILER=nvrtc``): an installed copy compiles with the NVRTC wheel, so
    an entry keyed by the build machine's nvcc would never be found; without NVRTC there is no seed."""
    out = Path(out)
    with tempfile.TemporaryDirectory(prefix="warp-explorer-sass-seed-") as tmp:
        env = dict(os.environ, **{CACHE_ENV: tmp, "WARP_EXPLORER_COMPILER": "nvrtc"})
        libs = nvrtc_lib_dirs()
        if libs:
            env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, [*libs, os.environ.get("LD_LIBRARY_PATH")]))
        if pythonpath:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [pythonpath, os.environ.get("PYTHONPATH")]))
        proc = subprocess.run([python, "-c", WARM_UP], env=env, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"the SASS warm-up failed: {proc.stderr.strip().splitlines()[-1:]}")
        files = sorted(Path(tmp).glob("*.json"))
        if not files:
            raise RuntimeError("the SASS warm-up made no program (no NVRTC or nvdisasm here?)")
        from explorer.jit.seed import replace_folder

        replace_folder(out, files)
    return len(files)


def main(argv: list[str] | None = None) -> int:
    """``python -m explorer.sass.seed OUT_DIR``: build a seed (what the packaging runs)."""
    from explorer.jit.seed import seed_main

    return seed_main("explorer.sass.seed", argv, lambda out: f"{build(out)} SASS programs")


if __name__ == "__main__":
    sys.exit(main())
