"""Errors of the real-GPU backend, each mapped to one CLI exit code.

- :class:`GpuUnavailable` (exit 3): no driver, no GPU, or no GPU toolchain (NVRTC /
  cuda-bindings not installed). One clear line saying what is missing.
- :class:`CompileError` and other :class:`~explorer.model.errors.InputError`s (exit 2):
  the user's kernel does not compile, a kernel name is wrong, a file is malformed.
- :class:`GpuRunError` (exit 1): the GPU was there but the run failed (a kernel fault,
  a timeout). Never a traceback: the child process reports one line.
"""

from __future__ import annotations

from explorer.model.errors import InputError


class GpuUnavailable(RuntimeError):
    """No usable GPU, driver or GPU toolchain; the message says which and how to fix it."""


class CompilerUnavailable(GpuUnavailable):
    """Neither NVRTC (cuda-bindings + nvidia-cuda-nvrtc) nor nvcc can be found."""


class CompileError(InputError):
    """The CUDA source did not compile (the first error of the log, and how many more)."""


class GpuRunError(RuntimeError):
    """The measurement started on a GPU but did not finish (kernel fault, timeout, driver error)."""


class MeasurementFormatError(InputError):
    """A measurement file that is not one, is damaged, or is of a newer format."""
