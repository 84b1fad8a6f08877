"""The compiling child process: ``python -m explorer.toolchain.compile_child REQUEST.json ANSWER.json``.

Started by :func:`explorer.toolchain.compiler.compile_source` through
:func:`explorer.toolchain.sandbox.run_python_child`: it limits its own address space before
NVRTC is loaded, dies with its parent, runs :func:`explorer.toolchain.backends.build_cubin` on
the request and writes the answer: ``{"ok": true, "cubin": base64, "lowered", "log",
"compiler", "options"}`` or ``{"ok": false, "class": ..., "field": ..., "message": ...}``
for an error the parent raises again as its own class. Nothing else is imported: no
numba, no Qt, no simulator.
"""

from __future__ import annotations

import base64
import json
import os
import sys


def answer_for(request: dict) -> dict:
    from explorer.toolchain.backends import build_cubin
    from explorer.toolchain.errors import GpuUnavailable
    from explorer.model.errors import InputError

    try:
        cubin, lowered, log, compiler, used = build_cubin(
            request["source"], request["kernel"], request["arch"], request.get("maxrregcount"),
            [tuple(d) for d in request.get("defines", [])], list(request.get("include_dirs", [])),
            request.get("display", "kernel.cu"), bool(request.get("line_info")))
    except InputError as exc:
        return {"ok": False, "class": type(exc).__name__, "field": exc.field, "message": exc.message}
    except GpuUnavailable as exc:
        return {"ok": False, "class": type(exc).__name__, "field": "", "message": str(exc)}
    except MemoryError:
        return {"ok": False, "class": "MemoryError", "field": "", "message": "out of memory"}
    return {"ok": True, "cubin": base64.b64encode(cubin).decode("ascii"), "lowered": lowered, "log": log,
            "compiler": compiler, "options": list(used)}


def main(argv: list[str]) -> int:
    from explorer.toolchain.sandbox import apply_memory_limit, die_with_parent

    apply_memory_limit()
    die_with_parent()
    req_path, ans_path = argv[1], argv[2]
    with open(req_path, encoding="utf-8") as fh:
        request = json.load(fh)
    try:
        answer = answer_for(request)
    except MemoryError:
        answer = {"ok": False, "class": "MemoryError", "field": "", "message": "out of memory"}
    except Exception as exc:  # noqa: BLE001 - the parent reports it (a bug of ours or of the toolchain)
        answer = {"ok": False, "class": "RuntimeError", "field": "", "message": f"{type(exc).__name__}: {exc}"}
    tmp = ans_path + ".part"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(answer, fh)
    os.replace(tmp, ans_path)  # the parent reads a whole answer or none
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
