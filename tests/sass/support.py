"""Skip conditions of the SASS tests (NVRTC, nvdisasm, cuobjdump)."""

from __future__ import annotations

from functools import cache

import pytest

from tests.gpu.support import cuobjdump, nvrtc_problem


@cache
def nvdisasm_problem() -> str:
    try:
        from explorer.sass.disasm import nvdisasm_path, nvdisasm_version

        nvdisasm_version(nvdisasm_path())
        return ""
    except Exception as exc:  # noqa: BLE001 - any failure is a reason to skip
        return f"{type(exc).__name__}: {exc}"


needs_sass = pytest.mark.skipif(
    bool(nvrtc_problem() or nvdisasm_problem()),
    reason=f"needs NVRTC and nvdisasm (pip install cuda-bindings nvidia-cuda-nvrtc nvidia-cuda-nvdisasm): "
           f"{nvrtc_problem() or nvdisasm_problem()}",
)
needs_cuobjdump = pytest.mark.skipif(cuobjdump() is None,
                                     reason="needs cuobjdump (pip install nvidia-cuda-cuobjdump)")

# the families the listing and the opcode table are checked on: each preset on its own GPU
# (H100, sm_90) and on an A100 (sm_80) and an RTX 4090 (sm_89)
CHECK_GPUS = ("H100", "A100", "RTX4090")
# every family the table covers (opcode completeness and control bits)
ALL_FAMILY_GPUS = ("T4", "A100", "A6000", "RTX4090", "H100", "B200", "RTX5090")
