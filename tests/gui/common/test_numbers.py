"""The window's numbers are what QLocale writes, in English and in Russian, and big integers are exact."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QLocale

from explorer.texts import numbers
from explorer.texts.numbers import bandwidth_text, num, pct, seconds_text, si_bytes

ENGLISH = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
values = st.one_of(st.floats(-1e12, 1e12, allow_nan=False), st.integers(-10**6, 10**6).map(lambda i: i / 8),
                   st.decimals(-10**6, 10**6, places=3).map(float))


@settings(max_examples=500, deadline=None)
@given(values, st.integers(0, 4))
def test_num_writes_what_qlocale_writes(value, decimals):
    """Grouped digits and ties rounded away from zero on the exact binary value, as QLocale does."""
    assert num(value, decimals) == ENGLISH.toString(float(value), "f", decimals)


@settings(max_examples=200, deadline=None)
@given(st.integers(-2**62, 2**62))
def test_whole_numbers_are_grouped_like_qlocale(value):
    assert num(value) == ENGLISH.toString(value)


def test_integers_beyond_64_bits_are_written_not_refused():
    # QLocale.toString raises OverflowError here: the scenario panel's launch summary once did
    blocks = 2147483647 * 65535 * 65535
    assert num(blocks) == f"{blocks:,}" and num(blocks * 1024) == f"{blocks * 1024:,}"


def test_percentages_drop_a_zero_fraction():
    assert [pct(x) for x in (0.625, 0.5, 1 / 3, 0.0625, 1.0)] == ["62.5%", "50%", "33.3%", "6.3%", "100%"]
    assert pct(0.005, 0) == "1%" and pct(0.994, 0) == "99%"


def test_russian_style(qapp):
    from explorer.gui.shell.i18n import install_translators

    try:
        install_translators(qapp, "ru")
        ru = QLocale()
        assert num(61440) == ru.toString(61440) == "61\xa0440"
        assert num(97.45, 1) == ru.toString(97.45, "f", 1)
        assert pct(0.975) == "97,5%"
        assert si_bytes(1.53e9) == "1,53 ГБ" and bandwidth_text(3350) == "3,35 ТБ/с"
        assert seconds_text(2.5e-6) == "2,5 мкс"
        # the CLI's English, whatever the window's language (the gemm command's durations)
        assert seconds_text(2.5e-6, style=numbers.ENGLISH) == "2.5 µs"
        assert seconds_text(1234.5e-6, style=numbers.ENGLISH) == "1.23 ms"
    finally:
        install_translators(qapp, "en")
    assert numbers.num(1234.5, 1) == "1,234.5" and si_bytes(59e6) == "59 MB"


# the CLDR plural categories, written out by hand: English one/other, Russian one/few/many
RUSSIAN_FORMS = {1: "блок", 21: "блок", 101: "блок", 1001: "блок",
                 2: "блока", 3: "блока", 4: "блока", 22: "блока", 34: "блока", 102: "блока",
                 0: "блоков", 5: "блоков", 9: "блоков", 11: "блоков", 12: "блоков", 14: "блоков", 19: "блоков",
                 20: "блоков", 25: "блоков", 111: "блоков", 112: "блоков", 114: "блоков"}


def test_plural_forms_follow_each_language():
    from explorer.texts.numbers import counted, plural

    for n, word in RUSSIAN_FORMS.items():
        assert plural(n, "блок|блока|блоков") == word, n
    assert [plural(n, "block|blocks") for n in (0, 1, 2, 11, 21)] == ["blocks", "block", "blocks", "blocks", "blocks"]
    assert plural(7, "SM") == "SM"  # a word without forms
    assert counted(1, "block|blocks") == "1 block" and counted(1056, "block|blocks") == "1,056 blocks"
    assert counted(-2, "блок|блока|блоков") == "-2 блока"


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=0, max_value=3))
def test_figures_in_reads_back_what_num_wrote(n, decimals):
    """A number ``num`` writes (English, or Russian: "1 056,33") is the figure ``figures_in`` finds."""
    from explorer.texts.numbers import figures_in

    value = n / 10**decimals
    text = f"Waves: {num(value, decimals)} (of it)"
    assert figures_in(text) == {float(f"{value:.{decimals}f}")}
    previous = numbers._source
    try:
        numbers.set_style_source(lambda: ("\u00a0", ",", None))
        assert figures_in(f"волн: {num(value, decimals)};") == {float(f"{value:.{decimals}f}")}
    finally:
        numbers.set_style_source(previous)


def test_figures_in_skips_names_and_keeps_lists_apart():
    from explorer.texts.numbers import figures_in

    assert figures_in("H100: 1,056 blocks x8, 1.33 waves; 7, 19 and 75%.", english=True) == {1056, 1.33, 7, 19, 75}
    assert figures_in("sm_90 and FP8 and 2x1") == set()
