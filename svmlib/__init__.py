"""svmlib: support vector machines from hyperplanes to kernels.

The library behind the open textbook *Support Vector Machines, Interactively*.
Every estimator follows scikit-learn's conventions, and :class:`SVC`,
:class:`NuSVC`, :class:`SVR`, :class:`NuSVR` and :class:`OneClassSVM` solve the same problems as
LIBSVM (``sklearn.svm``), so each can be compared one to one with its
scikit-learn counterpart.

The submodules ``plotting``, ``widgets`` and ``exercises`` serve the book and
import matplotlib and ipywidgets; they are loaded only when first used.
"""

import importlib

from . import datasets, kernels, solvers
from .approximation import Nystroem, RandomFourierFeatures
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
    "kernels",
    "solvers",
    "datasets",
    "geometry",
    "paths",
    "model_selection",
    "plotting",
    "widgets",
    "exercises",
]

_LAZY = {"plotting", "widgets", "exercises", "geometry", "paths", "model_selection"}


def __getattr__(name):
    if name in _LAZY:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'svmlib' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _LAZY)
