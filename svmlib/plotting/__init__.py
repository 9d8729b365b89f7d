"""Figures for the book: one function per kind of figure, one visual language.

Every function takes an ``ax`` (or creates one when ``ax=None``), draws on it,
and returns it; none calls ``plt.show()``.  The core kinds (data, hyperplanes
with margins, decision regions, support vectors, slack) live in ``_core``;
figures that only one chapter needs live in that chapter's module.
"""

from ._core import *  # noqa: F401,F403
from .hyperplanes import *  # noqa: F401,F403
from .perceptron import *  # noqa: F401,F403
from .maximum_margin import *  # noqa: F401,F403
from .lagrange_kkt import *  # noqa: F401,F403
from .hard_margin_dual import *  # noqa: F401,F403
from .soft_margin import *  # noqa: F401,F403
from .smo import *  # noqa: F401,F403
from .kernels import *  # noqa: F401,F403
from .multiclass import *  # noqa: F401,F403
from .in_practice import *  # noqa: F401,F403
from .at_scale import *  # noqa: F401,F403
from .beyond_classification import *  # noqa: F401,F403
