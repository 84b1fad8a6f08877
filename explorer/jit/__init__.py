"""The numba runtime the simulator's loop (``explorer.sim``) and the executor's interpreter
(``explorer.sass.execute``) are both compiled with, below both of them.

``runtime``: the CPU target numba compiles for, where its on-disk cache goes, ``njit`` (or the plain
Python function without numba); ``seed``: the cache a build ships so a fresh install does not compile;
``warm``: compile both once, ahead, in two child processes.

Why a package of its own: the loop and the interpreter both need the same target and cache folder,
and the interpreter is imported by the simulator, so neither may own them. Importing this package
imports nothing; ``explorer.jit.runtime`` sets numba's target before numba is first imported.
"""
