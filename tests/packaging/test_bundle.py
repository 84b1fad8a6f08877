"""The Linux packages, built for real: packaging/build.sh into a temporary folder, then each
artifact started and smoke-tested the way a user's machine would.

* the PyInstaller bundle: ``--version``; ``--smoke-test`` offscreen (with an empty numba
  cache) and under ``xvfb-run`` (the xcb
  plugin and every X library it needs); every bundled library finds its dependencies;
  the GPU path: NVRTC ``compile``, ``measure`` without a driver exactly as the Python
  install answers it, and a whole ``measure`` through the bundle's child processes
  against the fake driver of tests/gpu; the shipped numba cache loaded by a cold start;
  a SASS program with the bundled NVRTC and nvdisasm;
* the .deb: its control fields and files, ``dpkg -x`` into a scratch root, and the
  launcher run from there (relocated) and with ``WARP_EXPLORER_ROOT``;
* the tarball: one top folder, the executable bit, extracted and started.

Slow (a PyInstaller build, ~2-3 minutes in all here): the slow set, which ``.ci/run`` runs last while its time
budget allows (tests/suite_timing.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

import explorer

# the first test builds the bundle (its module fixture): the time budget must leave room for that, and its
# timeout covers the build
pytestmark = [pytest.mark.slow(expect_s=300), pytest.mark.timeout(1800)]

ROOT = Path(__file__).resolve().parents[2]
VERSION = explorer.__version__
FAKE_DRIVER_C = ROOT / "tests" / "gpu" / "fake_libcuda.c"
SMOKE_TIMEOUT = 240  # the first run compiles the simulator (numba) for a few seconds; a slow CI box may need more
OPTIONAL_LIBS = {"libwayland-client.so.0", "libwayland-cursor.so.0", "libwayland-egl.so.1",  # wayland plugin
                 "libcuda.so.1", "libnvidia-ml.so.1"}


def _missing_tools() -> list[str]:
    missing = [t for t in ("dpkg-deb", "dpkg", "tar", "gzip", "ldd") if shutil.which(t) is None]
    missing += [f"{t} (apt-get install binutils)" for t in ("objdump", "objcopy") if shutil.which(t) is None]
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        missing.append("PyInstaller (pip install pyinstaller pyinstaller-hooks-contrib)")
    return missing


def _clean_env(tmp: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "WARP_EXPLORER_SMOKE_PNG",
                        "NUMBA_CACHE_DIR", "PYTHONPATH", "VIRTUAL_ENV")}
    home = tmp / "home"
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), XDG_CONFIG_HOME=str(home / ".config"),
               TMPDIR=str(tmp), **extra)
    return env


def _run(cmd, env, timeout=120, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], check=False, env=env, capture_output=True, text=True, timeout=timeout,
                          cwd=cwd or "/")


def _assert_png(path: Path) -> None:
    from PySide6.QtGui import QImage

    from explorer.gui.headless.smoke import FRAME_SIZE, check_not_blank

    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a PNG"
    assert (image.width(), image.height()) == FRAME_SIZE
    check_not_blank(image, str(path))


def _smoke(executable: Path, tmp: Path, *prefix, **env_extra) -> str:
    png = tmp / "smoke.png"
    env = _clean_env(tmp, WARP_EXPLORER_SMOKE_PNG=str(png), **env_extra)
    started = time.monotonic()
    proc = _run([*prefix, executable, "--smoke-test"], env, timeout=SMOKE_TIMEOUT)
    took = time.monotonic() - started
    assert proc.returncode == 0, f"rc {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("warp-explorer: smoke test ok:"), proc.stdout
    assert "with numba" in lines[0] and lines[0].endswith(f"PNG: {png}")
    assert "Traceback" not in proc.stderr
    _assert_png(png)
    print(f"\n  {executable} --smoke-test: {took:.1f} s: {lines[0]}")
    return lines[0]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not sys.platform.startswith("linux"):
        pytest.skip("the Linux packages are built on Linux only (Windows/macOS: packaging/README.md)")
    missing = _missing_tools()
    if missing:
        pytest.skip(f"packaging tools missing: {', '.join(missing)}")
    out = tmp_path_factory.mktemp("dist")
    started = time.monotonic()
    proc = subprocess.run(["bash", str(ROOT / "packaging" / "build.sh"), "--python", sys.executable, "--out", str(out),
                           "--fast", "--no-test"], check=False, capture_output=True, text=True, timeout=1800)
    took = time.monotonic() - started
    assert proc.returncode == 0, f"build.sh failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    print(f"\n  packaging/build.sh --fast: {took:.0f} s\n" + (out / "build-info.txt").read_text())
    debs = list(out.glob("warp-explorer_*.deb"))
    tars = list(out.glob("warp-explorer-*-linux-*.tar.gz"))
    assert len(debs) == 1 and len(tars) == 1, sorted(p.name for p in out.iterdir())
    yield {"out": out, "bundle": out / "warp-explorer", "deb": debs[0], "tarball": tars[0]}
    shutil.rmtree(out, ignore_errors=True)  # ~1 GB; pytest would keep it with its last three runs


# -- the bundle ---------------------------------------------------------------------------
def test_bundle_version(built, tmp_path):
    proc = _run([built["bundle"] / "warp-explorer", "--version"], _clean_env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"warp-explorer {VERSION}"


def test_bundle_smoke_test_offscreen_with_a_cold_numba_cache(built, tmp_path):
    _smoke(built["bundle"] / "warp-explorer", tmp_path, QT_QPA_PLATFORM="offscreen")
    caches = list((tmp_path / "home" / ".cache" / "warp-explorer" / "numba").glob(f"{VERSION}-*/*/*.nbi"))
    assert caches, "numba's cache was not written to the per-user folder"


def test_bundle_first_simulation_loads_the_shipped_numba_cache(built, tmp_path):
    """A cold per-user cache: the loop comes from the bundle's seed (a cache hit), nothing is compiled."""
    from explorer.jit import seed
    from explorer.jit.runtime import host_target

    internal = built["bundle"] / "_internal"
    manifest = json.loads((internal / "resources" / seed.SEED_DIR_NAME / seed.MANIFEST).read_text())
    # the build machine's baseline target (x86-64-v2 on any x86-64 CPU since ~2009, else numba's generic)
    assert manifest["cpu"] == host_target() and manifest["cpu"] in ("x86-64-v2", "generic") and manifest["sources"]
    code = ("import json; from explorer.model.presets import load_preset; from explorer.sim.engine import simulate; "
            "import explorer.sim.kernel as k; simulate(load_preset('example-240x256')); s = k.run_cycles.stats; "
            "print(json.dumps([sum(s.cache_hits.values()), sum(s.cache_misses.values())]))")
    proc = _run([built["bundle"] / "warp-explorer", "-c", code], _clean_env(tmp_path), timeout=SMOKE_TIMEOUT)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == [1, 0]


