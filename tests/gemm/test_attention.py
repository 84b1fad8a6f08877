"""Attention: byte and FLOP counts checked by formula; naive vs flash side by side."""

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
    assert c.naive.hbm_bytes == (4 * n * d + 4 * n * n) * b * inst
    assert c.flash.hbm_bytes == ((2 + 2 * math.ceil(n / br)) * n * d * b + 4 * n) * inst
    assert c.naive.hbm_bytes == naive_hbm_bytes(n, d, b, inst)
    assert c.flash.hbm_bytes == flash_hbm_bytes(n, d, b, br, 4, inst)
    assert c.naive.matmul_flops == c.flash.matmul_flops == 4 * n * n * d * inst
    assert c.naive.flops == 4 * n * n * d * inst + 5 * n * n * inst
    rescale = (n * d * math.ceil(n / c.block_kv) + n * d) * inst
    assert c.flash.flops == c.naive.flops + rescale
    assert c.naive.arithmetic_intensity == pytest.approx(c.naive.flops / c.naive.hbm_bytes)
    assert c.hbm_bytes_if_l2_holds_kv == (4 * n * d * b + 4 * n) * inst


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
    assert c.flash.hbm_bytes < c.naive.hbm_bytes
    assert c.flash.modelled_hbm_bytes == c.hbm_bytes_if_l2_holds_kv  # the heads in flight fit in L2
    assert c.flash.arithmetic_intensity > c.naive.arithmetic_intensity
    assert c.naive.bound == "memory" and c.flash.bound == "compute"
    assert c.speedup > 2
    d = c.to_json()
    for key in ("naive", "flash", "hbm_reduction", "speedup", "assumptions"):
        assert key in d
    for key in ("hbm_bytes", "arithmetic_intensity", "predicted_seconds", "flops", "steps"):
        assert key in d["naive"] and key in d["flash"]


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
