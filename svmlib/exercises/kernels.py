"""Checkers for the code exercises of the kernels chapter.

Book: chapter ``ch-kernels``.  Four exercises ask the reader to write the
lines that make kernels work:

* ``feature_map(x)`` for the kernel ``(<x, z> + 1)^2`` in the plane (the code
  half of a paper exercise): any map whose inner products reproduce the
  kernel is right (Book: (eq-kern-poly-m2));
* ``rbf_gram(X, sigma)``, the Gram matrix of the RBF kernel
  (Book: (eq-kernel-rbf));
* ``is_psd(K, tol)``, the test of a valid Gram matrix (Book: (eq-kern-psd));
* ``kernel_decision(X_new, X_sv, alpha, y_sv, b, kernel)``, the kernel
  SVM's score (Book: (eq-kern-decision)).

Each checker runs the reader's function on small cases and compares it with
the right answer and with the typical wrong ones (σ² for 2σ², a distance not
squared, a missing sign, eigenvalues without a tolerance or without a
symmetry test, a forgotten bias or label), so that a wrong answer gets a hint
that names the mistake.
"""

import numpy as np

from ..kernels import linear, polynomial, rbf, squared_distances
from ._core import AnswerError, Feedback, as_array, call_answer, checker, close

__all__ = [
    "check_feature_map_m2",
    "check_rbf_gram",
    "check_is_psd",
    "check_kernel_decision",
]

_RNG_POINTS = np.random.default_rng(8)
#: Points of the plane used to test feature maps and Gram matrices.
_POINTS_2D = np.vstack([[[1.0, 2.0], [3.0, 1.0], [0.0, 0.0], [-1.0, 0.5]],
                        np.round(_RNG_POINTS.normal(size=(6, 2)), 2)])
_POINTS_3D = np.round(_RNG_POINTS.normal(size=(7, 3)), 2)


def _matrix_answer(func, args, name, n):
    """Call the reader's function and check it returns an (n, n) array."""
    result = call_answer(func, *args, name=name)
    return as_array(result, f"the result of {name}", shape=(n, n))


# ------------------------------------------------------- (x.z + 1)^2, p = 2

@checker
def check_feature_map_m2(feature_map):
    """Check a feature map of the kernel ``(<x, z> + 1)^2`` for points in the plane.

    Parameters
    ----------
    feature_map : callable
        ``feature_map(x)`` takes one point, an ndarray of shape (2,), and
        returns its feature vector, an ndarray of shape (d,).

    Returns
    -------
    Feedback
        Correct when ``<feature_map(x), feature_map(z)> = (<x, z> + 1)^2``
        for every pair of test points (the map itself is not unique: any
        order of the coordinates, any signs, work as well).
    """
    if not callable(feature_map):
        raise AnswerError("pass your function itself, feature_map (without parentheses), "
                          "not its value at a point.")
    phis = []
    for x in _POINTS_2D:
        phi = call_answer(feature_map, x.copy(), name="feature_map")
        phis.append(np.ravel(as_array(phi, "feature_map(x)")))
    sizes = {p.shape[0] for p in phis}
    if len(sizes) != 1:
        raise AnswerError(f"feature_map returned vectors of different lengths {sorted(sizes)}; "
                          f"every point needs the same coordinates.")
    Phi = np.vstack(phis)
    d = Phi.shape[1]
    G = Phi @ Phi.T
    K = polynomial(_POINTS_2D, degree=2, coef0=1.0)
    if close(G, K):
        extra = "" if d == 6 else f" ({d} coordinates; six are enough)"
        return Feedback(True, f"<φ(x), φ(z)> = (x·z + 1)² for every pair tested{extra}.")
    if close(G, polynomial(_POINTS_2D, degree=2, coef0=0.0)):
        return Feedback(False, "your map gives (x·z)²: the kernel (x·z + 1)² also needs the "
                               "terms of degree 1 and 0, i.e. √2·x₁, √2·x₂ and the constant 1.")
    if close(G + 1.0, K):
        return Feedback(False, "off by the constant 1: add the coordinate 1 (its product "
                               "with itself gives the constant term of (x·z + 1)²).")
    if d < 6:
        return Feedback(False, f"your map has {d} coordinates, but (x·z + 1)² expands into "
                               f"six different monomials of x: x₁², x₂², x₁x₂, x₁, x₂ and 1. "
                               f"Expand the square and read off one coordinate per monomial.")
    # the six monomials with coefficient 1 (any order and signs give this Gram matrix)
    x1, x2 = _POINTS_2D[:, 0], _POINTS_2D[:, 1]
    plain = np.column_stack([x1 ** 2, x2 ** 2, x1 * x2, x1, x2, np.ones_like(x1)])
    if close(G, plain @ plain.T):
        return Feedback(False, "right monomials, wrong coefficients: the cross terms of the "
                               "square come with a factor 2 (2x₁z₁x₂z₂, 2x₁z₁, 2x₂z₂), so "
                               "the matching coordinates carry √2.")
    return Feedback(False, "the inner products of your feature vectors differ from "
                           "(x·z + 1)². Expand the square for two points x and z, term by "
                           "term, and check that each term, coefficient included, is the "
                           "product of one coordinate of φ(x) with the same coordinate of "
                           "φ(z).")


