"""Small, seeded data sets and the book's worked examples.

Every generator returns ``(X, y)`` with ``X`` of shape (n, 2) and, for two
classes, ``y`` in {-1, +1} (int).  The same ``random_state`` always gives
the same data; the rows come in random order so that a perceptron visiting
them in order does not see one class first.

The worked examples (``perceptron_example``, ``lagrange_example_a``,
``lagrange_example_b``, ``tiny_hard_margin``) return dicts holding both the
problem and its known answer, so chapters and tests use the same numbers.

The chapters' own data sets live here too, so that a reader can read and
adapt them: ``perceptron_disc_data`` and ``perceptron_sphere_data`` (the
perceptron chapter's margin experiment), ``ten_points`` (the hard-margin
dual's moving points), ``elongated_blobs`` (the soft margin's running
example) and ``ring_of_blobs`` (``K`` classes for the multiclass chapter).
Their points are not all in the plane: ``perceptron_sphere_data`` has
``n_features`` columns, and labels follow each generator's docstring.
"""

import numpy as np

from ._validation import check_int, check_positive

__all__ = [
    "separable_blobs",
    "overlapping_blobs",
    "moons",
    "circles",
    "xor",
    "three_blobs",
    "perceptron_example",
    "lagrange_example_a",
    "lagrange_example_b",
    "tiny_hard_margin",
    "perceptron_disc_data",
    "perceptron_sphere_data",
    "ring_of_blobs",
    "elongated_blobs",
    "ten_points",
]

# Direction across the gap of ``separable_blobs``, and the centre of its data.
_BLOB_DIRECTION = np.array([1.0, 1.0]) / np.sqrt(2.0)
_BLOB_CENTER = np.array([1.0, 0.5])


def _rng(random_state):
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is not None and (not isinstance(random_state, (int, np.integer))
                                     or isinstance(random_state, bool) or random_state < 0):
        raise ValueError(
            f"random_state must be None, an int >= 0 or a numpy Generator; got "
            f"random_state={random_state!r}. Pass an int such as random_state=0."
        )
    return np.random.default_rng(random_state)


def _check_n(n, minimum=2):
    return check_int(n, "n", minimum=minimum,
                     hint=f"Pass the number of samples, e.g. n=100 (at least {minimum}).")


def _check_noise(value, name):
    if not isinstance(value, (int, float, np.floating)) or isinstance(value, bool) \
            or not np.isfinite(value) or value < 0:
        raise ValueError(
            f"{name} must be a finite number >= 0; got {name}={value!r}. "
            f"Use {name}=0 for noise-free data."
        )
    return float(value)


def _shuffled(rng, X, y):
    order = rng.permutation(X.shape[0])
    return X[order], y[order]


def _split(n):
    """Sizes of the -1 and +1 classes (the +1 class gets the odd sample)."""
    return n // 2, n - n // 2


# ------------------------------------------------------------- generators
def separable_blobs(n=40, margin=1.0, random_state=0):
    """Two Gaussian blobs separated by an empty strip of width ``margin``.

    The strip is perpendicular to the direction (1, 1): every point of the
    -1 class lies at least ``margin`` away (along that direction) from every
    point of the +1 class, so the data are linearly separable and the
    maximum-margin hyperplane has geometric margin at least ``margin / 2``
    (a street of width at least ``margin``).  Points that would fall into
    the strip are redrawn.

    Parameters
    ----------
    n : int, default=40
        Number of samples (half per class, the +1 class gets an odd one).
    margin : float, default=1.0
        Width of the empty strip between the classes, ``> 0``.
    random_state : int, numpy Generator or None, default=0

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int, values in {-1, +1}
    """
    n = _check_n(n)
    margin = check_positive(margin, "margin", hint="Use a gap width such as margin=1.0.")
    rng = _rng(random_state)
    along = _BLOB_DIRECTION
    across = np.array([-along[1], along[0]])
    offset = margin / 2 + 1.0          # blob centres sit 1 std beyond the strip
    parts, labels = [], []
    for label, size in zip((-1, 1), _split(n)):
        t_values = np.empty(0)
        while t_values.size < size:     # rejection: keep points outside the strip
            t = rng.normal(offset, 1.0, size=2 * size)
            t_values = np.concatenate([t_values, t[t >= margin / 2]])
        t = t_values[:size]
        s = rng.normal(0.0, 1.5, size=size)
        parts.append(_BLOB_CENTER + label * t[:, None] * along + s[:, None] * across)
        labels.append(np.full(size, label))
    return _shuffled(rng, np.vstack(parts), np.concatenate(labels))


