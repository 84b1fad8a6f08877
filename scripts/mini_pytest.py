"""Just enough of pytest to run tests/gpu/test_device.py where pytest is not installed.

``python scripts/mini_pytest.py`` registers itself as ``pytest`` (only if the real one
is missing), imports the device tests, and runs each ``test_*`` function with a fresh
``tmp_path``; skip marks are honoured. ``--only NAME,...`` runs just those tests (in that
order), ``--skip NAME,...`` leaves them out (the device check runs the fault and hang tests
last, on their own). Used by scripts/device_check.py.
"""

from __future__ import annotations

import inspect
import re
import sys
import tempfile
import traceback
import types
from pathlib import Path


class Skipped(Exception):
    pass


class _Mark:
    def __init__(self, name, args=(), kwargs=None):
        self.name, self.args, self.kwargs = name, args, kwargs or {}


class _MarkFactory:
    def __getattr__(self, name):
        def make(*args, **kwargs):
            if len(args) == 1 and callable(args[0]) and not kwargs:  # @pytest.mark.gpu
                fn = args[0]
                fn.pytestmark = getattr(fn, "pytestmark", []) + [_Mark(name)]
                return fn

            def deco(fn):
                fn.pytestmark = getattr(fn, "pytestmark", []) + [_Mark(name, args, kwargs)]
                return fn

            return deco

        return make


class _Raises:
    def __init__(self, exc, match=None):
        self.exc, self.match, self.value = exc, match, None

    def __enter__(self):
        return self

    def __exit__(self, typ, value, tb):
        if typ is None:
            raise AssertionError(f"did not raise {self.exc}")
        if not issubclass(typ, self.exc):
            return False
        if self.match and not re.search(self.match, str(value)):
            raise AssertionError(f"{value!r} does not match {self.match!r}")
        self.value = value
        return True


class _Approx:
    def __init__(self, expected, rel=1e-6, abs=1e-12):
        self.expected, self.rel, self.abs = expected, rel, abs

    def __eq__(self, other):
        return abs(other - self.expected) <= max(self.rel * abs(self.expected), self.abs)


def _skip(reason=""):
    raise Skipped(reason)


def _importorskip(name, reason=None):
    try:
        return __import__(name)
    except ModuleNotFoundError:
        raise Skipped(reason or f"{name} is not installed") from None


def install() -> None:
    if "pytest" in sys.modules:
        return
    try:
        import pytest  # noqa: F401 - the real one wins

        return
    except ModuleNotFoundError:
        pass
    mod = types.ModuleType("pytest")
    mod.mark = _MarkFactory()
    mod.raises = _Raises
    mod.approx = _Approx
    mod.skip = _skip
    mod.importorskip = _importorskip
    mod.fixture = lambda *a, **k: (a[0] if a and callable(a[0]) else (lambda fn: fn))
    sys.modules["pytest"] = mod


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="comma-separated test names to run, in this order")
    ap.add_argument("--skip", default="", help="comma-separated test names to leave out")
    args = ap.parse_args(argv)
    repo = Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(repo))
    install()
    import tests.gpu.test_device as t

    tests = [(name, fn) for name, fn in inspect.getmembers(t, inspect.isfunction)
             if name.startswith("test_") and fn.__module__ == t.__name__]
    if args.only:
        wanted = args.only.split(",")
        tests = sorted((x for x in tests if x[0] in wanted), key=lambda x: wanted.index(x[0]))
    left_out = set(filter(None, args.skip.split(",")))
    passed = failed = skipped = 0
    for name, fn in tests:
        if name in left_out:
            continue
        skip = next((m for m in getattr(fn, "pytestmark", []) if m.name == "skipif" and m.args and m.args[0]), None)
        if skip is not None:
            skipped += 1
            print(f"SKIP {name}: {skip.kwargs.get('reason', '')}", flush=True)
            continue
        kwargs = {"tmp_path": Path(tempfile.mkdtemp(prefix=f"{name}-"))} \
            if "tmp_path" in inspect.signature(fn).parameters else {}
        try:
            fn(**kwargs)
            passed += 1
            print(f"PASS {name}", flush=True)
        except Skipped as exc:
            skipped += 1
            print(f"SKIP {name}: {exc}", flush=True)
        except Exception:  # noqa: BLE001 - report and go on
            failed += 1
            print(f"FAIL {name}\n{traceback.format_exc()}", flush=True)
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
