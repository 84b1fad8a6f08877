"""Pure data: GPU catalog (``catalog``), scenario (``scenario``: GPU + launch + workload +
policy + seed), workload, streams of launches, guided lessons as data (``lessons``), the
one input-error type (``errors``), and the one way a file is written (``atomic``, which
names a failed write with ``errors``).

Import from the modules themselves; the package imports nothing.
"""
