"""GEMM on the hardware and the memory hierarchy (Qt-free; every result is plain data)."""
