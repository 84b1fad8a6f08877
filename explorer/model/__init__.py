"""Pure data: GPU catalog (``catalog``), scenario (``scenario``: GPU + launch + workload +
policy + seed), workload, streams of launches, the one input-error type (``errors``).

Import from the modules themselves. The package imports nothing, so that a leaf such
as ``explorer.model.errors`` (which ``explorer.atomic`` needs) can be imported without
loading the scenario, which itself writes through ``explorer.atomic``.
"""
