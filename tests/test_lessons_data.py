"""The shipped lessons: valid data, both languages, every scenario they reach is valid."""

import pytest

from explorer.model.lessons import LANGUAGES, TARGETS, VIEWS, Step, get_lesson, load_lessons, parse_lesson
from explorer.model.errors import InputError
from explorer.occupancy import occupancy_for_launch

CONCEPTS = [
    "launched-resident-ready", "what-limits-residency", "latency-hiding", "scheduler-picks-ready-warps",
    "occupancy-vs-utilization", "waves-and-tail", "memory-hierarchy", "tensor-cores", "what-limits-useful-work",
    "precision-and-misread-metrics",
]


def test_one_lesson_per_mission_concept_in_order():
    assert [lesson.name for lesson in load_lessons()] == CONCEPTS


@pytest.mark.parametrize("lesson", load_lessons(), ids=lambda l: l.name)
def test_lesson_is_complete_in_every_language(lesson):
    for lang in LANGUAGES:
        assert lesson.title_text(lang)
    assert lesson.steps[0].scenario, "the first step loads a scenario"
    for i, step in enumerate(lesson.steps):
        assert step.view in VIEWS and set(step.highlight) <= set(TARGETS)
        for lang in LANGUAGES:
            sentences = [s for s in step.text(lang).replace("?", ".").split(". ") if s.strip()]
            assert 2 <= len(sentences) <= 6, (lesson.name, i, lang, len(sentences))
        scenario = lesson.scenario_at(i)
        assert occupancy_for_launch(scenario.gpu, scenario.launch).active_blocks_per_sm > 0


def test_russian_text_is_russian():
    for lesson in load_lessons():
        for step in lesson.steps:
            text = step.text("ru")
            assert sum("а" <= c.lower() <= "я" for c in text) > len(text) // 3


def test_cycle_resolution():
    step = Step(narration={"en": "a. b", "ru": "а. б"}, cycle="50%")
    assert step.resolve_cycle(101) == 50
    assert Step(narration={}, cycle="end").resolve_cycle(10) == 9
    assert Step(narration={}, cycle=10**9).resolve_cycle(10) == 9


def test_bad_lessons_are_refused_with_the_field():
    good_text = {"en": "One. Two.", "ru": "Раз. Два."}
    with pytest.raises(InputError, match="has no"):
        parse_lesson({"title": good_text}, "x")
    with pytest.raises(InputError, match=r"steps\[0\].view"):
        parse_lesson({"title": good_text, "steps": [{"scenario": "example-240x256", "view": "cockpit",
                                                      "narration": good_text}]}, "x")
    with pytest.raises(InputError, match=r"narration.ru"):
        parse_lesson({"title": good_text, "steps": [{"scenario": "example-240x256", "narration": {"en": "a"}}]}, "x")
    with pytest.raises(InputError, match="unknown preset"):
        parse_lesson({"title": good_text, "steps": [{"scenario": "nope", "narration": good_text}]}, "x")
    with pytest.raises(InputError, match="registers_per_thread"):
        parse_lesson({"title": good_text, "steps": [{"scenario": "example-240x256", "narration": good_text,
                                                      "set": {"launch.registers_per_thread": -3}}]}, "x")
    with pytest.raises(InputError, match="unknown lesson"):
        get_lesson("nope")


def test_a_step_names_the_counts_view_it_talks_about():
    good_text = {"en": "One. Two.", "ru": "Раз. Два."}

    def step(**extra):
        return parse_lesson({"title": good_text, "steps": [{"scenario": "example-240x256", "narration": good_text,
                                                            **extra}]}, "x").steps[0]

    assert step().counts == "gpu"  # the default: the whole GPU, the 'launched' curve included
    assert step(counts="sm").counts == "sm"
    for bad in ("SM", "all", 1, ["gpu"]):
        with pytest.raises(InputError, match=r"steps\[0\]\.counts"):
            step(counts=bad)
    assert step(highlight=["dram"]).highlight == ("dram",)  # the DRAM row of the metrics


