"""Shared test set-up: Qt runs offscreen, hypothesis profiles, common fixtures."""

import os

pytest_plugins = ["tests.suite_timing"]  # slow tests last and budgeted, warm numba, frozen heap

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import settings  # noqa: E402

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
