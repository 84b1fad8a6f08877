"""The precision study (explorer.gemm.precision) against independent references: numpy's own FP16 rounding,
hand-computed BF16 / TF32 / FP8 cases, numpy's FP64 dot and a plain Python loop for the accumulators."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.gemm.precision import (
    CURVES,
    FORMATS,
    MAX_K,
    MAX_SAMPLES,
    accumulate_fp16,
    accumulate_fp32,
    precision_study,
    quantize,
)
from explorer.model.errors import InputError

F32 = st.floats(width=32, allow_nan=False)


@given(st.lists(F32, min_size=1, max_size=64))
def test_fp16_rounding_is_numpys(values):
    x = np.array(values, dtype=np.float32)
    with np.errstate(over="ignore"):
        assert np.array_equal(quantize(x, "fp16"), x.astype(np.float16).astype(np.float64))


def test_fp16_edges_are_numpys():
    edges = np.array([0.0, -0.0, 65504, 65519.99, 65520, -65520, 1e9, 2**-24, 2**-25, 1.5 * 2**-25, 2**-26,
                      2**-14, 2**-14 - 2**-25, 1 + 2**-11, 1 + 3 * 2**-11, 2049, 2051, np.inf, -np.inf], dtype=np.float32)
    rng = np.random.default_rng(0)
    many = (rng.standard_normal(50_000) * 10.0 ** rng.integers(-9, 6, 50_000)).astype(np.float32)
    for x in (edges, many):
        with np.errstate(over="ignore"):
            assert np.array_equal(quantize(x, "fp16"), x.astype(np.float16).astype(np.float64))
    assert np.isnan(quantize(np.float32("nan"), "fp16"))
    assert math.copysign(1, quantize(-0.0, "fp16")) == -1


def test_bf16_and_tf32_by_hand():
    assert quantize(1 + 2**-8, "bf16") == 1.0  # a tie: to the even neighbour, 1.0
    assert quantize(1 + 3 * 2**-8, "bf16") == 1 + 2**-6  # a tie: to the even neighbour above
    assert quantize(1 + 2**-8 + 2**-20, "bf16") == 1 + 2**-7  # past the tie: up
    assert quantize(3.0, "bf16") == 3.0 and quantize(-(1 + 2**-7), "bf16") == -(1 + 2**-7)
    assert quantize(3.4e38, "bf16") == math.inf  # past (2 - 2^-8) * 2^127: the exponent runs out
    assert quantize(2**-133, "bf16") == 2**-133  # a subnormal: FP32's exponent range
    assert quantize(1 + 2**-11, "tf32") == 1.0 and quantize(1 + 3 * 2**-11, "tf32") == 1 + 2**-9
    assert quantize(1e30, "tf32") == pytest.approx(1e30, rel=2**-11)


def test_fp8_e4m3_by_hand():
    q = lambda v: float(quantize(v, "fp8_e4m3"))  # noqa: E731
    assert q(448) == 448 and q(449) == 448 and q(464) == 448  # 464 is the tie with 480: to even, 448
    assert q(1e6) == 448 and q(-1e6) == -448 and q(math.inf) == 448  # no infinity: saturates (satfinite)
    assert q(2**-9) == 2**-9  # the smallest subnormal
    assert q(2**-10) == 0.0  # half of it: a tie, to even (zero)
    assert q(3 * 2**-11) == 2**-9  # past the tie
    assert q(1.0625) == 1.0 and q(1.1875) == 1.25  # ties at 3 mantissa bits: to even
    assert q(2**-6) == 2**-6 and q(7 * 2**-9) == 7 * 2**-9  # smallest normal, largest subnormal
    assert math.isnan(q(math.nan))
    assert float(quantize(57344, "fp8_e5m2")) == 57344 and quantize(61440, "fp8_e5m2") == math.inf
    assert float(quantize(2**-16, "fp8_e5m2")) == 2**-16


def test_formats_significant_bits():
    assert {n: f.significant_bits for n, f in FORMATS.items()} == {
        "fp32": 24, "tf32": 11, "bf16": 8, "fp16": 11, "fp8_e4m3": 4, "fp8_e5m2": 3}


def test_accumulators_are_sequential():
    rng = np.random.default_rng(3)
    p = quantize(rng.standard_normal((3, 300)), "fp16")
    s32, s16 = accumulate_fp32(p), accumulate_fp16(p)
    for row in range(3):
        acc32, acc16 = np.float32(0), np.float16(0)
        for k in range(300):
            acc32 = np.float32(acc32 + np.float32(p[row, k]))
            acc16 = np.float16(np.float32(acc16) + np.float32(np.float16(p[row, k])))
            assert s32[row, k] == acc32 and s16[row, k] == acc16


def test_fp16_accumulation_swamps():
    """Same-sign addends of 0.25: the FP16 sum stops at 512 (its ulp, 0.5, is twice the addend: 512.25 is a
    tie, rounded to the even 512)."""
    s = accumulate_fp16(np.full((1, 20000), 0.25))
    assert s[0, 2046] == 511.75 and s[0, 2047] == 512 and s[0, -1] == 512
    assert accumulate_fp32(np.full((1, 20000), 0.25))[0, -1] == 5000


def test_reference_is_numpys_fp64_dot():
    study = precision_study(k_max=1024, samples=4)
    from explorer.gemm.precision import _data, reference_dots

    a, b = _data(1024, 4, "normal", 1)
    ref = reference_dots(a, b, study.ks)
    for i, k in enumerate(study.ks):
        for s in range(4):
            assert ref[i, s] == pytest.approx(np.dot(a[s, :k], b[s, :k]), rel=1e-13, abs=1e-13)
    assert study.reference_rms == pytest.approx(np.sqrt(np.mean(ref**2, axis=1)))


@pytest.mark.parametrize("distribution", ["normal", "uniform"])
def test_errors_against_fp64(distribution):
    study = precision_study(distribution=distribution)
    assert study.ks == tuple(2**i for i in range(4, 15))
    assert [(c.inputs, c.accumulator) for c in study.curves] == list(CURVES)
    fp32 = study.curve("fp32")
    # pure accumulation error grows with K, stays near FP32's rounding
    assert fp32.abs_error[-1] > 4 * fp32.abs_error[0]
    assert fp32.relative_error[-1] < 2**-16
    # every narrow input's error is its inputs' rounding plus at most about FP32's own accumulation error
    for name in ("tf32", "bf16", "fp16", "fp8_e4m3", "fp8_e5m2"):
        c = study.curve(name)
        assert all(abs(e - i) <= 0.1 * i + 2 * acc for e, i, acc in
                   zip(c.relative_error, c.inputs_only_relative_error, fp32.relative_error)), name
    # fewer bits, more error: E5M2 > E4M3 > BF16 > FP16 = TF32 (same 11 bits) > FP32
    order = [study.curve(n).relative_error[-1] for n in ("fp8_e5m2", "fp8_e4m3", "bf16", "fp16", "fp32")]
    assert order == sorted(order, reverse=True)
    assert study.curve("tf32").relative_error == study.curve("fp16").relative_error
    # FP16 accumulation at large K is far worse than FP32 accumulation of the same FP16 inputs
    acc16, acc32 = study.curve("fp16", "fp16"), study.curve("fp16")
    assert acc16.relative_error[-1] > 20 * acc32.relative_error[-1]
    assert acc16.relative_error[-1] > 5 * acc16.relative_error[0]


def test_bf16_input_error_is_near_its_rounding():
    """8 significant bits: a product of two rounded N(0,1) values is off by ~2^-9 x sqrt(2/3) RMS relative."""
    c = precision_study().curve("bf16")
    assert all(2**-10 < e < 2**-7 for e in c.relative_error)


def test_seeded_and_json():
    a, b = precision_study(k_max=64, samples=3, seed=7), precision_study(k_max=64, samples=3, seed=7)
    assert a == b and a != precision_study(k_max=64, samples=3, seed=8)
    d = a.to_json()
    assert d["ks"] == [16, 32, 64] and len(d["curves"]) == len(CURVES)
    assert d["curves"][2]["significant_bits"] == 8 and "sequential" in d["accumulation_order"]


def test_input_limits_are_refused_with_the_field():
    with pytest.raises(InputError, match=r"^k_max: .*maximum of 65536"):
        precision_study(k_max=2 * MAX_K)
    with pytest.raises(InputError, match=r"^k_max: 8 is below the minimum of 16"):
        precision_study(k_max=8)
    with pytest.raises(InputError, match=r"^k_max: 1000 is not a power of two"):
        precision_study(k_max=1000)
    with pytest.raises(InputError, match=r"^samples: .*maximum of 1024"):
        precision_study(samples=MAX_SAMPLES + 1)
    with pytest.raises(InputError, match=r"^samples: .*above the limit of 256 MiB.*at most 64 samples"):
        precision_study(k_max=65536, samples=65)
    with pytest.raises(InputError, match=r"^distribution: "):
        precision_study(distribution="cauchy")
    with pytest.raises(InputError, match=r"^seed: "):
        precision_study(seed=-1)
