"""The interface in Russian and English: the catalogue, the switch, start-up, Qt's dialogs, render.

The catalogue tests need no window: every message of ``warp_explorer_ru.ts`` is
finished, keeps the English placeholders, tags, mnemonic and edge spaces, the
``.ts`` holds every message the code has (lupdate finds nothing new) and the
``.qm`` is what lrelease makes of the ``.ts``. The window tests switch to
Russian and back and leave the app in English for the next test.
"""

from __future__ import annotations

import collections
import re
import shutil
import subprocess
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDialogButtonBox, QMenu, QMessageBox

from explorer.texts import numbers
from explorer.gui.shell import app as gui_app
from explorer.gui.shell.i18n import SETTINGS_KEY, current_language, install_translators
from explorer.gui.shell.language import switch_language
from explorer.gui.shell.main_window import MainWindow
from tests.gui.support import RUN_TIMEOUT, wait_run

ROOT = Path(__file__).resolve().parents[3]
TS = ROOT / "resources" / "translations" / "warp_explorer_ru.ts"
QM = TS.with_suffix(".qm")

PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\d+|%n")
TAG = re.compile(r"<[^<>]+>")
MNEMONIC = re.compile(r"&(?![a-zA-Z]+;|#\d+;)")  # '&' before a letter, not an entity like &nbsp;


def messages() -> list[tuple[str, str, ET.Element]]:
    """(context, source, translation element) for every message of the Russian catalogue."""
    out = []
    for context in ET.parse(TS).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            out.append((name, message.findtext("source") or "", message.find("translation")))
    return out


def _tool(name: str) -> str:
    here = Path(sys.executable).parent / f"pyside6-{name}"
    found = str(here) if here.exists() else shutil.which(f"pyside6-{name}")
    if not found:
        pytest.skip(f"pyside6-{name} is not installed")
    return found


def menu_texts(window) -> list[str]:
    return [a.text() for a in window.menuBar().actions()]


# -- the catalogue -------------------------------------------------------------------------
def test_every_message_is_translated_with_the_same_placeholders_tags_and_mnemonic():
    found = messages()
    assert len(found) > 700
    problems = []
    for context, source, translation in found:
        text = translation.text or ""
        where = f"{context}: {source!r}"
        if translation.get("type") in ("unfinished", "vanished", "obsolete"):
            problems.append(f"{where} is {translation.get('type')}")
        elif not text.strip():
            problems.append(f"{where} has an empty translation")
        elif set(PLACEHOLDER.findall(source)) != set(PLACEHOLDER.findall(text)):
            problems.append(f"{where}: placeholders {PLACEHOLDER.findall(source)} vs {PLACEHOLDER.findall(text)}")
        elif collections.Counter(TAG.findall(source)) != collections.Counter(TAG.findall(text)):
            problems.append(f"{where}: HTML tags {TAG.findall(source)} vs {TAG.findall(text)}")
        elif len(MNEMONIC.findall(source)) != len(MNEMONIC.findall(text)):
            problems.append(f"{where}: mnemonic '&' in {text!r}")
        elif (source[:1].isspace(), source[-1:].isspace(), source.count("\n")) != \
                (text[:1].isspace(), text[-1:].isspace(), text.count("\n")):
            problems.append(f"{where}: leading/trailing spaces or line breaks differ in {text!r}")
    assert not problems, "\n".join(problems)


UNIT_WORD = re.compile(r"\bunits?\b", re.I)
BLOCK_RU = re.compile(r"\b[Бб]лок(?:ами|ам|ах|ов|ом|а|у|е|и)?\b")


def test_one_russian_term_for_an_execution_unit_and_for_the_explorer_tab():
    """Issue 31 item 14: an execution unit is «узел» everywhere (a CUDA block is «блок»), and the Explorer tab
    is «Обозреватель» in every sentence that names it (the product's name, Warp Explorer, stays)."""
    for _context, source, tr in messages():
        text = tr.text or ""
        about_units = UNIT_WORD.search(source) and "allocation unit" not in source and not re.search(
            r"\bblocks?\b|\bCTA", source)
        if about_units:
            assert not BLOCK_RU.search(text), (source, text)
        assert not re.search(r"(?<!Warp )Explorer", text), (source, text)


def test_the_lessons_use_the_same_terms():
    import tomllib

    for path in sorted((ROOT / "resources" / "lessons").glob("*.toml")):
        for k, step in enumerate(tomllib.loads(path.read_text(encoding="utf-8")).get("steps", []), 1):
            ru = step.get("narration", {}).get("ru", "")
            assert not re.search(r"(?<!Warp )Explorer", ru), (path.name, k)
            assert not re.search(r"[Бб]лок\w* (загрузки|MMA|GPU)|ни один блок", ru), (path.name, k)
            assert "Speed of Light панел" not in ru and "SM active" not in ru, (path.name, k)  # the panels' names


