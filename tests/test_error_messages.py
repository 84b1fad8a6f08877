"""The core's validation errors as records (explorer/texts/errors.py), Qt-free: English by hand, the InputError line."""

from __future__ import annotations

import pickle

import pytest

from explorer.model.errors import LONG_PART, InputError, cut_long, require_int
from explorer.texts.errors import ERRORS, quoting
from explorer.texts.message import Message

RUSSIAN = ("\u00a0", ",", None)


@pytest.mark.parametrize("code,figures,text", [
    ("below_minimum", {"value": "-1", "limit": 0}, "-1 is below the minimum of 0"),
    ("above_maximum", {"value": 2.5, "limit": 2}, "2.5 is above the maximum of 2"),  # "{value}": str() of a float
    ("outside_rate", {"value": 2.0}, "2.0 is outside the range 0 to 1"),
    ("above_maximum_us", {"value": 2e6, "limit": 1e6}, "2e+06 is above the maximum of 1e+06 us"),  # "{value:g}"
    ("below_minimum_ms", {"value": 0.5, "limit": 1.0}, "0.5 is below the minimum of 1 ms"),
    ("above_maximum_block", {"value": "2048", "limit": 1024, "max": 1024},
     "2048 is above the maximum of 1024 (limiter: warps; a block holds at most 1024 threads)"),
    ("registers_per_block", {"regs": 255, "threads": 1024, "need": 262144, "limit": 65536},
     "255 registers x 1024 threads needs 262144 registers per block, above the limit of 65536 (limiter: registers)"),
    ("arg_out_of_range", {"value": 2**40, "type": "int", "lo": -2**31, "hi": 2**31 - 1},
     "1099511627776 is outside int's range [-2147483648, 2147483647]"),
    ("cluster_above_limit", {"cluster": "4x4", "ctas": 16, "limit": 8},
     "4x4 = 16 CTAs, above the portable cluster limit of 8"),
])
def test_english_is_the_template_filled_as_the_f_string_did(code, figures, text):
    message = ERRORS(code, **figures)
    assert message == text and isinstance(message, Message) and (message.code, message.figures) == (code, figures)


def test_numbers_take_another_style_but_ints_are_not_grouped():
    assert ERRORS("below_minimum_ms", value=0.5, limit=1.0).translated(style=RUSSIAN) == \
        "0,5 is below the minimum of 1 ms"
    assert ERRORS("registers_above_limit", value=300, limit=65536).translated(style=RUSSIAN) == \
        "300 is above the limit of 65536 (limiter: registers)"


def test_quoting_puts_a_single_quoted_value_in_the_quoted_template():
    assert quoting("not_integer", "'12a'").code == "not_integer"
    assert quoting("not_integer", "'12a'").figures == {"value": "12a"}
    for shown in ('"it\'s"', "[1.5]", "'" + "9" * 70 + "... (5,000 chars)", "'"):
        message = quoting("not_integer", shown)
        assert message.code == "not_integer_shown" and message == f"{shown} is not an integer"


def test_require_int_raises_records_with_the_same_line():
    with pytest.raises(InputError) as info:
        require_int("launch.registers_per_thread", "300", lo=0, hi=255)
    assert str(info.value) == "launch.registers_per_thread: 300 is above the maximum of 255"
    assert info.value.message.code == "above_maximum" and info.value.message.figures == {"value": "300", "limit": 255}
    with pytest.raises(InputError) as info:
        require_int("seed", "x1")
    assert str(info.value) == "seed: 'x1' is not an integer" and info.value.message.figures == {"value": "x1"}


def test_a_message_stays_a_record_unless_it_is_cut():
    message = ERRORS("below_minimum", value="-1", limit=0)
    assert cut_long(message) is message and InputError("regs", message).message is message
    long = quoting("not_size", repr("a, " * LONG_PART))
    cut = InputError("grid", long).message
    assert not isinstance(cut, Message) and len(cut) < len(long) and "characters)" in cut


def test_a_record_survives_pickling():
    message = ERRORS("warp_tile_divides", wt="48x64", tile="128x128")
    again = pickle.loads(pickle.dumps(message))
    assert again == message and again.code == "warp_tile_divides" and again.figures == message.figures


def test_an_unknown_code_is_refused():
    with pytest.raises(KeyError):
        ERRORS("no_such_code")
