"""svmlib: support vector machines from hyperplanes to kernels.

The library behind the open textbook *Support Vector Machines, Interactively*.
Every estimator follows scikit-learn's conventions, and :class:`SVC`,
:class:`NuSVC`, :class:`SVR`, :class:`NuSVR` and :class:`OneClassSVM` solve the same problems as
LIBSVM (``sklearn.svm``), so each can be compared one to one with its
scikit-learn counterpart.  A problem with ``C = inf`` that has no solution
(classes that no hyperplane separates, targets that no function fits within
``epsilon``) raises :class:`NotSeparableError`.

The submodules ``plotting``, ``widgets`` and ``exercises`` serve the book and
import matplotlib and ipywidgets; they are loaded only when first used.
"""

import importlib

from . import datasets, kernels, solvers
from .approximation import Nystroem, RandomFourierFeatures
from .dual import NotSeparableError
from .hyperplane import Hyperplane
from .linear import LinearSVC, LinearSVR
from .multiclass import OneVsOneClassifier, OneVsRestClassifier
from .nu_svm import NuSVC, OneClassSVM
from .perceptron import KernelPerceptron, Perceptron
from .svc import SVC
from .svr import SVR, NuSVR

__version__ = "0.1.0"

__all__ = [
    "Hyperplane",
    "Perceptron",
    "KernelPerceptron",
    "SVC",
    "NuSVC",
    "SVR",
    "NuSVR",
    "OneClassSVM",
    "LinearSVC",
    "LinearSVR",
    "RandomFourierFeatures",
    "Nystroem",
    "OneVsRestClassifier",
    "OneVsOneClassifier",
    "NotSeparableError",
    "kernels",
    "feature_maps",
    "solvers",
    "datasets",
    "geometry",
    "paths",
    "model_selection",
    "plotting",
    "widgets",
    "exercises",
]

_LAZY = {"plotting", "widgets", "exercises", "geometry", "paths", "model_selection",
         "feature_maps"}


def __getattr__(name):
    if name in _LAZY:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'svmlib' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY)
