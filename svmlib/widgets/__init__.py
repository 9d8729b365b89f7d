"""Interactive figures: live in Jupyter, kernel-free in the HTML book.

``_core`` holds the machinery (:class:`InteractiveFigure` and its controls);
each chapter's module holds the ready-made interactive figures that chapter
shows, built on that machinery.
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
