"""The driver probe answers quickly, in a child process, whatever the driver does."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

from explorer.gpu import probe as probe_mod

FAKE_LIBCUDA = r'''
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int cuInit(unsigned flags) {
    const char* mode = getenv("FAKE_CUDA_MODE");
    if (mode && !strcmp(mode, "hang")) for (;;) sleep(1);
    if (mode && !strcmp(mode, "nodev")) return 100;
    return 0;
}
int cuGetErrorName(int e, const char** s) { *s = e == 100 ? "CUDA_ERROR_NO_DEVICE" : "CUDA_ERROR_UNKNOWN"; return 0; }
int cuDriverGetVersion(int* v) { *v = 13000; return 0; }
int cuDeviceGetCount(int* n) { *n = 1; return 0; }
int cuDeviceGet(int* d, int i) { *d = i; return 0; }
int cuDeviceGetName(char* b, int len, int d) { strncpy(b, "NVIDIA H200", len); return 0; }
int cuDeviceGetAttribute(int* v, int a, int d) {
    switch (a) { case 16: *v = 132; break; case 75: *v = 9; break; case 76: *v = 0; break;
                 case 39: *v = 2048; break; default: *v = 0; }
    return 0;
}
int cuDeviceTotalMem_v2(size_t* b, int d) { *b = (size_t)141 << 30; return 0; }
int cuDeviceGetPCIBusId(char* b, int len, int d) { strncpy(b, "0000:1B:00.0", len); return 0; }
'''


@pytest.fixture(scope="module")
def fake_libcuda(tmp_path_factory):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler to build a fake driver library")
    d = tmp_path_factory.mktemp("fakecuda")
    (d / "fake.c").write_text(FAKE_LIBCUDA)
    lib = d / "libcuda.so.1"
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(lib), str(d / "fake.c")], check=True, capture_output=True)
    return str(lib)


def test_no_driver_or_switched_off_answers_at_once(monkeypatch):
    monkeypatch.setenv("WARP_EXPLORER_NO_GPU", "1")
    t = time.monotonic()
    result = probe_mod.probe(use_cache=False)
    assert not result.ok and "WARP_EXPLORER_NO_GPU" in result.reason
    assert time.monotonic() - t < 1
    monkeypatch.delenv("WARP_EXPLORER_NO_GPU")
    monkeypatch.setattr(probe_mod, "find_driver_library", lambda: None)
    result = probe_mod.probe(use_cache=False)
    assert not result.ok and "libcuda.so.1 not found" in result.reason


def test_a_working_driver_is_described(fake_libcuda, monkeypatch):
    monkeypatch.delenv("FAKE_CUDA_MODE", raising=False)
    result = probe_mod._probe_child(fake_libcuda, 30)
    assert result.ok, result.reason
    assert result.driver_version == 13000 and result.driver_version_text == "13.0"
    dev = result.device(0)
    assert dev["name"] == "NVIDIA H200" and dev["sm_count"] == 132 and dev["compute_capability"] == "9.0"
    assert dev["pci_bus_id"] == "0000:1B:00.0"
    from explorer.gpu.measure import match_catalog_gpu

    assert match_catalog_gpu(dev).name == "H200"


def test_a_driver_without_devices(fake_libcuda, monkeypatch):
    monkeypatch.setenv("FAKE_CUDA_MODE", "nodev")
    result = probe_mod._probe_child(fake_libcuda, 30)
    assert not result.ok and "CUDA_ERROR_NO_DEVICE" in result.reason


def test_a_hanging_driver_times_out(fake_libcuda, monkeypatch):
    monkeypatch.setenv("FAKE_CUDA_MODE", "hang")
    t = time.monotonic()
    result = probe_mod._probe_child(fake_libcuda, 2)
    assert not result.ok and "did not answer within 2 s" in result.reason
    assert time.monotonic() - t < 15


def test_a_library_that_is_not_the_driver(tmp_path):
    bogus = tmp_path / "libcuda.so.1"
    bogus.write_bytes(b"not a library")
    result = probe_mod._probe_child(str(bogus), 30)
    assert not result.ok and "cannot load" in result.reason


def test_require_gpu_raises_the_reason(monkeypatch):
    from explorer.toolchain.errors import GpuUnavailable

    monkeypatch.setenv("WARP_EXPLORER_NO_GPU", "1")
    with pytest.raises(GpuUnavailable, match="WARP_EXPLORER_NO_GPU"):
        probe_mod.require_gpu()