# ------------------------------------------------------------- RBF Gram

_GRAM_CASES = [(_POINTS_2D, 1.0), (_POINTS_2D, 0.5), (_POINTS_3D, 2.0)]


@checker
def check_rbf_gram(rbf_gram):
    """Check a function ``rbf_gram(X, sigma)`` for the RBF Gram matrix.

    ``K[i, j] = exp(-||x_i - x_j||^2 / (2 sigma^2))``, of shape (n, n).

    Parameters
    ----------
    rbf_gram : callable
        ``rbf_gram(X, sigma)`` with X an ndarray of shape (n, m) and sigma a
        positive float; returns an ndarray of shape (n, n).

    Returns
    -------
    Feedback
    """
    if not callable(rbf_gram):
        raise AnswerError("pass your function itself, rbf_gram (without parentheses).")
    for X, sigma in _GRAM_CASES:
        n = X.shape[0]
        K = _matrix_answer(rbf_gram, (X.copy(), sigma), "rbf_gram(X, sigma)", n)
        right = rbf(X, gamma=1.0 / (2.0 * sigma ** 2))
        if close(K, right):
            continue
        D2 = squared_distances(X)
        where = f" (failed for sigma = {sigma:g} on points in R^{X.shape[1]})"
        if close(K, rbf(X, gamma=1.0 / sigma ** 2)):
            return Feedback(False, "you divided by σ² instead of 2σ²: the exponent is "
                                   "−‖x − z‖² / (2σ²), i.e. γ = 1/(2σ²)." + where)
        if close(K, np.exp(-np.sqrt(D2) / (2.0 * sigma ** 2))):
            return Feedback(False, "the distance must be squared: ‖x − z‖², e.g. "
                                   "((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)." + where)
        if close(K, np.exp(D2 / (2.0 * sigma ** 2))):
            return Feedback(False, "the exponent needs a minus sign: the kernel decreases with "
                                   "the distance, from 1 at x = z towards 0." + where)
        if close(K, np.exp(-2.0 * sigma ** 2 * D2)) or close(K, np.exp(-sigma ** 2 * D2 / 2)):
            return Feedback(False, "σ belongs in the denominator: exp(−‖x − z‖² / (2σ²)); a "
                                   "larger σ makes a wider bump." + where)
        if close(K, np.exp(-D2 / (2.0 * sigma))):
            return Feedback(False, "divide by 2σ², not 2σ (σ is squared)." + where)
        if close(K, np.exp(-linear(X) / (2.0 * sigma ** 2))):
            return Feedback(False, "the RBF kernel uses the squared distance ‖x − z‖², not the "
                                   "inner product x·z." + where)
        if not close(np.diag(K), np.ones(n)):
            return Feedback(False, "the diagonal must be all ones: k(x, x) = exp(0) = 1. "
                                   "Check the distance of a point to itself." + where)
        if not close(K, K.T):
            return Feedback(False, "your matrix is not symmetric, but k(x, z) = k(z, x); "
                                   "compute the distance between rows i and j of X." + where)
        return Feedback(False, "some entries differ from exp(−‖x_i − x_j‖² / (2σ²))." + where)
    return Feedback(True, "your Gram matrices match svmlib.kernels.rbf with "
                          "gamma = 1/(2σ²) for every σ tested.")