def test_steps_that_say_hbm_is_near_its_limit_point_at_the_dram_row():
    """Issue 14 item 9: the narration's 'HBM near its limit' has a number on screen, highlighted; issue 15 item 5:
    and the Speed-of-Light panel that names DRAM as the bottleneck."""
    for lesson in load_lessons():
        for i, step in enumerate(lesson.steps):
            text = step.text("en")
            if step.view == "explorer" and ("of its peak" in text or "near its limit" in text):
                assert "dram" in step.highlight and "sol" in step.highlight, (lesson.name, i + 1)
    steps = {(l.name, i + 1): s for l in load_lessons() for i, s in enumerate(l.steps)}
    for key in (("launched-resident-ready", 5), ("latency-hiding", 3), ("occupancy-vs-utilization", 3)):
        assert "dram" in steps[key].highlight and "DRAM row" in steps[key].text("en"), key


def test_a_lesson_names_the_instruction_stream_its_presets_run():
    """Lessons 1-8 narrate the workload model's figures: every scenario they reach runs the model, so the
    numbers they cite cannot drift when the default program is the kernel's SASS; a bad value names the field."""
    for name in CONCEPTS:
        lesson = get_lesson(name)
        assert lesson.program == "model"
        assert {lesson.scenario_at(i).program for i in range(len(lesson.steps))} == {"model"}
    base = {"title": {"en": "t", "ru": "т"},
            "steps": [{"scenario": "example-240x256", "narration": {"en": "x", "ru": "икс"}}]}
    assert parse_lesson(base, "plain").scenario_at(0).program == "sass"  # the preset's own default
    assert parse_lesson({**base, "program": "sass"}, "s").scenario_at(0).program == "sass"
    with pytest.raises(InputError, match=r"lesson bad\.program"):
        parse_lesson({**base, "program": "ptx"}, "bad")


def test_a_malformed_lesson_file_is_skipped_with_a_notice(tmp_path, monkeypatch, capsys):
    """Issue 30, item 7: one malformed file in resources/lessons made the window exit 2 and --smoke-test
    exit 1. It costs that lesson alone, with one line naming the file and what is wrong."""
    import shutil

    import explorer.model.lessons as lessons_module
    from explorer.paths import resource

    for path in resource("lessons").glob("*.toml"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "10-broken.toml").write_text('title = { en = "x"\n[[steps')
    (tmp_path / "11-unknown-view.toml").write_text('title = { en = "x", ru = "y" }\n[[steps]]\n'
                                                   'scenario = "example-240x256"\nview = "nope"\n'
                                                   'narration = { en = "a", ru = "b" }\n')
    real = lessons_module.resource
    monkeypatch.setattr(lessons_module, "resource",
                        lambda *parts: tmp_path if parts == ("lessons",) else real(*parts))
    load_lessons.cache_clear()
    try:
        good = load_lessons()
        skipped = lessons_module.skipped_lessons()
        err = capsys.readouterr().err
    finally:
        monkeypatch.undo()
        load_lessons.cache_clear()
    assert [lesson.name for lesson in good] == [lesson.name for lesson in load_lessons()]
    assert len(skipped) == 2
    assert "10-broken.toml" in skipped[0] and "invalid TOML" in skipped[0]
    assert "11-unknown-view.toml" in skipped[1] and "view" in skipped[1]
    notes = err.strip().splitlines()
    assert len(notes) == 2 and all(n.startswith("warp-explorer: note: lesson skipped: ") for n in notes)


def test_a_quoted_hbm_latency_says_whether_it_is_loaded_or_not():
    """Issue 31 item 11: HBM's latency was quoted as one figure here and another there; each quote names which
    (the unloaded latency of an idle GPU, or the loaded latency a busy kernel sees)."""
    import re

    from explorer.model.lessons import load_lessons

    for lesson in load_lessons():
        for k, step in enumerate(lesson.steps, 1):
            for lang, words in (("en", ("unloaded", "idle", "loaded")), ("ru", ("без нагрузки", "простаива", "под нагрузкой"))):
                text = " ".join(step.text(lang).split())
                for m in re.finditer(r"\b703\b", text):
                    around = text[max(0, m.start() - 120): m.end() + 120]
                    if "HBM" in around:
                        assert any(w in around for w in words), (lesson.name, k, lang, around)