def test_bundle_sass_program_with_the_bundled_nvdisasm(built, tmp_path):
    """SASS programs (the default) need NVRTC and nvdisasm: both come with the bundle, found without a toolkit."""
    internal = built["bundle"] / "_internal"
    tool = next(internal.glob("nvidia/cu*/bin/nvdisasm"), None)
    assert tool is not None and os.access(tool, os.X_OK)
    env = _clean_env(tmp_path, PATH="/usr/bin:/bin")
    env.pop("CUDA_HOME", None)
    env.pop("CUDA_PATH", None)
    found = _run([built["bundle"] / "warp-explorer", "-c", "from explorer.toolchain.tools import find_tool; "
                  "print(find_tool('nvdisasm'))"], env)
    assert found.returncode == 0, found.stderr
    if not Path("/usr/local/cuda/bin/nvdisasm").is_file():  # a toolkit there comes first, by design
        assert found.stdout.strip() == str(tool)
    proc = _run([built["bundle"] / "warp-explorer", "program", "example-240x256"], env)
    assert proc.returncode == 0, proc.stderr
    assert "SASS of we_kernel" in proc.stdout and "nvdisasm" in proc.stdout


def test_bundle_smoke_test_under_xvfb(built, tmp_path):
    if shutil.which("xvfb-run") is None:
        pytest.skip("xvfb-run is missing (apt-get install xvfb xauth)")
    line = _smoke(built["bundle"] / "warp-explorer", tmp_path, "xvfb-run", "-a")
    assert "Qt 'xcb'" in line


def test_bundle_contents_are_trimmed_but_complete(built):
    internal = built["bundle"] / "_internal"
    assert (internal / "resources" / "gpus.toml").is_file()
    assert (internal / "resources" / "scenarios" / "example-240x256.toml").is_file()
    assert (internal / "explorer" / "sim" / "kernel.py").is_file(), "numba's cache needs the jitted sources"
    qt = internal / "PySide6" / "Qt"
    libs = {p.name for p in (qt / "lib").iterdir()}
    assert {"libQt6OpenGL.so.6", "libQt6OpenGLWidgets.so.6", "libQt6XcbQpa.so.6"} <= libs
    assert not {n for n in libs if re.match(r"libQt6(Qml|Quick|Network|Pdf)", n)}, libs
    assert (internal / "PySide6" / "QtOpenGLWidgets.abi3.so").is_file()
    platforms = {p.name for p in (qt / "plugins" / "platforms").iterdir()}
    assert {"libqxcb.so", "libqoffscreen.so"} <= platforms and "libqvnc.so" not in platforms
    assert {p.name for p in (qt / "translations").iterdir()} <= {"qt_en.qm", "qt_ru.qm", "qtbase_en.qm", "qtbase_ru.qm"}
    assert list(internal.glob("nvidia/cu*/lib/libnvrtc.so*")), "NVRTC is not bundled"


