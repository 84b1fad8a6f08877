"""``warp-explorer``: every feature of the app reachable from a terminal.

Exit codes (docs/dev/design.md): 0 ok, 2 bad input (one line naming the field and the
limit), 3 no GPU/driver, 1 internal error. Bad input never prints a traceback.
Subcommands import what they need lazily so ``occupancy`` starts fast and never
touches Qt or numpy.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import sys

from explorer import __version__
from explorer.cli.errors import NoGpuError
from explorer.model.errors import SHOWN_CHARS, InputError, shown

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT, EXIT_NO_GPU = 0, 1, 2, 3


class CliParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr and exit code 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        # argparse repeats the offending words whole: a 5,000-digit one is cut short
        message = re.sub(r"'[^']{%d,}'" % SHOWN_CHARS, lambda m: shown(m.group(0)[1:-1]), message)
        message = re.sub(r"\S{%d,}" % SHOWN_CHARS, lambda m: shown(m.group(0))[1:], message)
        # ... and control characters as they are: a newline in an argument would split the line
        message = re.sub(r"[\x00-\x1f\x7f]", lambda m: m.group(0).encode("unicode_escape").decode("ascii"), message)
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(EXIT_INPUT)


def _add_commands(sub) -> None:
    from explorer.cli import commands

    for register in commands.REGISTRY:
        register(sub)


def build_parser() -> CliParser:
    parser = CliParser(
        prog="warp-explorer",
        description="See how a GPU runs a kernel: launched vs resident vs ready warps.",
        epilog="With no command, the window opens on the default scenario.",
    )
    parser.add_argument("--version", action="version", version=f"warp-explorer {__version__}")
    parser.add_argument("--lang", choices=("en", "ru"), help="user-interface language")
    parser.add_argument("--smoke-test", action="store_true",
                        help="load the example, simulate, render one frame, exit 0 (for installers)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CliParser)
    _add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    from explorer.jit.heap import keep_freed_memory

    keep_freed_memory()  # simulations reuse the memory the last one freed (no page faults): jit/heap.py
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors
        return int(exc.code or 0)
    try:
        if args.command is None and args.smoke_test:
            from explorer.gui.headless.smoke import run as run_smoke_test

            return run_smoke_test(args)
        if args.command is None:
            from explorer.cli.commands import run_gui

            return run_gui(args)
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a full disk under `> out.json` shows here, not at exit
        return code
    except InputError as exc:
        print(f"warp-explorer: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except NoGpuError as exc:
        print(f"warp-explorer: no GPU: {exc}", file=sys.stderr)
        return EXIT_NO_GPU
    except KeyboardInterrupt:
        print("warp-explorer: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        _drop_stdout()
        return EXIT_OK
    except OSError as exc:
        # stdout redirected onto a full disk (`> out.json`); a file of ours that fails is a
        # WriteError (an InputError, above) with its name, and any other OSError is a bug
        if exc.errno in _FULL and getattr(exc, "filename", None) is None:
            _drop_stdout()
            print(f"warp-explorer: error: output: cannot write ({os.strerror(exc.errno)})", file=sys.stderr)
            return EXIT_INPUT
        return _internal(exc)
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, exit 1
        return _internal(exc)


_FULL = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC), errno.EFBIG}


def _internal(exc: Exception) -> int:
    if os.environ.get("WARP_EXPLORER_DEBUG"):
        raise exc
    print(f"warp-explorer: internal error: {type(exc).__name__}: {exc} "
          "(set WARP_EXPLORER_DEBUG=1 for details)", file=sys.stderr)
    return EXIT_INTERNAL


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's final flush of what is left does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real stdout (a test's StringIO)
        pass