def overlapping_blobs(n=100, overlap=1.0, random_state=0):
    """Two Gaussian blobs whose spread makes them overlap.

    The centres are (-0.5, -1) and (2.5, 1) (3.6 apart); each blob is an
    isotropic Gaussian with standard deviation ``overlap``.  With the default
    ``overlap=1.0`` a few points of each class lie among the other class, so
    no hyperplane separates the data (a soft margin is needed).

    Parameters
    ----------
    n : int, default=100
    overlap : float, default=1.0
        Standard deviation of each blob, ``> 0``; larger means more overlap.
    random_state : int, numpy Generator or None, default=0

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int, values in {-1, +1}
    """
    n = _check_n(n)
    overlap = check_positive(overlap, "overlap", hint="Use a spread such as overlap=1.0.")
    rng = _rng(random_state)
    centers = {-1: np.array([-0.5, -1.0]), 1: np.array([2.5, 1.0])}
    parts, labels = [], []
    for label, size in zip((-1, 1), _split(n)):
        parts.append(centers[label] + overlap * rng.standard_normal((size, 2)))
        labels.append(np.full(size, label))
    return _shuffled(rng, np.vstack(parts), np.concatenate(labels))


def moons(n=200, noise=0.15, random_state=0):
    """Two interleaved half circles.

    The -1 class lies on the upper half of the unit circle, the +1 class on
    a lower half circle shifted to (1, 0.5); Gaussian noise of standard
    deviation ``noise`` is added to both coordinates.

    Parameters
    ----------
    n : int, default=200
    noise : float, default=0.15
        Standard deviation of the noise, ``>= 0``.
    random_state : int, numpy Generator or None, default=0

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int, values in {-1, +1}
    """
    n = _check_n(n)
    noise = _check_noise(noise, "noise")
    rng = _rng(random_state)
    n_neg, n_pos = _split(n)
    t_neg = rng.uniform(0.0, np.pi, n_neg)
    t_pos = rng.uniform(0.0, np.pi, n_pos)
    upper = np.column_stack([np.cos(t_neg), np.sin(t_neg)])
    lower = np.column_stack([1.0 - np.cos(t_pos), 0.5 - np.sin(t_pos)])
    X = np.vstack([upper, lower]) + noise * rng.standard_normal((n, 2))
    y = np.concatenate([np.full(n_neg, -1), np.full(n_pos, 1)])
    return _shuffled(rng, X, y)


def circles(n=200, noise=0.08, factor=0.45, random_state=0):
    """A small circle (+1) inside a large circle (-1), both centred at 0.

    The outer circle has radius 1, the inner one radius ``factor``;
    Gaussian noise of standard deviation ``noise`` is added.  No line
    separates the classes, but the map ``(x1^2, x2^2, sqrt(2) x1 x2)`` does.

    Parameters
    ----------
    n : int, default=200
    noise : float, default=0.08
    factor : float, default=0.45
        Radius of the inner circle, in (0, 1).
    random_state : int, numpy Generator or None, default=0

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int, values in {-1, +1}
    """
    n = _check_n(n)
    noise = _check_noise(noise, "noise")
    factor = check_positive(factor, "factor",
                            hint="Use a radius ratio in (0, 1) such as factor=0.45.")
    if factor >= 1:
        raise ValueError(
            f"factor must be in (0, 1) (the inner circle's radius); got "
            f"factor={factor!r}. Use e.g. factor=0.45."
        )
    rng = _rng(random_state)
    n_out, n_in = _split(n)
    t_out = rng.uniform(0.0, 2 * np.pi, n_out)
    t_in = rng.uniform(0.0, 2 * np.pi, n_in)
    outer = np.column_stack([np.cos(t_out), np.sin(t_out)])
    inner = factor * np.column_stack([np.cos(t_in), np.sin(t_in)])
    X = np.vstack([outer, inner]) + noise * rng.standard_normal((n, 2))
    y = np.concatenate([np.full(n_out, -1), np.full(n_in, 1)])
    return _shuffled(rng, X, y)