def test_every_bundled_library_finds_its_dependencies(built):
    internal = built["bundle"] / "_internal"
    env = dict(os.environ, LD_LIBRARY_PATH=str(internal))
    problems = []
    for path in sorted(internal.rglob("*.so*")):
        if path.is_symlink() or not path.is_file():
            continue
        out = subprocess.run(["ldd", str(path)], check=False, capture_output=True, text=True, env=env).stdout
        lost = {m for m in re.findall(r"^\s*(\S+) => not found", out, re.MULTILINE)} - OPTIONAL_LIBS
        if lost:
            problems.append(f"{path.relative_to(internal)}: {', '.join(sorted(lost))}")
    assert not problems, "\n".join(problems)


def test_bundle_gpu_path_compile_with_nvrtc(built, tmp_path):
    cu = tmp_path / "saxpy.cu"
    cu.write_text('extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {\n'
                  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = a * x[i] + y[i];\n}\n")
    env = _clean_env(tmp_path, WARP_EXPLORER_COMPILER="nvrtc")  # the bundled NVRTC, not a toolkit's nvcc
    proc = _run([built["bundle"] / "warp-explorer", "compile", cu, "--arch", "sm_90", "--json"], env)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["compiler"].startswith("NVRTC") and data["registers"] > 0 and data["cubin_bytes"] > 0


@pytest.mark.parametrize("switch", ["WARP_EXPLORER_NO_GPU", None])
def test_bundle_measure_without_a_driver_answers_as_the_python_install(built, tmp_path, switch):
    from explorer.gpu.probe import find_driver_library

    if switch is None and find_driver_library() is not None:
        pytest.skip("this machine has an NVIDIA driver library; the WARP_EXPLORER_NO_GPU case covers the no-GPU answer")
    env = _clean_env(tmp_path, **({switch: "1"} if switch else {}))
    bundled = _run([built["bundle"] / "warp-explorer", "measure", "example-240x256"], env)
    source = _run([sys.executable, "-m", "explorer", "measure", "example-240x256"], dict(env, PYTHONPATH=str(ROOT)),
                  cwd=ROOT)
    assert bundled.returncode == source.returncode == 3
    assert len(bundled.stderr.strip().splitlines()) == 1
    assert bundled.stderr == source.stderr and bundled.stdout == source.stdout == ""