def test_the_panels_names_are_russian_words_with_nvidias_name_beside_them():
    """Issue 31 item 14: «Speed of Light» and «SM active» stood untranslated in Russian sentences; the Russian
    names them in Russian, NVIDIA's own name may follow in parentheses or after a comma."""
    for _context, source, tr in messages():
        text = tr.text or ""
        for english, russian in (("Speed of Light", "корост"), ("SM active", "SM активн")):
            if english in source:
                assert russian in text, (source, text)


def test_narration_numbers_do_not_break_between_digit_groups():
    """Issue 31 item 14: "1 920 варпов" wrapped as "1" / "920 варпов"; groups are joined by a no-break space."""
    from explorer.model.lessons import load_lessons

    for lesson in load_lessons():
        for k, step in enumerate(lesson.steps, 1):
            ru = step.text("ru")
            assert not re.search(r"\d \d{3}(?!\d)", ru), (lesson.name, k)
    assert "1\u00a0920" in load_lessons()[0].steps[0].text("ru")


def test_every_translation_formats_like_its_source():
    """str.format with the source's fields accepts the translation (no stray braces, no unknown field)."""
    for context, source, translation in messages():
        fields = {m.split(":")[0].split("!")[0].strip("{}") for m in re.findall(r"\{[^{}]*\}", source)}
        if not fields:
            continue
        values = {f: 1.5 for f in fields}
        source.format(**values)
        (translation.text or "").format(**values)


def test_the_catalogue_holds_every_message_the_code_has(tmp_path):
    """lupdate over the sources scripts/update_translations.py reads (explorer/gui, explorer/texts) finds nothing
    the .ts lacks, and nothing obsolete is left in it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("update_translations", ROOT / "scripts" / "update_translations.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    copy = tmp_path / TS.name
    shutil.copy(TS, copy)
    sources = [str(ROOT / p) for p in script.sources()]
    assert any("explorer/texts/" in p for p in sources)
    subprocess.run([_tool("lupdate"), *sources, "-ts", str(copy), "-no-obsolete", "-locations", "none"],
                   check=True, capture_output=True, timeout=120)
    def keys(path):
        return {(c.findtext("name"), m.findtext("source")) for c in ET.parse(path).getroot().iter("context")
                for m in c.iter("message")}
    assert keys(copy) == keys(TS), "run scripts/update_translations.py and translate the new messages"


def test_the_qm_is_built_from_the_ts(tmp_path):
    built = tmp_path / QM.name
    subprocess.run([_tool("lrelease"), "-silent", str(TS), "-qm", str(built)], check=True, timeout=120)
    assert built.read_bytes() == QM.read_bytes(), "run scripts/update_translations.py --qm-only"


def test_gui_tables_cover_the_cores_texts_exactly(qapp):
    """The literal copies lupdate reads are the core's texts, no more and no fewer."""
    from explorer.gemm import DTYPES, dtype_spec, memory_hierarchy
    from explorer.gui.common.core_texts import (
        policy_doc, unit_symbols, workload_doc,
    )
    from explorer.gui.occupancy.advice import hint_templates
    from explorer.model.catalog import load_catalog
    from explorer.model.presets import load_preset, preset_names
    from explorer.model.scenario import POLICY_DOC
    from explorer.model.workload import PRESETS
    from explorer.occupancy.hints import STATE, STATE_ONE, TEMPLATES

    assert set(hint_templates()) == set(TEMPLATES.values()) | {STATE, STATE_ONE}
    assert all(policy_doc(name) == text for name, text in POLICY_DOC.items())  # by name, from the core's table
    assert all(workload_doc(name) == body["doc"] for name, body in PRESETS.items())
    for name in preset_names():  # a shipped scenario carries its description in every interface language
        scenario = load_preset(name)
        assert scenario.description and scenario.description_in("ru") != scenario.description, name
        assert scenario.description_in("de") == scenario.description
    from explorer.texts.names import PLACE  # the memory places are the texts layer's, marked where written

    assert {(lv.location, lv.managed_by) for gpu in load_catalog().values() for lv in memory_hierarchy(gpu)} \
        == set(PLACE.values())
    for name in DTYPES:  # a GEMM data type's label carries its languages in gemm.toml
        spec = dtype_spec(name)
        assert spec.label_in("ru") != spec.label and spec.label_in("de") == spec.label, name
    assert {"B", "KiB", "GB/s", "µs"} <= set(unit_symbols())
    for table in (hint_templates(), unit_symbols()):
        assert all(key == value for key, value in table.items())  # English: the text itself


