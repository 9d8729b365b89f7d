"""Shared test settings.

Hypothesis draws its examples from a fixed seed (``derandomize=True``), so a
run of the suite is repeatable: CI and a developer see the same examples, and a
failure found once is found again.  Set ``HYPOTHESIS_PROFILE=explore`` to draw
fresh random examples while hunting for new counter-examples.
"""

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
