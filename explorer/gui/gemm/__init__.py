"""The GEMM and Memory tabs: tiles, waves, roofline, bytes per level; the memory hierarchy and attention's traffic."""