def test_the_gemm_views_wave_sentence_is_the_cores_in_english(qtbot):
    from explorer.gemm import plan_gemm
    from explorer.gui.gemm.page import GemmPage

    page = GemmPage()
    qtbot.addWidget(page)
    for m, n, k in ((4096, 4096, 4096), (1000, 3000, 512), (128, 128, 64)):
        waves = plan_gemm("H100", m, n, k, "bf16").waves
        assert page.wave_sentence(waves) == waves.explain()


# -- the window ----------------------------------------------------------------------------
def test_switching_to_russian_and_back_changes_visible_strings_and_keeps_the_state(qtbot, window, english):
    wait_run(qtbot, window.explorer)
    window.feature("lessons").start("launched-resident-ready", 1)
    qtbot.waitUntil(lambda: window.feature("lessons").ready, timeout=RUN_TIMEOUT)
    lesson = window.feature("lessons").lesson
    panel = window.occupancy  # the lesson's launch is in the calculator; the user edits it during the lesson
    edit = panel.inputs.fields["regs"].edit
    edit.selectAll()
    edit.insert("64")  # registers limit: the calculator gives a register hint
    assert "Registers limit you to" in panel.advice.hints.text()
    assert window.feature("lessons").panel.narration.text() == lesson.steps[1].text("en")
    window.tabs.setCurrentWidget(window.occupancy)
    run, cycle = window.workspace.session.run, window.workspace.session.cycle
    assert menu_texts(window) == ["&File", "E&dit", "&View", "&Lessons", "&Help"]

    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    assert ru is not window and not window.isVisible() and ru.isVisible()
    assert window.settings.value(SETTINGS_KEY) == "ru" and current_language() == "ru"
    # menus, tabs and the language menu
    assert menu_texts(ru) == ["&Файл", "&Правка", "&Вид", "&Уроки", "&Справка"]
    assert [ru.tabs.tabText(i) for i in range(2)] == ["&Обозреватель", "&Калькулятор заполняемости"]
    assert ru.feature("language").menu.title() == "&Язык" and ru.feature("language").actions["ru"].isChecked()
    # the Explorer: legend, metrics captions, the state carried over without a new simulation
    page = ru.explorer
    assert (page.workspace.session.run is run and page.workspace.session.cycle == cycle
            and not page.workspace.session.simulating)
    assert page.legend.labels[5].text() == "ожид. памяти"  # long_scoreboard
    assert "Глобальная память (long_scoreboard)" in page.legend.labels[5].toolTip()
    assert page.metrics.now.title() == "Прямо сейчас" and page.metrics.whole.title() == "Весь прогон"
    assert page.metrics.now.heading.text().startswith("Такт ")
    # the scenario's description, from its own file's Russian text (description.ru)
    assert page.panel.description.text() == " ".join(page.workspace.session.scenario.description_in("ru").split())
    assert "варп" in page.panel.description.text()
    # the occupancy calculator, its hint sentence included, on the same tab as before
    assert ru.tabs.currentWidget() is ru.occupancy
    assert ru.occupancy.inputs.fields["regs"].text() == "64"
    assert ru.occupancy.advice.title() == "Что ограничивает заполняемость"
    assert "Регистры ограничивают заполняемость" in ru.occupancy.advice.hints.text()
    # the lesson goes on at the same step, narrated in Russian
    assert ru.feature("lessons").lesson.name == lesson.name and ru.feature("lessons").index == 1
    assert ru.feature("lessons").panel.narration.text() == lesson.steps[1].text("ru")
    assert ru.feature("lessons").panel.counter.text().startswith(f"Шаг 2 из {len(lesson.steps)}")

    en = switch_language(ru, "en")
    qtbot.addWidget(en)
    assert menu_texts(en) == ["&File", "E&dit", "&View", "&Lessons", "&Help"]
    assert en.explorer.legend.labels[5].text() == "memory wait"
    assert en.explorer.metrics.now.title() == "Right now"
    assert "Registers limit you to" in en.occupancy.advice.hints.text()
    assert en.feature("lessons").panel.narration.text() == lesson.steps[1].text("en")
    assert en.settings.value(SETTINGS_KEY) == "en"
    assert switch_language(en, "en") is en  # already English: nothing rebuilt


def test_the_language_menu_switches_and_the_new_window_replaces_the_old(qtbot, window, english):
    wait_run(qtbot, window.explorer)
    views = window.feature("language").menu
    assert views.menuAction() in window.view_menu.actions()
    assert [a.text() for a in views.actions()] == ["English", "Русский"]
    window.feature("language").actions["ru"].trigger()
    new = [w for w in qtbot_top_level_windows() if w is not window and w.isVisible()]
    assert len(new) == 1
    qtbot.addWidget(new[0])
    assert menu_texts(new[0])[0] == "&Файл" and not window.isVisible()


