"""What low-precision inputs and the accumulator's width do to a GEMM's result (Qt-free, numpy only).

A GEMM is M x N dot products of length K. Tensor Cores take their inputs in a narrow
format (TF32, BF16, FP16, FP8) and add the products into an FP32 accumulator. This
module measures, on seeded random data, how far such dot products land from the exact
(FP64) result as K grows, for each input format with FP32 accumulation, and, for
contrast, for FP16 inputs added in an FP16 accumulator.

Why the curves look as they do:

* **Input rounding.** A format with ``p`` significant bits rounds each element with a
  relative error of at most ``2^-p`` (round to nearest): BF16 keeps 8 bits (``2^-8``
  worst, about ``2^-9`` typical), FP16 and TF32 11, FP8 E4M3 4 and E5M2 3. A product of
  two rounded inputs carries both errors. With random signs these errors add like a
  random walk: the absolute error of the dot grows ~sqrt(K), as the dot itself does
  (inputs N(0, 1)), so the *relative* error stays flat near the format's rounding
  error. FP32 accumulation adds almost nothing on top.
* **Accumulation.** Each addition rounds the running sum to the accumulator's
  precision: an error of up to half an ulp *of the sum*, not of the addend. In FP32
  (24 bits) that stays tiny (~2^-24 sqrt(K) relative, sequentially). In FP16 (11 bits)
  it does not: once the running sum's ulp is comparable to the addends, each product
  loses most of its bits, and once the ulp reaches twice an addend the sum stops
  moving at all ("swamping": an FP16 sum of 0.25s stalls at 512, where the ulp is
  0.5 and 512.25 is a tie rounded back to even, whatever K is; with same-sign data,
  ``uniform``, the FP16 dot of K = 16,384 ends near half its true value). That is why Tensor Cores multiply narrow inputs but
  accumulate in FP32 (NVIDIA's mixed-precision training guidance; FP16-accumulate
  MMAs exist but are rarely used for long K).

What this is and is not:

* The inputs are drawn as FP32 data (``normal``: N(0, 1), random signs, the typical
  case of activations and weights; ``uniform``: U[0, 1), all positive, the worst case
  for swamping), the reference is the FP64 dot of those FP32 values, and each format
  rounds them once, to nearest, ties to even (:func:`quantize`, exact emulation in
  float64 bit arithmetic). N(0, 1) fits every format's range, so no per-tensor scale is
  modelled (real FP8 GEMMs scale each tensor into range first).
* The products of two rounded inputs are exact in FP32 (at most 2 x 11 significant
  bits), as in a Tensor Core. The FP32 sum is then taken **sequentially in K order**,
  one rounding per addition. Hardware does not do that: an MMA adds several products
  at once inside the unit, with its own order and internal width, and the exact order
  is undocumented. For FP8 on Hopper the DeepSeek-V3 technical report (DeepSeek-AI,
  2024, section 3.3.2) reports that the Tensor Cores' FP8 accumulation keeps only about
  14 bits on H800 GPUs, which is why they promote partial sums to FP32 CUDA-core
  registers every 128 elements of K. **This view does not model that**: its FP8 curves
  assume a full FP32 accumulator, a lower bound on the hardware's error.
* The FP16-accumulation contrast rounds each product to FP16 and then adds in FP16,
  sequentially (an FP16-accumulate MMA keeps the product exact before its rounding; the
  difference is one extra rounding per product, small beside the swamping).

Work is bounded: at most :data:`MAX_K` for K, :data:`MAX_SAMPLES` dot products, and
about :data:`MAX_BYTES` of working memory (:func:`memory_estimate`); more is refused with
an :class:`~explorer.model.errors.InputError` naming the field and the limit.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from explorer.model.errors import InputError, require_int, shown


@dataclass(frozen=True)
class Format:
    """A binary floating-point format: ``mantissa_bits`` stored (plus the implicit 1), smallest normal
    exponent ``min_exp`` (below it: subnormals with the same quantum), largest finite value ``max_value``;
    ``saturate``: a value past the largest finite one becomes it (FP8 E4M3 has no infinity; NVIDIA's
    ``cvt.rn.satfinite``), otherwise infinity (IEEE)."""

    name: str
    label: str
    mantissa_bits: int
    min_exp: int
    max_value: float
    saturate: bool = False

    @property
    def significant_bits(self) -> int:
        return self.mantissa_bits + 1

    @property
    def unit_roundoff(self) -> float:
        """Half an ulp of 1: the largest relative error of one rounding to nearest (normal range)."""
        return 2.0 ** -self.significant_bits


# Input formats (OCP 8-bit Floating Point Specification (OFP8) rev. 1.0, 2023, for E4M3 / E5M2;
# IEEE 754-2008 binary16; bfloat16 and TF32 as NVIDIA documents them: 8-bit exponent, 7 / 10 mantissa bits).
FORMATS: dict[str, Format] = {
    "fp32": Format("fp32", "FP32", 23, -126, float(np.finfo(np.float32).max)),
    "tf32": Format("tf32", "TF32", 10, -126, (2 - 2.0**-10) * 2.0**127),
    "bf16": Format("bf16", "BF16", 7, -126, (2 - 2.0**-7) * 2.0**127),
    "fp16": Format("fp16", "FP16", 10, -14, 65504.0),
    "fp8_e4m3": Format("fp8_e4m3", "FP8 E4M3", 3, -6, 448.0, saturate=True),
    "fp8_e5m2": Format("fp8_e5m2", "FP8 E5M2", 2, -14, 57344.0),
}

# the curves: (input format, accumulator); FP32 accumulation for every input, FP16 accumulation for contrast
CURVES: tuple[tuple[str, str], ...] = tuple((name, "fp32") for name in FORMATS) + (("fp16", "fp16"),)
DISTRIBUTIONS = ("normal", "uniform")

MIN_K = 16
MAX_K = 65536
MAX_SAMPLES = 1024
BYTES_PER_ELEMENT = 64  # estimate: the FP32 data and its FP64 copy (A, B), one format's rounded copies, products, sums
MAX_BYTES = 256 * 2**20
DEFAULT_K_MAX = 16384
DEFAULT_SAMPLES = 32
DEFAULT_SEED = 1


def quantize(x, fmt: str | Format) -> np.ndarray:
    """``x`` rounded to ``fmt``, to nearest with ties to even, returned as float64 (exactly representable).

    The rounding is done in float64 on the value's own exponent: the quantum of a
    value in [2^e, 2^(e+1)) is 2^(e - mantissa_bits), and below the smallest normal
    exponent the quantum stays that of the smallest normal (gradual underflow,
    subnormals). Dividing by a power of two is exact, and ``np.rint`` rounds half to
    even, so the result is the correctly rounded value for any float64 input (an
    FP32 input is one rounding away from it, as a hardware conversion is). Past the
    largest finite value: infinity (IEEE formats, the usual overflow threshold
    max + half an ulp rounding up to 2^(emax+1)) or the largest finite value
    (E4M3, saturating). NaN stays NaN, zeros keep their sign.
    """
    f = FORMATS[fmt] if isinstance(fmt, str) else fmt
    x = np.asarray(x, dtype=np.float64)
    a = np.abs(x)
    with np.errstate(invalid="ignore", over="ignore"):
        _, e = np.frexp(a)  # a = m * 2^e, m in [0.5, 1): the leading bit's exponent is e - 1
        exp = np.maximum(e.astype(np.int32) - 1, f.min_exp)
        shift = (f.mantissa_bits - exp).astype(np.int32)  # quantum = 2^-shift
        # a * 2^shift stays within float64 for every finite float64 a (shift > 0 only for small a)
        r = np.ldexp(np.rint(np.ldexp(a, shift)), -shift)
        special = ~np.isfinite(a) | (r > f.max_value)
        if special.any():
            r = np.where(r > f.max_value, f.max_value if f.saturate else np.inf, r)
            r = np.where(np.isnan(a), np.nan, r)
    return np.copysign(r, x)


@dataclass(frozen=True)
class PrecisionCurve:
    """One input format with one accumulator: the error at each K of :attr:`PrecisionStudy.ks`."""

    inputs: str  # a FORMATS key
    accumulator: str  # "fp32" | "fp16"
    label: str
    relative_error: tuple[float, ...]  # RMS error over the samples / RMS of the exact dot products
    abs_error: tuple[float, ...]  # RMS of (result - exact) over the samples
    inputs_only_relative_error: tuple[float, ...]  # the rounded inputs' dot in FP64: the inputs' share

    def at(self, ks: tuple[int, ...], k: int) -> float:
        return self.relative_error[ks.index(k)]


@dataclass(frozen=True)
class PrecisionStudy:
    """Error against FP64 of dot products of length K (powers of two from MIN_K to ``k_max``)."""

    ks: tuple[int, ...]
    samples: int
    distribution: str
    seed: int
    reference_rms: tuple[float, ...]  # RMS of the exact (FP64) dot products, per K
    curves: tuple[PrecisionCurve, ...]

    def curve(self, inputs: str, accumulator: str = "fp32") -> PrecisionCurve:
        for c in self.curves:
            if (c.inputs, c.accumulator) == (inputs, accumulator):
                return c
        raise KeyError((inputs, accumulator))

    def to_json(self) -> dict:
        return {
            "ks": list(self.ks), "samples": self.samples, "distribution": self.distribution, "seed": self.seed,
            "reference_rms": list(self.reference_rms),
            "accumulation_order": "sequential in K order (an emulation; hardware MMAs add in their own order "
                                  "and internal width)",
            "curves": [{"inputs": c.inputs, "accumulator": c.accumulator, "label": c.label,
                        "significant_bits": FORMATS[c.inputs].significant_bits,
                        "relative_error": list(c.relative_error), "abs_error": list(c.abs_error),
                        "inputs_only_relative_error": list(c.inputs_only_relative_error)} for c in self.curves],
        }


def memory_estimate(k_max: int, samples: int) -> int:
    """Bytes of working memory a study of ``samples`` dot products up to ``k_max`` needs (an estimate)."""
    return BYTES_PER_ELEMENT * k_max * samples


def check_inputs(k_max, samples, distribution: str = "normal", seed=DEFAULT_SEED) -> tuple[int, int, str, int]:
    """The study's inputs, validated: InputError naming the field and its limit otherwise."""
    k_max = require_int("k_max", k_max, lo=MIN_K, hi=MAX_K)
    if k_max & (k_max - 1):
        raise InputError("k_max", f"{k_max} is not a power of two (16, 32, ..., {MAX_K})")
    samples = require_int("samples", samples, lo=1, hi=MAX_SAMPLES)
    if distribution not in DISTRIBUTIONS:
        raise InputError("distribution", f"{shown(distribution)}; choose one of {', '.join(DISTRIBUTIONS)}")
    seed = require_int("seed", seed, lo=0, hi=2**32 - 1)
    need = memory_estimate(k_max, samples)
    if need > MAX_BYTES:
        fit = MAX_BYTES // (BYTES_PER_ELEMENT * k_max)
        raise InputError("samples", f"{samples} dot products of length {k_max} need about {need / 2**20:.0f} MiB, "
                                    f"above the limit of {MAX_BYTES // 2**20} MiB (at K = {k_max}: at most "
                                    f"{fit} samples)")
    return k_max, samples, distribution, seed


