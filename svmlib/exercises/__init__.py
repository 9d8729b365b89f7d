"""Checkers for the book's code exercises.

``svmlib.exercises.<chapter>.check_<name>(answer)`` returns a
:class:`Feedback` that reads "correct" or gives a specific hint, and never
raises on a wrong or malformed answer.
"""

from ._core import *  # noqa: F401,F403
from . import (  # noqa: F401
    at_scale,
    beyond_classification,
    hard_margin_dual,
    hyperplanes,
    in_practice,
    kernels,
    lagrange_kkt,
    maximum_margin,
    multiclass,
    perceptron,
    smo,
    soft_margin,
)
