"""The GEMM model's sentences in the interface language, checked against the real model's output.

Every plan below runs the core (``plan_gemm``); each sentence it writes is a record
(``explorer.texts.message.Message``) the window renders: in English the core's own
words, in Russian every figure kept and nothing left in English.
"""

from __future__ import annotations

import re

import pytest

from explorer.gemm import plan_gemm
from explorer.gui.gemm.model_texts import model_text
from explorer.gui.shell.i18n import install_translators

CYRILLIC = re.compile("[а-яА-Я]")

# (gpu, m, n, k, dtype, knobs): every path, and a plan for each bound term the model can name
PLANS = [
    ("H100", 4096, 4096, 4096, "bf16", {}),  # wgmma, Tensor Cores
    ("H100", 8192, 8192, 64, "bf16", {}),  # wgmma, HBM
    ("H100", 4096, 4096, 4096, "bf16", {"path": "mma.sync"}),  # mma.sync on Hopper, L2
    ("A100", 4096, 4096, 4096, "bf16", {}),  # mma.sync, Tensor Cores
    ("B200", 4096, 4096, 4096, "bf16", {}),  # tcgen05, L2
    ("B200", 256, 256, 8192, "bf16", {"path": "mma.sync"}),  # shared memory
    ("H100", 4096, 4096, 4096, "fp32", {}),  # SIMT, issue
    ("V100", 4096, 4096, 4096, "fp16", {}),  # LDG + STS
    ("H100", 4096, 4096, 4096, "tf32", {"path": "mma.sync"}),  # m16n8k8: "simulated as that many"
    ("A100", 128, 128, 64, "bf16", {}),  # a short K loop: fill and epilogue
    ("A100", 1024, 1024, 8192, "fp16", {"stages": 1}),  # nothing in flight: latency
    ("H100", 4096, 4096, 4096, "bf16", {"tile": "64x256x64"}),  # the pingpong note
    ("A100", 896, 4864, 4096, "fp16", {"tile": "128x256x64"}),  # the warps note
    ("H100", 3968, 4096, 4096, "bf16", {}),  # 31 tile rows: the cluster padding note
]


def plans():
    return [plan_gemm(g, m, n, k, dt, **kw) for g, m, n, k, dt, kw in PLANS]


@pytest.fixture
def russian(qapp):
    install_translators(qapp, "ru")
    yield
    install_translators(qapp, "en")


def test_the_plans_cover_every_bound_and_note():
    ps = plans()
    assert {p.bound_term for p in ps} == {"tensor_core", "hbm", "l2", "shared", "issue", "fill_and_epilogue",
                                          "latency"}
    notes = " ".join(n for p in ps for n in p.notes)
    for part in ("warps do not suit", "pingpong schedule", "cluster pads"):
        assert part in notes, part


def test_english_is_the_cores_own_words(qapp):
    from explorer.texts.message import Message

    install_translators(qapp, "en")
    for p in plans():
        for sentence in (p.bound_reason, *p.notes, *p.simulation_differences):
            assert isinstance(sentence, Message) and model_text(sentence) == sentence
    # the window's words: the unit symbol, and no JSON key in a sentence
    d = plans()[0].simulation_differences
    assert " µs of pipeline fill" in d[0] and "mainloop_at_simulator_clock" not in " ".join(d)


def test_russian_keeps_every_number(russian):
    for p in plans():
        for english in (p.bound_reason, *p.notes, *p.simulation_differences):
            shown = model_text(english)
            assert shown != english and CYRILLIC.search(shown), f"no Russian for {english!r}"
            for number in re.findall(r"\d+", english):
                assert number in shown, f"{number} lost in {shown!r}"


def test_a_plain_sentence_is_shown_as_written(russian):
    assert model_text("Something new: it happened.") == "Something new: it happened."


def test_the_record_travels_with_the_sentence():
    """JSON and pickles keep the English text; the record comes back with a pickle (a worker's plan)."""
    import json
    import pickle

    p = plans()[0]
    back = pickle.loads(pickle.dumps(p.bound_reason))
    assert back == p.bound_reason and back.code == p.bound_reason.code and back.figures == p.bound_reason.figures
    assert json.loads(json.dumps(p.to_json()))["bound_reason"] == str(p.bound_reason)
    assert p.bound_reason.to_json()["figures"]["term"] == p.bound_term


# the FlashAttention comparison (Memory tab): K/V fitting L2 and not, S/P fitting L2 and not, a blocks note
ATTENTION = [("H100", 4096, 128, 1, 1, "fp16"), ("H100", 32768, 128, 16, 4, "bf16"), ("A100", 1024, 64, 1, 1, "fp32"),
             ("V100", 4096, 256, 1, 1, "fp16"), ("B200", 8192, 128, 8, 2, "fp8")]


def attention_sentences() -> list[str]:
    from explorer.gemm.attention import compare_attention
    out = []
    for g, n, d, heads, batch, dt in ATTENTION:
        c = compare_attention(g, n, d, heads=heads, batch=batch, dtype=dt)
        out += list(c.assumptions) + list(c.notes)
    return out


def test_the_attention_cases_cover_every_variant():
    text = " ".join(attention_sentences())
    for part in ("so the K/V re-reads come from L2", "so every K/V re-read comes from HBM", "hits L2 (they fit",
                 "comes from HBM (they do not fit", "shared memory at head size"):
        assert part in text, part


def test_the_attention_assumptions_in_english_are_the_cores_own_words(qapp):
    install_translators(qapp, "en")
    for sentence in attention_sentences():
        assert model_text(sentence) == sentence


def test_the_attention_assumptions_in_russian_keep_every_number(russian):
    """Issue 31 item 14: the assumptions under the FlashAttention table were English in a Russian window."""
    for english in attention_sentences():
        shown = model_text(english)
        assert shown != english and CYRILLIC.search(shown), f"no Russian pattern for {english!r}"
        for number in re.findall(r"\d+", english):
            assert number in shown, f"{number} lost in {shown!r}"
