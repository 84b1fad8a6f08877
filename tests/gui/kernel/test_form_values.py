"""The kernel form's defaults (Qt-free): integers named as lengths get the buffers' count, others 1."""

from explorer.gui.kernel.form_values import DEFAULT_COUNT, ParamRow, default_texts, is_length


def row(name, dtype="i32", pointer=False):
    return ParamRow(name=name, type_text="int", pointer=pointer, dtype=dtype, lanes=1, const=False)


def test_lengths_take_the_count_and_other_integers_one():
    for name in ("n", "N", "n2", "len", "length", "size", "count", "num_items", "in_size", "nelems", "n_rows"):
        assert is_length(name), name
    for name in ("stride", "k", "step", "seed", "width", "offset", "mode"):
        assert not is_length(name), name
    texts = default_texts([row("n"), row("stride"), row("scale", "f32"), row("x", "f32", pointer=True)])
    assert texts["n"] == str(DEFAULT_COUNT) and texts["stride"] == "1" and texts["scale"] == "1.0"
    assert texts["x.count"] == str(DEFAULT_COUNT)
