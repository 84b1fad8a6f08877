"""Executor tests: the SASS tests' isolated caches apply (compiling needs NVRTC and nvdisasm)."""

from tests.sass.conftest import _isolated_program_cache  # noqa: F401 - the session-wide fixture