def _data(k_max: int, samples: int, distribution: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if distribution == "normal":
        a, b = rng.standard_normal((2, samples, k_max))
    else:
        a, b = rng.random((2, samples, k_max))
    # the data lives in memory as FP32; every format starts from those values, and so does the reference
    return a.astype(np.float32).astype(np.float64), b.astype(np.float32).astype(np.float64)


def reference_dots(a: np.ndarray, b: np.ndarray, ks: tuple[int, ...]) -> np.ndarray:
    """The reference: the FP64 dot of the first K elements, per K and sample -> (len(ks), S).

    FP64 (53 bits) rounds ~2^29 times finer than FP32, so its own error is invisible beside
    every curve's. ``einsum`` rather than a loop of ``np.dot``: the same FP64 products and
    sums, without starting the BLAS threads for hundreds of short vectors."""
    return np.stack([np.einsum("sk,sk->s", a[:, :k], b[:, :k]) for k in ks])


def _prefix(sums: np.ndarray, ks: tuple[int, ...]) -> np.ndarray:
    """The running sums after K terms, for each K -> (len(ks), S)."""
    return np.stack([sums[:, k - 1] for k in ks]).astype(np.float64)


def _rms(x: np.ndarray) -> np.ndarray:
    return np.sqrt(np.mean(np.square(x), axis=-1))


def accumulate_fp32(products: np.ndarray) -> np.ndarray:
    """Running sums along the last axis in FP32, one rounding per addition, in K order
    (``np.add.accumulate`` is sequential, unlike ``np.sum``'s pairwise summation)."""
    return np.add.accumulate(products.astype(np.float32), axis=-1, dtype=np.float32)


def accumulate_fp16(products: np.ndarray) -> np.ndarray:
    """Running sums in FP16: each product rounded to FP16, then each addition rounded to FP16, in K order."""
    return np.add.accumulate(products.astype(np.float16), axis=-1, dtype=np.float16)


def precision_study(k_max=DEFAULT_K_MAX, samples=DEFAULT_SAMPLES, distribution: str = "normal",
                    seed=DEFAULT_SEED) -> PrecisionStudy:
    """Error against FP64 of ``samples`` random dot products of length K = 16, 32, ..., ``k_max``, for each
    input format with FP32 accumulation and FP16 inputs with FP16 accumulation (:data:`CURVES`).

    One pass over K gives every K: the dot of length K is the running sum after K terms. About 70 ms at the
    defaults on one core; a result is kept (pure data) for the same inputs."""
    return _study(*check_inputs(k_max, samples, distribution, seed))


@functools.lru_cache(maxsize=8)
def _study(k_max: int, samples: int, distribution: str, seed: int) -> PrecisionStudy:
    ks = tuple(2**i for i in range(int(math.log2(MIN_K)), int(math.log2(k_max)) + 1))
    a, b = _data(k_max, samples, distribution, seed)
    ref = reference_dots(a, b, ks)
    ref_rms = _rms(ref)
    curves = []
    for inputs, acc in CURVES:
        qa, qb = quantize(a, inputs), quantize(b, inputs)
        products = qa * qb  # exact in FP64, and exact in FP32 too (at most 2 x 11 significant bits)
        sums = accumulate_fp32(products) if acc == "fp32" else accumulate_fp16(products)
        got = _prefix(sums, ks)
        inputs_only = reference_dots(qa, qb, ks)
        err = _rms(got - ref)
        fmt = FORMATS[inputs]
        curves.append(PrecisionCurve(
            inputs=inputs, accumulator=acc, label=f"{fmt.label} inputs, {acc.upper()} accumulation",
            relative_error=tuple(float(x) for x in err / ref_rms), abs_error=tuple(float(x) for x in err),
            inputs_only_relative_error=tuple(float(x) for x in _rms(inputs_only - ref) / ref_rms)))
    return PrecisionStudy(ks=ks, samples=samples, distribution=distribution, seed=seed,
                          reference_rms=tuple(float(x) for x in ref_rms), curves=tuple(curves))
