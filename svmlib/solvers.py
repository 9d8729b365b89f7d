"""The three solvers of the book, under one roof.

* :func:`solve_dual_slsqp` -- the dual handed to a general QP solver (chapter 05);
* :func:`solve_dual_smo` -- sequential minimal optimization as in LIBSVM (chapter 07);
* :func:`solve_primal_pegasos` -- stochastic sub-gradient descent on the primal (chapter 06).

Each returns a :class:`SolverResult` (``alpha`` or ``w``, ``b`` and a record:
``n_iter``, ``objective``, ``kkt_violation``, ``time``).
"""

from .primal import solve_primal_pegasos
from .dual import NotSeparableError, SolverResult, compute_intercept
from .qp import solve_dual_slsqp
from .smo import TAU, analytic_pair_update, solve_dual_smo

__all__ = [
    "solve_dual_slsqp",
    "solve_dual_smo",
    "solve_primal_pegasos",
    "SolverResult",
    "NotSeparableError",
    "compute_intercept",
    "analytic_pair_update",
    "TAU",
]
