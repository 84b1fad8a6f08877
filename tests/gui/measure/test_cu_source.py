"""The occupancy calculator takes a .cu file: compile (NVRTC, no GPU), pick the kernel, fill in its resources."""

from __future__ import annotations

import pytest

from explorer.gui.measure.cu_source import kernel_names
from tests.gpu.support import compiler_problem

needs_compiler = pytest.mark.skipif(bool(compiler_problem()), reason=f"needs a CUDA compiler: {compiler_problem()}")

TWO_KERNELS = r"""
// a comment mentioning __global__ void not_a_kernel(
__global__ void saxpy(float a, const float* x, float* y, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = x[i];
    __syncthreads();
    if (i < n) y[i] = a * tile[threadIdx.x] + y[i];
}

__global__ void __launch_bounds__(128) fill(float* y) { y[threadIdx.x] = 1.f; }
"""

SPILLS = r"""
__global__ void __maxnreg__(16) heavy(const float* x, float* y) {
    float a[24];
#pragma unroll
    for (int i = 0; i < 24; ++i) a[i] = x[threadIdx.x * 24 + i];
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < 24; ++j) { s += a[j] * a[(j * 7) % 24] + a[(j * 5) % 24]; }
#pragma unroll
    for (int i = 0; i < 24; ++i) y[threadIdx.x * 24 + i] = a[i] * s;
}
"""


def test_kernel_names():
    assert kernel_names(TWO_KERNELS) == ["saxpy", "fill"]
    assert kernel_names(SPILLS) == ["heavy"]
    assert kernel_names("template <int N> __global__ static void k(int* p) {}\n"
                        'extern "C" __global__ void __launch_bounds__(256, 2) g() {}') == ["k", "g"]
    assert kernel_names("__device__ void helper() {}") == []


@pytest.fixture
def row(panel):
    return panel.window().feature("gpu").cu_row


def fields(panel) -> dict:
    return panel.inputs.raw_values()


@needs_compiler
def test_a_cu_file_fills_registers_shared_memory_and_barriers(window, panel, row, qtbot, tmp_path):
    from explorer.toolchain.compiler import compile_file

    src = tmp_path / "kernels.cu"
    src.write_text(TWO_KERNELS, encoding="utf-8")
    window.tabs.setCurrentWidget(window.explorer)
    assert window.open_path(src)  # File > Open / drag-and-drop route: the row gets it, "Your kernel" comes forward
    assert window.tabs.currentWidget() is window.feature("kernel")
    window.tabs.setCurrentWidget(panel)
    assert window.open_path(src)  # from the calculator, the calculator stays in front
    assert window.tabs.currentWidget() is panel
    assert row.kernel.isVisible() and [row.kernel.itemText(i) for i in range(row.kernel.count())] == ["saxpy", "fill"]
    qtbot.waitUntil(lambda: row.result is not None, timeout=60_000)
    expected = compile_file(src, "saxpy", "sm_90").resources  # the calculator's default GPU is an H100
    assert row.result.arch == "sm_90" and row.result.kernel == "saxpy"
    f = fields(panel)
    assert f["regs"] == str(expected.registers)
    assert f["smem_static"] == str(expected.static_shared_bytes) == "1024"
    assert f["barriers"] == str(expected.barriers) == "1"
    assert panel.evaluation.query.registers == expected.registers
    assert panel.evaluation.query.static_shared == 1024
    assert "no spills" in row.info.text() and row.info.property("role") == "muted"

    # another kernel of the same file
    row.kernel.setCurrentIndex(1)
    row.kernel.activated.emit(1)
    qtbot.waitUntil(lambda: row.result is not None and row.result.kernel == "fill", timeout=60_000)
    assert fields(panel)["smem_static"] == "0" and fields(panel)["barriers"] == "0"
    panel.inputs.fields["threads"].set_text("256")  # above the kernel's __launch_bounds__(128)
    row.compile()
    qtbot.waitUntil(lambda: not row.busy, timeout=60_000)
    assert "at most 128 threads" in row.info.text() and row.info.property("role") == "error"

    # another GPU: compiled again for its architecture
    panel.inputs.set_gpu("T4")
    qtbot.waitUntil(lambda: row.result is not None and row.result.arch == "sm_75", timeout=60_000)