def xor(n=200, noise=0.3, random_state=0):
    """Four Gaussian clusters at (+-1, +-1) labelled like XOR.

    A cluster at ``(a, b)`` has label ``sign(a * b)``: +1 in the first and
    third quadrants, -1 in the other two.  No line separates the classes.

    Parameters
    ----------
    n : int, default=200
        Number of samples, spread as evenly as possible over the clusters.
    noise : float, default=0.3
        Standard deviation of each cluster.
    random_state : int, numpy Generator or None, default=0

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int, values in {-1, +1}
    """
    n = _check_n(n, minimum=4)
    noise = _check_noise(noise, "noise")
    rng = _rng(random_state)
    corners = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])  # labels alternate
    which = np.arange(n) % 4
    X = corners[which] + noise * rng.standard_normal((n, 2))
    y = np.where(corners[which, 0] * corners[which, 1] > 0, 1, -1)
    return _shuffled(rng, X, y)


def three_blobs(n=150, random_state=0):
    """Three Gaussian blobs with labels 0, 1 and 2 (for multiclass chapters).

    Centres at the corners of a triangle, (0, 2.5), (-2.2, -1.2) and
    (2.2, -1.2), standard deviation 0.9: mostly separable, a few points near
    the borders.

    Parameters
    ----------
    n : int, default=150
    random_state : int, numpy Generator or None, default=0

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int, values in {0, 1, 2}
    """
    n = _check_n(n, minimum=3)
    rng = _rng(random_state)
    centers = np.array([[0.0, 2.5], [-2.2, -1.2], [2.2, -1.2]])
    y = np.arange(n) % 3
    X = centers[y] + 0.9 * rng.standard_normal((n, 2))
    return _shuffled(rng, X, y)


# -------------------------------------------------------- worked examples
def perceptron_example():
    """The perceptron's worked example of the book (chapter ``ch-perceptron``).

    Three points, start ``w0 = (1, -1)``, ``b0 = -2``, learning rate 1/4,
    points visited in order.  ``h(X) = (-3, 1, -2)``, so only ``x3`` is
    misclassified; one update with ``x3 = (2, 2)`` gives ``w = (1.5, -0.5)``,
    ``b = -1.75`` and ``h(X) = (-1.25, 3.75, 0.25)``: all correct.

    Returns
    -------
    dict
        ``X`` (3, 2), ``y`` (3,), ``w0``, ``b0``, ``learning_rate``, and the
        answer: ``h0`` (scores at the start), ``update_index`` (2, i.e. x3),
        ``w1``, ``b1`` (after the update), ``h1`` (scores after it),
        ``n_updates`` (1).
    """
    return {
        "X": np.array([[1.0, 2.0], [4.0, 1.0], [2.0, 2.0]]),
        "y": np.array([-1, 1, 1]),
        "w0": np.array([1.0, -1.0]),
        "b0": -2.0,
        "learning_rate": 0.25,
        "h0": np.array([-3.0, 1.0, -2.0]),
        "update_index": 2,
        "w1": np.array([1.5, -0.5]),
        "b1": -1.75,
        "h1": np.array([-1.25, 3.75, 0.25]),
        "n_updates": 1,
    }


