"""The window's shared compiles of .cu files (``toolchain.compiler.FileBuilds``), without a compiler: one compile
per file, text and architecture, waited for by a second thread that asks for it while it is made."""

from __future__ import annotations

import threading
import time

import pytest

from explorer.toolchain import compiler
from explorer.toolchain.compiler import FileBuild, FileBuilds, UnknownKernel
from explorer.toolchain.sandbox import ChildCancelled


@pytest.fixture
def compiles(monkeypatch):
    """A compile that takes 0.2 s (cancel polled) and lists no kernel; each one's arch is recorded."""
    made = []

    def fake(source, kernel, arch, *, cancel=None, **_kw):
        made.append(arch)
        for _ in range(20):
            if cancel is not None and cancel():
                raise ChildCancelled()
            time.sleep(0.01)
        exc = UnknownKernel("--kernel", "none", [])
        exc.build = FileBuild(source=source, cubin=b"", arch=arch, log="", compiler="fake", line_info=True)
        raise exc

    monkeypatch.setattr(compiler, "compile_source", fake)
    return made


def test_one_compile_per_file_text_and_arch(compiles, tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k() {}\n")
    builds = FileBuilds()
    first = builds.build(src, "sm_90")
    assert builds.build(src, "sm_90") is first and compiles == ["sm_90"]
    assert builds.build(src, "sm_75") is not first and compiles == ["sm_90", "sm_75"]  # another GPU
    src.write_text("__global__ void k(int n) {}\n")  # changed on disk
    assert builds.build(src, "sm_90").source != first.source and len(compiles) == 3


def test_a_second_thread_waits_for_the_compile_being_made(compiles, tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k() {}\n")
    builds = FileBuilds()
    got = []
    threads = [threading.Thread(target=lambda: got.append(builds.build(src, "sm_90"))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert compiles == ["sm_90"] and got[0] is got[1]


def test_a_cancelled_owner_leaves_the_waiter_to_compile_and_a_cancelled_waiter_stops_waiting(compiles, tmp_path):
    src = tmp_path / "k.cu"
    src.write_text("__global__ void k() {}\n")
    builds = FileBuilds()
    stop = threading.Event()
    errors, got = [], []

    def owner():
        try:
            builds.build(src, "sm_90", cancel=stop.is_set)
        except ChildCancelled as exc:
            errors.append(exc)

    t = threading.Thread(target=owner)
    t.start()
    time.sleep(0.05)
    waiter = threading.Thread(target=lambda: got.append(builds.build(src, "sm_90")))
    waiter.start()
    time.sleep(0.05)
    stop.set()  # the owner's page asked for something newer
    t.join()
    waiter.join()
    assert errors and got and compiles == ["sm_90", "sm_90"]  # the waiter compiled for itself

    src.write_text("__global__ void k(int n) {}\n")
    quit_wait = threading.Event()
    slow = threading.Thread(target=lambda: builds.build(src, "sm_90"))
    slow.start()
    time.sleep(0.05)
    quit_wait.set()
    t0 = time.monotonic()
    with pytest.raises(ChildCancelled):
        builds.build(src, "sm_90", cancel=quit_wait.is_set)
    assert time.monotonic() - t0 < 0.15  # it left at once; the compile went on for the other thread
    slow.join()
    assert builds.build(src, "sm_90").source.startswith("__global__ void k(int n)") and len(compiles) == 3
