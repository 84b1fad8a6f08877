"""Why a SASS program could not be built: each is bad input for the CLI (one line, exit 2).

- :class:`ToolchainMissing`: NVRTC (cuda-bindings + nvidia-cuda-nvrtc) or nvdisasm
  (nvidia-cuda-nvdisasm) is not installed; the message says how to get them and that
  ``--set program=model`` runs the model instead.
- :class:`ArchUnsupported`: the GPU's architecture is not a target of the installed
  NVRTC (sm_70 with NVRTC 13). Callers that can fall back to the model program do so
  with the message as a one-line notice.
- :class:`DisassemblyError`: nvdisasm failed or timed out on a cubin.
- :class:`ProgramError`: the SASS has control flow the program builder does not follow
  (several loops, calls, indirect branches).
"""

from __future__ import annotations

from explorer.model.errors import InputError

INSTALL_HINT = ("pip install cuda-bindings nvidia-cuda-nvrtc nvidia-cuda-nvdisasm (part of a default install of "
                "warp-explorer on Linux and Windows x86-64), or --set program=model for the model program")


class ToolchainMissing(InputError):
    def __init__(self, message: str):
        super().__init__("program", f"no SASS toolchain: {message}; {INSTALL_HINT}")


class ArchUnsupported(InputError):
    def __init__(self, message: str):
        super().__init__("program", message)


class DisassemblyError(InputError):
    def __init__(self, message: str):
        super().__init__("nvdisasm", message)


class ProgramError(InputError):
    def __init__(self, message: str):
        super().__init__("program", message)