# ------------------------------------------------------------------ PSD

def _psd_cases():
    """(name, matrix, expected verdict, hint if the reader gets it wrong)."""
    rng = np.random.default_rng(3)
    A = rng.normal(size=(6, 2))
    low_rank = A @ A.T                    # PSD, rank 2: rounding gives tiny negatives
    D = np.sqrt(squared_distances(rng.normal(size=(5, 2))))
    return [
        ("a Gram matrix of the linear kernel (rank 2)", low_rank, True,
         "a rank-deficient PSD matrix has eigenvalues 0, which rounding turns into tiny "
         "negatives like -1e-16: compare the smallest eigenvalue with -tol (times the "
         "largest |eigenvalue|), not with 0."),
        ("an RBF Gram matrix", rbf(rng.normal(size=(6, 2)), gamma=0.7), True,
         "an RBF Gram matrix is positive semidefinite; your test said it is not."),
        ("the identity", np.eye(3), True, "the identity matrix is positive definite."),
        ("the 1 x 1 matrix [[0]]", np.zeros((1, 1)), True,
         "[[0]] is positive semidefinite (its only eigenvalue is 0)."),
        ("a matrix of distances ‖x_i − x_j‖", D, False,
         "a matrix of distances has zeros on the diagonal, so its eigenvalues add up to 0: "
         "some are negative. Look at the smallest eigenvalue."),
        ("[[1, 2], [2, 1]]", np.array([[1.0, 2.0], [2.0, 1.0]]), False,
         "[[1, 2], [2, 1]] has eigenvalues 3 and -1; c = (1, -1) gives cᵀKc = -2 < 0."),
        ("the non-symmetric [[1, 3], [0, 1]]", np.array([[1.0, 3.0], [0.0, 1.0]]), False,
         "a Gram matrix is symmetric (k(x, z) = k(z, x)); test symmetry first. Eigenvalues of "
         "a non-symmetric matrix (here 1 and 1) say nothing about cᵀKc, which is -1 for "
         "c = (1, -1). Use np.linalg.eigvalsh only on symmetric matrices."),
        ("[[1, 0], [0, -1e-3]]", np.diag([1.0, -1e-3]), False,
         "an eigenvalue of -0.001 is a real negative eigenvalue, not rounding: keep the "
         "tolerance relative and tiny (about 1e-10 of the largest eigenvalue)."),
    ]


@checker
def check_is_psd(is_psd):
    """Check a function ``is_psd(K, tol=1e-10)`` that tests for a valid Gram matrix.

    It must return ``True`` for symmetric positive semidefinite matrices
    (allowing rounding errors) and ``False`` otherwise.

    Parameters
    ----------
    is_psd : callable
        ``is_psd(K)`` with K an ndarray of shape (n, n); returns a bool.

    Returns
    -------
    Feedback
    """
    if not callable(is_psd):
        raise AnswerError("pass your function itself, is_psd (without parentheses).")
    for name, K, expected, hint in _psd_cases():
        verdict = call_answer(is_psd, K.copy(), name="is_psd(K)")
        if isinstance(verdict, np.ndarray) and verdict.size == 1:
            verdict = verdict.item()
        if not isinstance(verdict, (bool, np.bool_)):
            raise AnswerError(f"is_psd must return True or False; for {name} it returned "
                              f"an object of type {type(verdict).__name__}. If you computed "
                              f"the eigenvalues, return a comparison such as "
                              f"bool(eigenvalues.min() >= -tol * scale).")
        if bool(verdict) != expected:
            said = "True" if verdict else "False"
            return Feedback(False, f"for {name} your function said {said}: {hint}")
    return Feedback(True, "right on PSD, rank-deficient, indefinite and non-symmetric "
                          "matrices.")


