"""Warp Explorer: see how a GPU runs a kernel.

The core (``model``, ``occupancy``, ``sim``, ``gpu``) never imports Qt, so it runs
headless: in the CLI, in tests and on a GPU box with only numpy and cuda-python.
"""

__version__ = "0.1.0"
