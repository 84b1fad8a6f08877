"""The wheel's build step: setuptools as configured in pyproject.toml, plus the numba and SASS seeds.

``build_py`` copies the package as usual, then compiles the simulator's cycle loop
once in a child process and ships the cache as ``explorer/resources/numba_seed``
(``explorer.jit.seed``), so a fresh install's first simulation loads machine code
instead of waiting ~7 s for LLVM; then it builds the presets' SASS programs once and ships
them as ``explorer/resources/sass_seed`` (``explorer.sass.seed``), so NVRTC and nvdisasm
run only for kernels of the user's own. A build where that cannot run (no numba, NVRTC
or nvdisasm in the build environment) still produces a working wheel: it then compiles
on first use. An editable install (the README's set-up) compiles both into the checkout instead.
"""

import os
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithSeed(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            self._warm_checkout()
            return
        lib = Path(self.build_lib).resolve()
        # the build environment's own path comes after ours: pip's isolated build finds numpy and numba
        # through PYTHONPATH (its sitecustomize), and a fresh venv has them nowhere else
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(lib), os.environ.get("PYTHONPATH")])))
        seeds = (("numba_seed", "explorer.jit.seed", "no numba seed in this wheel (the first simulation compiles)"),
                 # the presets' SASS programs: NVRTC and nvdisasm then run only for new kernels
                 ("sass_seed", "explorer.sass.seed",
                  "no SASS seed in this wheel (the first simulation compiles its kernel)"))
        for folder, module, missing in seeds:
            proc = subprocess.run([sys.executable, "-m", module, str(lib / "explorer" / "resources" / folder)],
                                  env=env, check=False, capture_output=True, text=True)
            if proc.returncode == 0:
                print(proc.stdout.strip())
            else:
                self.warn(f"{missing}: " + (proc.stderr.strip().splitlines() or ["?"])[-1])


    def _warm_checkout(self):
        """An editable install runs from the checkout: compile the simulator's loop and the executor's
        interpreter there now (numba caches them in the checkout's ``__pycache__``), both at once, so the
        first start and the first test load machine code instead of waiting for LLVM (explorer.jit.warm).
        Beside them, the presets' SASS programs go to the checkout's ``resources/sass_seed`` (git ignores it),
        as a wheel ships them: a first start with an empty per-user cache then runs no NVRTC for the
        example (0.5 s of a first start's 1.35 s of CPU, issue 31 item 1)."""
        root = Path(__file__).resolve().parent
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
        sass = subprocess.Popen([sys.executable, "-m", "explorer.sass.seed", str(root / "resources" / "sass_seed")],
                                cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        proc = subprocess.run([sys.executable, "-m", "explorer.jit.warm"], cwd=root, env=env, check=False,
                              capture_output=True, text=True)
        if proc.returncode == 0:
            print(proc.stdout.strip())
        else:
            self.warn("the simulator was not compiled ahead (the first simulation compiles it): "
                      + (proc.stderr.strip().splitlines() or ["?"])[-1])
        out, err = sass.communicate()
        if sass.returncode == 0:
            print(out.strip())
        else:
            self.warn("no SASS seed in the checkout (the first simulation compiles its kernel): "
                      + (err.strip().splitlines() or ["?"])[-1])


setup(cmdclass={"build_py": BuildPyWithSeed})