def lagrange_example_a():
    """Maximize ``f(x, y) = 1 - x^2 - y^2`` subject to ``g(x, y) = x - y - 1 = 0``.

    With ``L = f + lambda g``, ``grad L = 0`` gives ``-2x + lambda = 0``,
    ``-2y - lambda = 0`` and ``x - y = 1``: the single stationary point
    ``(1/2, -1/2)`` with ``lambda = 1`` and ``f = 1/2`` (the maximum).

    Returns
    -------
    dict
        ``f``, ``g``: callables ``f(x, y)`` working elementwise on arrays (so
        they accept meshgrids); ``grad_f``, ``grad_g``: callables returning
        ``ndarray of shape (..., 2)``; ``lagrangian``: ``L(x, y, lam)``;
        ``sense`` ("maximize"); ``convention`` ("L = f + lambda * g");
        ``points`` (1, 2), ``multipliers`` (1,), ``values`` (1,), ``kinds``.
    """
    def f(x, y):
        return 1.0 - np.asarray(x) ** 2 - np.asarray(y) ** 2

    def g(x, y):
        return np.asarray(x) - np.asarray(y) - 1.0

    def grad_f(x, y):
        x, y = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float))
        return np.stack([-2.0 * x, -2.0 * y], axis=-1)

    def grad_g(x, y):
        x, y = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float))
        return np.stack([np.ones_like(x), -np.ones_like(y)], axis=-1)

    def lagrangian(x, y, lam):
        return f(x, y) + lam * g(x, y)

    return {
        "f": f, "g": g, "grad_f": grad_f, "grad_g": grad_g, "lagrangian": lagrangian,
        "sense": "maximize",
        "convention": "L = f + lambda * g",
        "points": np.array([[0.5, -0.5]]),
        "multipliers": np.array([1.0]),
        "values": np.array([0.5]),
        "kinds": ["maximum"],
    }


def lagrange_example_b():
    """Maximize ``f(x, y) = x^2 y`` on the circle ``g(x, y) = x^2 + y^2 - 3 = 0``.

    With ``L = f + lambda g``: ``2xy + 2 lambda x = 0``, ``x^2 + 2 lambda y
    = 0``.  Either ``x = 0`` (then ``y = +-sqrt 3``, ``lambda = 0``, ``f = 0``)
    or ``y = -lambda`` and ``x^2 = 2 y^2`` (then ``y = +-1``, ``x = +-sqrt 2``).
    Six stationary points: ``(+-sqrt 2, 1)`` with ``f = 2`` (the maxima,
    ``lambda = -1``), ``(+-sqrt 2, -1)`` with ``f = -2`` (the minima,
    ``lambda = 1``), ``(0, sqrt 3)`` (a local minimum on the circle) and
    ``(0, -sqrt 3)`` (a local maximum), both with ``f = 0``.

    Returns
    -------
    dict
        As :func:`lagrange_example_a`, with six rows in ``points``.
    """
    def f(x, y):
        return np.asarray(x) ** 2 * np.asarray(y)

    def g(x, y):
        return np.asarray(x) ** 2 + np.asarray(y) ** 2 - 3.0

    def grad_f(x, y):
        x, y = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float))
        return np.stack([2.0 * x * y, x ** 2], axis=-1)

    def grad_g(x, y):
        x, y = np.broadcast_arrays(np.asarray(x, float), np.asarray(y, float))
        return np.stack([2.0 * x, 2.0 * y], axis=-1)

    def lagrangian(x, y, lam):
        return f(x, y) + lam * g(x, y)

    r2, r3 = np.sqrt(2.0), np.sqrt(3.0)
    return {
        "f": f, "g": g, "grad_f": grad_f, "grad_g": grad_g, "lagrangian": lagrangian,
        "sense": "maximize",
        "convention": "L = f + lambda * g",
        "points": np.array([[r2, 1.0], [-r2, 1.0], [r2, -1.0], [-r2, -1.0],
                            [0.0, r3], [0.0, -r3]]),
        "multipliers": np.array([-1.0, -1.0, 1.0, 1.0, 0.0, 0.0]),
        "values": np.array([2.0, 2.0, -2.0, -2.0, 0.0, 0.0]),
        "kinds": ["maximum", "maximum", "minimum", "minimum",
                  "local minimum", "local maximum"],
    }