# ----------------------------------------------------- decision function

def _decision_case():
    """A small kernel SVM: (X_new, X_sv, alpha, y_sv, b, kernel, right answer)."""
    from ..svc import SVC
    from ..kernels import get_kernel

    rng = np.random.default_rng(11)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 > 1.2, 1, -1)
    kernel = get_kernel("rbf", gamma=0.8)
    model = SVC(kernel="rbf", gamma=0.8, C=5.0).fit(X, y)
    coef = model.dual_coef_[0]
    X_new = np.round(rng.normal(size=(8, 2)), 2)
    return (X_new, model.support_vectors_.copy(), np.abs(coef), np.sign(coef),
            float(model.intercept_[0]), kernel, model.decision_function(X_new))


@checker
def check_kernel_decision(kernel_decision):
    """Check ``kernel_decision(X_new, X_sv, alpha, y_sv, b, kernel)``.

    It must return the scores ``h(x) = sum_i alpha_i y_i k(x_i, x) + b`` of
    the rows of ``X_new``, an ndarray of shape (n_new,).

    Parameters
    ----------
    kernel_decision : callable
        Called with ``X_new`` of shape (n_new, m), the support vectors
        ``X_sv`` of shape (n_SV, m), their multipliers ``alpha`` and labels
        ``y_sv`` (both of shape (n_SV,)), the bias ``b`` and a kernel
        function ``kernel(A, B)`` returning the (len(A), len(B)) matrix.

    Returns
    -------
    Feedback
    """
    if not callable(kernel_decision):
        raise AnswerError("pass your function itself, kernel_decision (without parentheses).")
    X_new, X_sv, alpha, y_sv, b, kernel, right = _decision_case()
    try:
        result = call_answer(kernel_decision, X_new.copy(), X_sv.copy(), alpha.copy(),
                             y_sv.copy(), b, kernel, name="kernel_decision")
    except AnswerError as exc:
        raise AnswerError(exc.hint + f" (Here X_new has {X_new.shape[0]} rows and there are "
                          f"{X_sv.shape[0]} support vectors: kernel(X_new, X_sv) has shape "
                          f"({X_new.shape[0]}, {X_sv.shape[0]}), and alpha * y_sv has length "
                          f"{X_sv.shape[0]}.)") from None
    h = as_array(result, "h", shape=(X_new.shape[0],))
    if close(h, right, rtol=1e-6, atol=1e-8):
        return Feedback(True, "your scores match svmlib's SVC.decision_function on new points.")
    K = kernel(X_new, X_sv)
    if close(h, right - b):
        return Feedback(False, "the bias is missing: add b to Σ αᵢ yᵢ k(xᵢ, x).")
    if close(h, right - 2 * b):
        return Feedback(False, "the bias has the wrong sign: h(x) = Σ αᵢ yᵢ k(xᵢ, x) + b.")
    if close(h, K @ alpha + b) or close(h, K @ alpha):
        return Feedback(False, "each term needs its label: αᵢ · yᵢ · k(xᵢ, x). Without yᵢ every "
                               "support vector pushes towards the +1 class.")
    if close(h, np.sign(right)):
        return Feedback(False, "return the scores h(x), not their signs (the predictions are "
                               "np.sign of the scores).")
    if close(h, -right):
        return Feedback(False, "your scores have the opposite sign: h(x) = Σ αᵢ yᵢ k(xᵢ, x) + b.")
    if close(h, linear(X_new, X_sv) @ (alpha * y_sv) + b):
        return Feedback(False, "use the kernel you were given, kernel(X_new, X_sv), not the "
                               "inner product X_new @ X_sv.T.")
    return Feedback(False, "your scores differ from the decision function of the chapter. "
                           "Compute the score of one new point by hand, term by term, and "
                           "compare it with the first entry of your result.")