@needs_compiler
def test_spills_are_shown(panel, row, qtbot, tmp_path):
    src = tmp_path / "heavy.cu"
    src.write_text(SPILLS, encoding="utf-8")
    row.open_file(src)
    qtbot.waitUntil(lambda: row.result is not None, timeout=60_000)
    spills = row.result.resources.spill_bytes
    assert spills and spills > 0
    assert f"SPILLS {spills} B per thread" in row.info.text()
    assert row.info.property("role") == "error"
    assert fields(panel)["regs"] == str(row.result.resources.registers)


@needs_compiler
def test_a_file_that_does_not_compile_says_why_and_keeps_the_fields(panel, row, qtbot, tmp_path):
    before = fields(panel)
    src = tmp_path / "broken.cu"
    src.write_text("__global__ void k(int* p) { p[0] = undefined_name; }\n", encoding="utf-8")
    row.open_file(src)
    qtbot.waitUntil(lambda: not row.busy and bool(row.error), timeout=60_000)
    assert "does not compile" in row.info.text() and "undefined_name" in row.info.text()
    assert row.info.property("role") == "error"
    assert fields(panel) == before and row.result is None


def test_files_without_kernels_or_unreadable(panel, row, tmp_path):
    before = fields(panel)
    empty = tmp_path / "helpers.cu"
    empty.write_text("__device__ int twice(int x) { return 2 * x; }\n", encoding="utf-8")
    assert not row.open_file(empty)
    assert "has no __global__ kernel" in row.info.text()
    binary = tmp_path / "binary.cu"
    binary.write_bytes(b"\xff\xfe\x00\x80")
    assert not row.open_file(binary)
    assert "not a UTF-8 text file" in row.info.text()
    assert not row.open_file(tmp_path / "missing.cu")
    assert "cannot read missing.cu" in row.info.text()
    assert fields(panel) == before


@needs_compiler
def test_the_calculator_and_your_kernel_share_one_compile_per_file_and_gpu(window, panel, row, qtbot, tmp_path,
                                                                           monkeypatch):
    """A .cu opened in the window goes to the calculator's row and the Your kernel tab at once: the file is
    compiled once (whichever page asks first, the other waits for that compile); another GPU compiles again,
    once for both pages; a file changed on disk compiles again."""
    from explorer.toolchain import compiler

    compiles = []
    real = compiler._build_in_child
    monkeypatch.setattr(compiler, "_build_in_child", lambda *a, **k: compiles.append(a[0]["arch"]) or real(*a, **k))
    kernel = window.feature("kernel")
    src = tmp_path / "kernels.cu"
    src.write_text(TWO_KERNELS, encoding="utf-8")
    window.tabs.setCurrentWidget(panel)
    assert window.open_path(src)
    qtbot.waitUntil(lambda: row.result is not None and kernel.kernel is not None and not kernel.busy, timeout=60_000)
    assert compiles == ["sm_90"]  # one compile served the row's kernel and the tab's list and kernel
    assert fields(panel)["regs"] == str(row.result.resources.registers) == str(kernel.kernel.registers)
    assert fields(panel)["smem_static"] == str(kernel.kernel.static_shared_bytes) == "1024"

    row.kernel.setCurrentIndex(1)  # the file's other kernel: in the same cubin
    row.kernel.activated.emit(1)
    qtbot.waitUntil(lambda: row.result is not None and row.result.kernel == "fill" and not row.busy, timeout=60_000)
    assert compiles == ["sm_90"]

    panel.inputs.set_gpu("T4")  # another GPU: compiled again for its architecture, once for both pages
    qtbot.waitUntil(lambda: row.result is not None and row.result.arch == "sm_75" and not row.busy, timeout=60_000)
    assert compiles == ["sm_90", "sm_75"]
    kernel.gpu.setCurrentIndex(kernel.gpu.findData("T4"))
    qtbot.waitUntil(lambda: kernel.kernel is not None and kernel.kernel.arch == "sm_75" and not kernel.busy,
                    timeout=60_000)
    assert compiles == ["sm_90", "sm_75"]

    src.write_text(TWO_KERNELS.replace("tile[256]", "tile[512]"), encoding="utf-8")  # changed on disk
    row.kernel.setCurrentIndex(0)
    row.kernel.activated.emit(0)
    qtbot.waitUntil(lambda: not row.busy and row.result is not None
                    and row.result.resources.static_shared_bytes == 2048, timeout=60_000)
    assert compiles == ["sm_90", "sm_75", "sm_75"]
    assert fields(panel)["smem_static"] == "2048"