def qtbot_top_level_windows() -> list[MainWindow]:
    from PySide6.QtWidgets import QApplication

    return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)]


def test_russian_mnemonics_are_unique_within_each_menu(qtbot, settings, english, qapp):
    install_translators(qapp, "ru")
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)

    def check(menu: QMenu) -> None:
        letters = []
        for action in menu.actions():
            if action.menu() is not None:
                check(action.menu())
            found = MNEMONIC.search(action.text())
            if found and not action.isSeparator():
                letters.append(action.text()[found.end()].lower())
        assert len(letters) == len(set(letters)), (menu.title(), [a.text() for a in menu.actions()])

    bar = [a.text() for a in w.menuBar().actions()]
    assert len({t[t.index("&") + 1].lower() for t in bar}) == len(bar)
    for action in w.menuBar().actions():
        check(action.menu())


def test_qt_dialogs_speak_russian(qtbot, settings, english, qapp):
    assert "qtbase" in install_translators(qapp, "ru")
    box = QMessageBox(QMessageBox.Icon.Warning, "t", "x",
                      QMessageBox.StandardButton.Close | QMessageBox.StandardButton.Cancel)
    qtbot.addWidget(box)
    assert box.button(QMessageBox.StandardButton.Close).text() == "Закрыть"
    assert box.button(QMessageBox.StandardButton.Cancel).text() == "Отмена"
    w = MainWindow(settings=settings)
    qtbot.addWidget(w)
    dialog = w.feature("export").picture_dialog()
    try:
        assert dialog.windowTitle() == "Экспорт изображения"
        save = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Save)
        assert save.text().replace("&", "") == "Сохранить"
    finally:
        dialog.close()
    assert QLocale().language() == QLocale.Language.Russian
    assert numbers.num(61440) == "61\xa0440" and numbers.unit("GB/s") == "ГБ/с"


def test_lang_ru_at_start_up_gives_a_russian_window(qapp, light_theme, english):
    seen = {}

    def look():
        for widget in qtbot_top_level_windows():
            if widget.isVisible():
                seen["menus"] = menu_texts(widget)
                seen["lessons"] = widget.feature("lessons").language
                seen["checked"] = widget.feature("language").actions["ru"].isChecked()
                widget.close()

    QTimer.singleShot(0, look)
    assert gui_app.run(types.SimpleNamespace(lang="ru", smoke_test=False)) == 0
    assert seen == {"menus": ["&Файл", "&Правка", "&Вид", "&Уроки", "&Справка"], "lessons": "ru", "checked": True}


def test_the_saved_choice_is_used_at_the_next_start(qapp, light_theme, english):
    from explorer.gui.common.settings import open_settings

    s = open_settings()
    s.setValue(SETTINGS_KEY, "ru")
    s.sync()
    seen = []

    def look():
        for widget in qtbot_top_level_windows():
            if widget.isVisible():
                seen.append(menu_texts(widget)[0])
                widget.close()

    QTimer.singleShot(0, look)
    assert gui_app.run(types.SimpleNamespace(lang=None, smoke_test=False)) == 0
    assert seen == ["&Файл"]
    s.remove(SETTINGS_KEY)


def test_render_lang_ru_writes_the_png(tmp_path):
    env_home = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "QT_QPA_PLATFORM": "offscreen"}
    import os

    env = dict(os.environ, **env_home)
    for args, name in ((["render", "example-240x256", "--size", "1024x640", "--lang", "ru"], "still.png"),
                       (["--lang", "ru", "render", "--lesson", "launched-resident-ready", "--step", "2",
                         "--size", "1024x640"], "lesson.png")):
        out = tmp_path / name
        proc = subprocess.run([sys.executable, "-m", "explorer", *args, "--out", str(out)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stderr
        image = QImage(str(out))
        assert (image.width(), image.height()) == (1024, 640)


def test_untranslated_is_english_and_translated_differs(qapp, english):
    """The same message in both languages (a cheap check that the .qm the app loads is ours)."""
    source = "Occupancy calculator"
    assert QCoreApplication.translate("ExportFeature", source) == source
    install_translators(qapp, "ru")
    assert QCoreApplication.translate("ExportFeature", source) == "Калькулятор заполняемости"


def test_presentation_mode_survives_the_switch(qtbot, window, english):
    wait_run(qtbot, window.explorer)
    window.feature("presentation").set_presenting(True)
    ru = switch_language(window, "ru")
    qtbot.addWidget(ru)
    try:
        assert ru.feature("presentation").presenting and not window.feature("presentation").presenting
        assert ru.feature("presentation").present_action.text() == "&Режим презентации"
    finally:
        ru.feature("presentation").set_presenting(False)
