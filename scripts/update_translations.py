#!/usr/bin/env python3
"""Refresh the interface translations: lupdate the sources, lrelease the catalogue.

    .venv/bin/python scripts/update_translations.py           # update .ts, then build .qm
    .venv/bin/python scripts/update_translations.py --qm-only # only build .qm from the .ts

``pyside6-lupdate`` reads every ``.py`` file under ``explorer/gui`` and ``explorer/texts``
(``tr()``, ``QCoreApplication.translate(context, text)``, ``QT_TRANSLATE_NOOP(context, text)``) into
``resources/translations/warp_explorer_<lang>.ts``, keeping the translations it
already has and dropping messages the code no longer has (``-no-obsolete``); new
or changed messages arrive ``unfinished``. Translate them (Qt Linguist:
``pyside6-linguist``, or any editor), then run this again: ``pyside6-lrelease``
compiles the ``.ts`` into the ``.qm`` the app loads. Commit both files;
``tests/gui/test_i18n.py`` fails while a message is unfinished or its
placeholders or tags differ from the English, or while the ``.qm`` is older
than the ``.ts``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = (ROOT / "explorer" / "gui", ROOT / "explorer" / "texts")  # texts: the templates the core renders
OUT = ROOT / "resources" / "translations"
CATALOGUE = "warp_explorer"
LANGUAGES = {"ru": "ru_RU"}  # English is the source language: it needs no catalogue


def tool(name: str) -> str:
    """``pyside6-<name>`` next to this Python (a venv), else on PATH."""
    here = Path(sys.executable).parent / f"pyside6-{name}"
    found = str(here) if here.exists() else shutil.which(f"pyside6-{name}")
    if not found:
        raise SystemExit(f"update_translations: pyside6-{name} not found (pip install PySide6)")
    return found


def ts_path(lang: str) -> Path:
    return OUT / f"{CATALOGUE}_{lang}.ts"


def qm_path(lang: str) -> Path:
    return OUT / f"{CATALOGUE}_{lang}.qm"


def sources() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for folder in SOURCES for p in folder.rglob("*.py"))


def lupdate(lang: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    cmd = [tool("lupdate"), *sources(), "-ts", str(ts_path(lang).relative_to(ROOT)),
           "-no-obsolete", "-locations", "relative", "-source-language", "en", "-target-language", LANGUAGES[lang]]
    subprocess.run(cmd, cwd=ROOT, check=True)


def lrelease(lang: str, qm: Path | None = None) -> Path:
    qm = qm or qm_path(lang)
    subprocess.run([tool("lrelease"), "-silent", str(ts_path(lang)), "-qm", str(qm)], cwd=ROOT, check=True)
    return qm


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qm-only", action="store_true", help="only compile the .ts files into .qm")
    args = parser.parse_args(argv)
    for lang in LANGUAGES:
        if not args.qm_only:
            lupdate(lang)
        print(f"wrote {lrelease(lang).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