def test_bundle_measure_runs_its_child_processes_against_the_fake_driver(built, tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler to build the fake libcuda.so.1 of tests/gpu")
    fake = tmp_path / "fakecuda"
    fake.mkdir()
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(fake / "libcuda.so.1"), str(FAKE_DRIVER_C), "-ldl"],
                   check=True, capture_output=True)
    env = _clean_env(tmp_path, LD_LIBRARY_PATH=str(fake), WARP_EXPLORER_NO_GPU="")
    out = tmp_path / "m.npz"
    proc = _run([built["bundle"] / "warp-explorer", "measure", "example-240x256", "--out", out, "--json",
                 "--nvml-seconds", "0"], env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert '"device": "NVIDIA H200"' in proc.stdout and out.is_file()
    from explorer.gpu.measurement import load_measurement

    assert len(load_measurement(out).blocks) == 240


# -- the .deb ------------------------------------------------------------------------------
def test_deb_control_and_files(built):
    info = subprocess.run(["dpkg-deb", "-f", str(built["deb"])], capture_output=True, text=True, check=True).stdout
    fields = dict(re.findall(r"^(\S+): (.*)$", info, re.MULTILINE))
    assert fields["Package"] == "warp-explorer" and fields["Version"] == VERSION
    glibc = re.match(r"libc6 \(>= 2\.(\d+)\)", fields["Depends"])
    assert glibc and int(glibc.group(1)) >= 34, fields["Depends"]  # PySide6's floor, or the build machine's
    assert "libgl1" in fields["Depends"] and "libxcb1" in fields["Depends"]
    assert int(fields["Installed-Size"]) > 100_000
    listing = subprocess.run(["dpkg-deb", "-c", str(built["deb"])], capture_output=True, text=True, check=True).stdout
    entries = {line.split()[-1].lstrip("."): line.split()[0] for line in listing.splitlines()}
    for path in ("/usr/bin/warp-explorer", "/opt/warp-explorer/warp-explorer"):
        assert entries.get(path, "").startswith("-rwxr-xr-x"), path
    for path in ("/usr/share/applications/warp-explorer.desktop", "/usr/share/icons/hicolor/scalable/apps/warp-explorer.svg",
                 "/usr/share/icons/hicolor/256x256/apps/warp-explorer.png", "/usr/share/doc/warp-explorer/copyright",
                 "/opt/warp-explorer/_internal/resources/gpus.toml"):
        assert entries.get(path, "").startswith("-rw-r--r--"), path
    assert all(" root/root " in line for line in listing.splitlines())


def test_desktop_entry(tmp_path):
    text = (ROOT / "packaging" / "linux" / "warp-explorer.desktop").read_text(encoding="utf-8")
    keys = dict(re.findall(r"^([A-Za-z\[\]_]+)=(.*)$", text, re.MULTILINE))
    assert text.startswith("[Desktop Entry]\n")
    assert keys["Type"] == "Application" and keys["Exec"] == "warp-explorer" and keys["Icon"] == "warp-explorer"
    assert keys["Terminal"] == "false" and keys["Categories"].endswith(";")
    if shutil.which("desktop-file-validate"):
        proc = subprocess.run(["desktop-file-validate", str(ROOT / "packaging" / "linux" / "warp-explorer.desktop")],
                              check=False, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_deb_unpacked_into_a_scratch_root_runs_from_there(built, tmp_path):
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "-x", str(built["deb"]), str(root)], check=True)
    launcher = root / "usr" / "bin" / "warp-explorer"
    proc = _run([launcher, "--version"], _clean_env(tmp_path))
    assert proc.returncode == 0 and proc.stdout.strip() == f"warp-explorer {VERSION}", proc.stderr
    line = _smoke(launcher, tmp_path, QT_QPA_PLATFORM="offscreen")
    assert "example-240x256" in line
    # the root override: a launcher anywhere, pointed at the unpacked /opt/warp-explorer
    elsewhere = tmp_path / "bin" / "warp-explorer"
    elsewhere.parent.mkdir()
    shutil.copy2(launcher, elsewhere)
    proc = _run([elsewhere, "--version"], _clean_env(tmp_path, WARP_EXPLORER_ROOT=str(root / "opt" / "warp-explorer")))
    assert proc.returncode == 0 and proc.stdout.strip() == f"warp-explorer {VERSION}", proc.stderr
    proc = _run([elsewhere, "--version"], _clean_env(tmp_path, WARP_EXPLORER_ROOT=str(tmp_path / "nowhere")))
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and "reinstall" in proc.stderr


# -- the tarball ---------------------------------------------------------------------------
def test_tarball_has_one_top_folder_and_runs_extracted(built, tmp_path):
    top = built["tarball"].name[: -len(".tar.gz")]
    assert top == f"warp-explorer-{VERSION}-linux-{os.uname().machine}"
    with tarfile.open(built["tarball"]) as tar:
        members = {m.name: m for m in tar.getmembers()}
    assert all(name == top or name.startswith(top + "/") for name in members)
    exe = members[f"{top}/warp-explorer"]
    assert exe.isfile() and exe.mode & 0o755 == 0o755 and exe.uid == 0
    for name in ("_internal/resources/gpus.toml", "share/warp-explorer.desktop", "share/warp-explorer.svg",
                 "install-desktop-entry.sh"):
        assert f"{top}/{name}" in members, name
    dest = tmp_path / "unpacked"
    dest.mkdir()
    subprocess.run(["tar", "-xzf", str(built["tarball"]), "-C", str(dest)], check=True)
    _smoke(dest / top / "warp-explorer", tmp_path, QT_QPA_PLATFORM="offscreen")
    # the menu entry helper writes a desktop file that points at this folder
    env = _clean_env(tmp_path, XDG_DATA_HOME=str(tmp_path / "data"))
    proc = _run(["sh", dest / top / "install-desktop-entry.sh"], env)
    assert proc.returncode == 0, proc.stderr
    entry = (tmp_path / "data" / "applications" / "warp-explorer.desktop").read_text(encoding="utf-8")
    assert f'Exec="{dest / top}/warp-explorer"' in entry
    assert _run([tmp_path / "home" / ".local" / "bin" / "warp-explorer", "--version"], env).returncode == 0
