"""Attention: byte and FLOP counts checked by formula; naive vs flash side by side; bytes, time and bound agree."""

import math

import pytest

from explorer.gemm import compare_attention, flash_hbm_bytes, naive_hbm_bytes
from explorer.model.errors import InputError


@pytest.mark.parametrize("n, d", [(1024, 64), (4096, 128), (1000, 80), (8192, 64)])
def test_bytes_and_flops_by_formula(n, d):
    heads, batch, b = 8, 2, 2
    c = compare_attention("H100", n, d, heads=heads, batch=batch, dtype="fp16")
    inst = heads * batch
    br = c.block_q
    assert c.naive.global_bytes == (4 * n * d + 4 * n * n) * b * inst
    assert c.flash.global_bytes == ((2 + 2 * math.ceil(n / br)) * n * d * b + 4 * n) * inst
    assert c.naive.global_bytes == naive_hbm_bytes(n, d, b, inst)
    assert c.flash.global_bytes == flash_hbm_bytes(n, d, b, br, 4, inst)
    assert c.naive.matmul_flops == c.flash.matmul_flops == 4 * n * n * d * inst
    assert c.naive.flops == 4 * n * n * d * inst + 5 * n * n * inst
    rescale = (n * d * math.ceil(n / c.block_kv) + n * d) * inst
    assert c.flash.flops == c.naive.flops + rescale
    assert c.naive.arithmetic_intensity == pytest.approx(c.naive.flops / c.naive.hbm_bytes)
    # HBM bytes: K and V of the heads in flight fit H100's usable 25 MB of L2 here, so the flash kernel's K/V
    # re-reads come from L2 and HBM sees Q, K, V once plus O and the logsumexp
    assert c.flash.reuse_level == "l2"
    assert c.flash.hbm_bytes == (4 * n * d * b + 4 * n) * inst
    # naive: S (N^2 x 2 B for all 16 heads) fits 25 MB only at N = 1000/1024: then its re-read hits L2
    s_bytes = n * n * b * inst
    fits = s_bytes <= 50 * 2**20 // 2
    assert c.naive.reuse_level == ("l2" if fits else "hbm")
    assert c.naive.hbm_bytes == c.naive.global_bytes - (2 * s_bytes if fits else 0)


def test_naive_steps_are_the_three_kernels():
    n, d, b = 2048, 64, 2
    c = compare_attention("A100", n, d)
    s1, s2, s3 = c.naive.steps
    assert (s1.read_bytes, s1.write_bytes) == (2 * n * d * b, n * n * b)
    assert (s2.read_bytes, s2.write_bytes) == (n * n * b, n * n * b)
    assert (s3.read_bytes, s3.write_bytes) == (n * n * b + n * d * b, n * d * b)
    assert s2.exps == n * n and c.naive.kernels == 3 and c.flash.kernels == 1
    assert c.naive.predicted_seconds == pytest.approx(sum(s.seconds for s in c.naive.steps))


def test_flash_wins_on_long_sequences():
    c = compare_attention("H100", 4096, 128, heads=16)
    assert c.flash.hbm_bytes < c.naive.hbm_bytes and c.flash.global_bytes < c.naive.global_bytes
    assert c.flash.arithmetic_intensity > c.naive.arithmetic_intensity
    assert c.naive.bound == "memory" and c.flash.bound == "compute"
    assert c.speedup > 2
    d = c.to_json()
    for key in ("naive", "flash", "hbm_reduction", "global_reduction", "speedup", "assumptions",
                "kv_working_set_bytes", "l2_usable_bytes"):
        assert key in d
    for key in ("hbm_bytes", "global_bytes", "reuse_level", "arithmetic_intensity", "predicted_seconds", "flops",
                "steps"):
        assert key in d["naive"] and key in d["flash"]


def test_the_lecture_case_bytes_time_and_bound_agree():
    """Issue 14 item 11: 69.2 MB at 10.4 us would be 6.6 TB/s on a 3.35 TB/s part; the HBM bytes are the ones
    that set the time, and the bytes through L2 are charged at the L2's bandwidth."""
    n, d, b = 4096, 128, 2
    c = compare_attention("H100", n, d, dtype="fp16")
    fl = c.flash
    assert fl.global_bytes == 66 * n * d * b + 4 * n  # 69.2 MB: K and V once per query block of 128 rows
    assert fl.hbm_bytes == 4 * n * d * b + 4 * n and fl.reuse_level == "l2"  # 4.21 MB: the rest comes from L2
    hbm_bw, l2_bw = 0.9 * 3350e9, 6256 * 1980e6
    for cost in (c.naive, fl):
        for s in cost.steps:  # every kernel moves its bytes within its time at each level's bandwidth
            assert s.hbm_bytes / s.seconds <= hbm_bw * (1 + 1e-9)
            assert s.bytes / s.seconds <= l2_bw * (1 + 1e-9)
    assert fl.bound == "compute" and fl.hbm_bytes / fl.predicted_seconds < 0.5 * hbm_bw
    # the naive kernels are bound by HBM: S and P (33.5 MB each) do not fit the usable 25 MB of L2
    assert c.naive.reuse_level == "hbm" and c.naive.hbm_bytes == c.naive.global_bytes
    assert c.naive.bound == "memory"
    assert c.naive.predicted_seconds == pytest.approx(c.naive.hbm_bytes / hbm_bw, rel=1e-9)
    assert c.hbm_reduction == pytest.approx(c.naive.hbm_bytes / fl.hbm_bytes)
    assert c.global_reduction == pytest.approx(2.0, abs=0.01)


def test_without_l2_reuse_every_re_read_is_hbm():
    # T4: 4 MB of L2 (2 MB usable); K and V of one head at N = 8192, d = 128 are 4 MB
    c = compare_attention("T4", 8192, 128, dtype="fp16")
    assert c.kv_working_set_bytes > c.l2_usable_bytes
    assert c.flash.reuse_level == "hbm" and c.flash.hbm_bytes == c.flash.global_bytes


def test_shared_memory_fit_and_defaults_shrink():
    c = compare_attention("T4", 2048, 256)
    assert c.flash.shared_bytes_per_block <= 65536 and c.notes
    with pytest.raises(InputError) as err:
        compare_attention("T4", 2048, 256, block_q=128, block_kv=128)
    assert err.value.field == "block_kv" and "65536" in err.value.message


@pytest.mark.parametrize("kwargs, field", [
    ({"seq_len": 0}, "seq_len"), ({"head_dim": -1}, "head_dim"), ({"heads": 0}, "heads"),
    ({"dtype": "fp64"}, "dtype"), ({"block_q": 8}, "block_q"),
])
def test_bad_input(kwargs, field):
    args = {"seq_len": 1024, "head_dim": 64}
    args.update(kwargs)
    with pytest.raises(InputError) as err:
        compare_attention("H100", **args)
    assert err.value.field == field
