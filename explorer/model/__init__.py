"""Pure data: GPU catalog (``catalog``), scenario (``scenario``: GPU + launch + workload +
policy + seed), workload, streams of launches, the one input-error type (``errors``),
and the one way a file is written (``atomic``: it names a failed write with ``errors``).

Import from the modules themselves; the package imports nothing.
"""