def tiny_hard_margin():
    """Three points whose hard-margin SVM is solvable by hand.

    ``x1 = (1, 1)`` with ``y = -1``, ``x2 = (3, 3)`` and ``x3 = (4, 3)`` with
    ``y = +1``.  The closest pair of opposite points is ``x1, x2``, and ``x3``
    lies beyond the margin, so the maximum-margin hyperplane is the
    perpendicular bisector of ``x1 x2``: ``w = 2 (x2 - x1) / ||x2 - x1||^2 =
    (1/2, 1/2)``, ``b = -2`` (``h(x1) = -1``, ``h(x2) = 1``, ``h(x3) = 3/2``).
    The multipliers are ``alpha = (1/4, 1/4, 0)``: ``w = sum alpha_i y_i x_i``
    and ``sum alpha_i y_i = 0``.  The geometric margin is ``1 / ||w|| =
    sqrt 2`` (street width ``2 sqrt 2``) and both objectives equal ``1/4``.

    Returns
    -------
    dict
        ``X`` (3, 2), ``y`` (3,), ``w`` (2,), ``b``, ``alpha`` (3,),
        ``support`` (indices [0, 1]), ``margin`` (``1/||w||``), ``width``
        (``2/||w||``), ``objective`` (``||w||^2 / 2`` = dual optimum).
    """
    return {
        "X": np.array([[1.0, 1.0], [3.0, 3.0], [4.0, 3.0]]),
        "y": np.array([-1, 1, 1]),
        "w": np.array([0.5, 0.5]),
        "b": -2.0,
        "alpha": np.array([0.25, 0.25, 0.0]),
        "support": np.array([0, 1]),
        "margin": np.sqrt(2.0),
        "width": 2.0 * np.sqrt(2.0),
        "objective": 0.25,
    }


def perceptron_disc_data(n=100, gap=0.1, angle=30.0, random_state=0):
    """Points in the unit disc, labelled by a line through the origin, with a gap.

    The points are uniform in the disc ``||x|| <= 1``; those closer than
    ``gap`` to the line through the origin with unit normal
    ``u = (cos angle, sin angle)`` are redrawn, and the label is the sign of
    ``<u, x>``.  So ``L = max ||x_i|| <= 1`` and the best margin through the
    origin is at least ``gap``.

    Parameters
    ----------
    n : int, default=100
    gap : float, default=0.1
        Half-width of the empty strip, in (0, 1).
    angle : float, default=30.0
        Direction of the normal ``u``, in degrees.
    random_state : int, default=0

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int, values in {-1, +1}
    """
    gap = check_positive(gap, "gap")
    if gap >= 1:
        raise ValueError(f"gap must be < 1 (the points lie in the unit disc); got gap={gap}. "
                         f"Use a gap such as 0.1.")
    rng = np.random.default_rng(random_state)
    u = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    points = np.empty((0, 2))
    while points.shape[0] < n:
        radius = np.sqrt(rng.uniform(size=4 * n))
        theta = rng.uniform(0, 2 * np.pi, size=4 * n)
        cand = np.column_stack([radius * np.cos(theta), radius * np.sin(theta)])
        points = np.vstack([points, cand[np.abs(cand @ u) >= gap]])
    X = points[:n]
    return X, np.where(X @ u > 0, 1, -1)


def perceptron_sphere_data(n=100, gap=0.05, n_features=5, random_state=0):
    """Points on the unit sphere that hug a hyperplane through the origin.

    Each point is ``x = y t e_1 + sqrt(1 - t^2) v`` with a random label
    ``y``, a distance ``t`` uniform in ``[gap, 2 gap]`` from the hyperplane
    ``x_1 = 0`` and ``v`` a random unit vector orthogonal to ``e_1``.  So
    ``||x_i|| = 1`` (``L = 1``) and every point lies within ``2 gap`` of the
    hyperplane, on its own side: the best margin gamma* is at least
    ``gap`` and not much more.  These are hard data for the perceptron.

    Parameters
    ----------
    n : int, default=100
    gap : float, default=0.05
        Smallest distance from the hyperplane, in (0, 0.5).
    n_features : int, default=5
        Dimension ``p >= 2``.
    random_state : int, default=0

    Returns
    -------
    X : ndarray of shape (n, n_features)
    y : ndarray of shape (n,), int, values in {-1, +1}
    """
    gap = check_positive(gap, "gap")
    if gap >= 0.5:
        raise ValueError(f"gap must be < 0.5 (distances go up to 2 gap <= 1); got gap={gap}. "
                         f"Use a gap such as 0.05.")
    rng = np.random.default_rng(random_state)
    y = np.where(rng.uniform(size=n) < 0.5, 1, -1)
    t = rng.uniform(gap, 2 * gap, size=n)
    V = rng.normal(size=(n, n_features - 1))
    V /= np.linalg.norm(V, axis=1, keepdims=True)
    X = np.column_stack([y * t, np.sqrt(1 - t ** 2)[:, None] * V])
    return X, y


