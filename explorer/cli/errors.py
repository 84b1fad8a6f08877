"""The CLI's own error types, in a module of their own so that subcommands can raise them
without importing ``explorer.cli.main`` (which imports the subcommands: a cycle)."""

from __future__ import annotations


class NoGpuError(Exception):
    """No usable NVIDIA GPU or driver: exit code 3 with one clear line."""