def ring_of_blobs(n_classes, n_per_class=30, spacing=2.6, spread=0.8, random_state=0):
    """``K`` Gaussian blobs with centres evenly spaced on a circle.

    The radius grows with ``K`` so that neighbouring centres stay
    ``spacing`` apart: ``R = spacing / (2 sin(π / K))``.  Class 0 sits at the
    top, the others follow counter-clockwise.

    Parameters
    ----------
    n_classes : int
        ``K >= 2``.
    n_per_class : int, default=30
    spacing : float, default=2.6
        Distance between neighbouring centres.
    spread : float, default=0.8
        Standard deviation of each blob.
    random_state : int, default=0
        Seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    X : ndarray of shape (n_classes * n_per_class, 2)
    y : ndarray of shape (n_classes * n_per_class,), int, values 0 .. K-1
    """
    n_classes = check_int(n_classes, "n_classes", minimum=2)
    n_per_class = check_int(n_per_class, "n_per_class", minimum=1)
    spacing = check_positive(spacing, "spacing")
    spread = check_positive(spread, "spread")
    rng = np.random.default_rng(random_state)
    radius = spacing / (2.0 * np.sin(np.pi / n_classes))
    angles = np.pi / 2 + 2 * np.pi * np.arange(n_classes) / n_classes
    centres = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    y = np.repeat(np.arange(n_classes), n_per_class)
    X = centres[y] + spread * rng.standard_normal((y.shape[0], 2))
    order = rng.permutation(y.shape[0])
    return X[order], y[order]


def elongated_blobs(n=50, label_noise=0.05, random_state=0):
    """Two overlapping, elongated Gaussian classes with a few flipped labels.

    Before a rotation by 30 degrees, each class is a Gaussian with standard
    deviation 2.2 along x1 and 0.45 along x2, centred at ``-(0.6, 0.8)``
    (class -1) and ``+(0.6, 0.8)`` (class +1).  The best linear boundary then
    runs along the long axis of the classes, while the line through the two
    centres is tilted against it by 37 degrees, so a classifier that only
    compares the class means does poorly.  A fraction ``label_noise`` of the
    labels is flipped.

    Parameters
    ----------
    n : int, default=50
        Number of points (half of them drawn from each class before flipping).
    label_noise : float, default=0.05
        Probability that a label is flipped, in [0, 0.5).
    random_state : int, default=0

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int, values in {-1, +1}
    """
    n = check_int(n, "n", minimum=2)
    if not 0 <= label_noise < 0.5:
        raise ValueError(f"label_noise must be in [0, 0.5); got label_noise={label_noise!r}. "
                         f"Use label_noise=0 for clean labels.")
    rng = np.random.default_rng(random_state)
    y = np.where(np.arange(n) < n // 2, -1, 1)
    X = rng.normal(size=(n, 2)) * np.array([2.2, 0.45]) + np.outer(y, [0.6, 0.8])
    turn = np.deg2rad(30.0)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    X = X @ rotation.T
    flipped = rng.random(n) < label_noise
    y = np.where(flipped, -y, y)
    order = rng.permutation(n)
    return X[order], y[order]


def ten_points():
    """Ten points in the plane with a clean hard-margin solution.

    Points 0-4 are class -1, points 5-9 class +1.  The support vectors of
    the maximum-margin hyperplane are point 1 (class -1) and points 5 and 8
    (class +1).  Points 2 and 5 lie on the grid ``0.5 * k``, so that the
    chapter's sliders can move them; the other points lie off that grid, so
    that a moved point never lands exactly on a margin plane through two
    others (where the multipliers would not be unique).

    Returns
    -------
    X : ndarray of shape (10, 2)
    y : ndarray of shape (10,), values in {-1, +1}
    """
    X = np.array([[1.2, 1.7], [2.7, 1.3], [0.5, 1.0], [0.3, 2.7], [1.8, 0.7],
                  [3.0, 2.5], [4.3, 3.2], [2.8, 4.7], [4.2, 1.7], [3.7, 4.2]])
    y = np.array([-1, -1, -1, -1, -1, 1, 1, 1, 1, 1])
    return X, y
