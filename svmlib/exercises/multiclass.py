"""Checkers for the exercises of the multiclass chapter.

Book: chapter ``ch-multiclass``.

* :func:`check_training_counts` (ex-multiclass-count): how many binary
  problems one-vs-rest and one-vs-one train, on how many points, and how
  many kernel entries that takes;
* :func:`check_ovo_votes` (ex-multiclass-ovo-votes): count one-vs-one votes
  from the pairwise decision values;
* :func:`check_ovr_predict` (ex-multiclass-ovr-predict): predict by the
  largest one-vs-rest score.

Each returns a :class:`~svmlib.exercises.Feedback` and never raises.
"""

from itertools import combinations

import numpy as np

from ._core import AnswerError, Feedback, as_array, call_answer, checker

__all__ = ["check_training_counts", "check_ovo_votes", "check_ovr_predict",
           "reference_ovo_votes"]

_COUNT_KEYS = ("ovr_problems", "ovr_points", "ovr_kernel",
               "ovo_problems", "ovo_points", "ovo_kernel")


def reference_ovo_votes(pairwise, n_classes):
    """One-vs-one votes from pairwise decision values, as LIBSVM counts them.

    Parameters
    ----------
    pairwise : ndarray of shape (n_samples, n_classes * (n_classes - 1) / 2)
        Column ``p`` holds ``f_ij(x)`` for the ``p``-th pair ``(i, j)`` in the
        order (0, 1), (0, 2), ..., (1, 2), ...; a value > 0 is a vote for
        ``i``, any other value a vote for ``j``.  Book: (eq-mc-ovo-votes).
    n_classes : int

    Returns
    -------
    ndarray of shape (n_samples, n_classes), int
    """
    pairwise = np.asarray(pairwise, dtype=float)
    votes = np.zeros((pairwise.shape[0], n_classes), dtype=np.int64)
    for p, (i, j) in enumerate(combinations(range(n_classes), 2)):
        votes[:, i] += pairwise[:, p] > 0
        votes[:, j] += pairwise[:, p] <= 0
    return votes


@checker
def check_training_counts(answer, n_classes=10, n_per_class=100):
    """Check the counts of ex-multiclass-count.

    Parameters
    ----------
    answer : dict
        With the keys ``"ovr_problems"``, ``"ovr_points"`` (training points
        of *one* one-vs-rest problem), ``"ovr_kernel"`` (entries of all the
        kernel matrices of one-vs-rest together, ``Σ_p n_p²``), and the same
        three for ``"ovo_..."``.
    n_classes : int, default=10
    n_per_class : int, default=100

    Returns
    -------
    Feedback
    """
    if not isinstance(answer, dict):
        raise AnswerError(f"answer should be a dict with the keys {', '.join(_COUNT_KEYS)}; "
                          f"got an object of type {type(answer).__name__}.")
    missing = [key for key in _COUNT_KEYS if key not in answer]
    if missing:
        raise AnswerError(f"answer is missing the key(s) {', '.join(missing)}.")
    K, m = n_classes, n_per_class
    n = K * m
    right = {"ovr_problems": K, "ovr_points": n, "ovr_kernel": K * n ** 2,
             "ovo_problems": K * (K - 1) // 2, "ovo_points": 2 * m,
             "ovo_kernel": K * (K - 1) // 2 * (2 * m) ** 2}
    given = {}
    for key in _COUNT_KEYS:
        value = as_array(answer[key], key, shape=())
        given[key] = float(value)
    hints = []
    if given["ovo_problems"] == K * (K - 1):
        hints.append(f"ovo_problems: K(K-1) = {K * (K - 1)} counts every pair twice, as "
                     f"(i, j) and (j, i); one classifier per unordered pair is enough.")
    elif given["ovo_problems"] == K ** 2:
        hints.append("ovo_problems: a class is never paired with itself, and (i, j) is the "
                     "same problem as (j, i).")
    elif given["ovo_problems"] != right["ovo_problems"]:
        hints.append("ovo_problems: count the pairs {i, j} of distinct classes.")
    if given["ovr_problems"] != right["ovr_problems"]:
        hints.append("ovr_problems: one classifier per class.")
    if given["ovr_points"] == m:
        hints.append("ovr_points: a one-vs-rest problem uses the points of its class AND all "
                     "the others (they are the -1 side).")
    elif given["ovr_points"] != right["ovr_points"]:
        hints.append("ovr_points: every one-vs-rest problem is trained on the whole data set.")
    if given["ovo_points"] == n:
        hints.append("ovo_points: a pairwise problem uses only the points of its two classes.")
    elif given["ovo_points"] != right["ovo_points"]:
        hints.append(f"ovo_points: two classes of {m} points each.")
    for kind in ("ovr", "ovo"):
        key = f"{kind}_kernel"
        per_problem = right[f"{kind}_points"] ** 2
        if given[key] == right[f"{kind}_problems"] * right[f"{kind}_points"]:
            hints.append(f"{key}: a kernel matrix on n_p points has n_p^2 entries, not n_p.")
        elif given[key] == per_problem and right[f"{kind}_problems"] > 1:
            hints.append(f"{key}: that is one problem's matrix; add up all the problems.")
        elif given[key] != right[key]:
            hints.append(f"{key}: sum n_p^2 over the problems.")
    if hints:
        return Feedback(False, " ".join(hints))
    return Feedback(True, f"one-vs-rest trains {K} problems of {n} points "
                          f"({right['ovr_kernel']:.3g} kernel entries); one-vs-one "
                          f"{right['ovo_problems']} problems of {2 * m} points "
                          f"({right['ovo_kernel']:.3g} entries), "
                          f"{right['ovr_kernel'] / right['ovo_kernel']:.3g} times fewer.")


def _pairs_by_second(n_classes):
    """Pairs in a wrong but plausible order: (0,1), (0,2), (1,2), (0,3), (1,3), ..."""
    return [(i, j) for j in range(n_classes) for i in range(j)]


def _strict_votes(pairwise, pairs, n_classes, flip=False):
    """Votes counted with strict signs (a value of 0 gives no vote), optionally flipped."""
    votes = np.zeros((pairwise.shape[0], n_classes))
    for p, (i, j) in enumerate(pairs):
        value = -pairwise[:, p] if flip else pairwise[:, p]
        votes[:, i] += value > 0
        votes[:, j] += value < 0
    return votes


def _ovo_cases():
    rng = np.random.default_rng(9)
    cases = []
    for n_classes, n in ((3, 6), (4, 5), (5, 3)):
        pairwise = np.round(rng.normal(size=(n, n_classes * (n_classes - 1) // 2)), 2)
        pairwise[0, 0] = 0.0                     # exactly on a pairwise boundary
        cases.append((pairwise, n_classes))
    cyclic = np.array([[0.7, -0.4, 1.2]])        # 0 beats 1, 2 beats 0, 1 beats 2: a tie
    cases.append((cyclic, 3))
    return cases


@checker
def check_ovo_votes(func):
    """Check ``func(pairwise, n_classes) -> votes`` (ex-multiclass-ovo-votes).

    Parameters
    ----------
    func : callable
        Takes pairwise decision values of shape (n_samples, K (K - 1) / 2),
        pairs in the order (0, 1), (0, 2), ..., (1, 2), ..., and ``K``; returns
        the vote counts, shape (n_samples, K).  A value > 0 votes for the first
        class of the pair, any other value for the second (as LIBSVM does).

    Returns
    -------
    Feedback
    """
    for pairwise, n_classes in _ovo_cases():
        result = call_answer(func, pairwise.copy(), n_classes, name="your function")
        votes = as_array(result, "votes", shape=(pairwise.shape[0], n_classes))
        right = reference_ovo_votes(pairwise, n_classes)
        if np.array_equal(votes, right):
            continue
        n_pairs = n_classes * (n_classes - 1) // 2
        if not np.allclose(votes, np.round(votes)):
            return Feedback(False, "votes must be whole numbers: each pairwise classifier gives "
                                   "one vote, whatever the size of its decision value.")
        lex = list(combinations(range(n_classes), 2))
        rows = ~np.any(pairwise == 0, axis=1)          # no value exactly on a boundary

        def agrees(pairs, flip=False):
            return np.array_equal(votes[rows], _strict_votes(pairwise, pairs, n_classes,
                                                             flip)[rows])

        if agrees(lex):
            return Feedback(False, "right except where a decision value is exactly 0: that "
                                   "value still casts a vote, for j, the second class of the "
                                   "pair (only f_ij(x) > 0 votes for i).")
        if agrees(lex, flip=True):
            return Feedback(False, "the votes go the wrong way: f_ij(x) > 0 is a vote for i, "
                                   "the first class of the pair (it played +1 in training).")
        if agrees(_pairs_by_second(n_classes)):
            return Feedback(False, "the pairs are in the wrong order: column p belongs to the "
                                   "p-th pair of (0, 1), (0, 2), ..., (0, K-1), (1, 2), ..., as "
                                   "itertools.combinations(range(K), 2) lists them.")
        if not np.all(votes.sum(axis=1) == n_pairs):
            return Feedback(False, f"each row of votes must add up to the number of pairwise "
                                   f"classifiers, K(K-1)/2 = {n_pairs} for K = {n_classes}: "
                                   f"every classifier votes exactly once.")
        return Feedback(False, f"the votes differ from the expected ones for K = {n_classes}; "
                               f"for pair p = (i, j) add 1 to votes[:, i] where the value is "
                               f"> 0 and 1 to votes[:, j] elsewhere.")
    return Feedback(True, "every pairwise classifier casts one vote, > 0 for the first class of "
                          "its pair; that is how LIBSVM counts (the cyclic case ends in a "
                          "1-1-1 tie).")


def _ovr_cases():
    rng = np.random.default_rng(4)
    scores = np.round(rng.normal(size=(8, 3)), 2)
    scores[0] = [-0.5, -1.2, -0.1]               # nobody claims the point
    scores[1] = [0.8, 0.3, -1.0]                 # two classes claim it
    scores[2] = [-0.2, 0.4, 1.5]
    numeric = (scores, np.array([3, 5, 9]))
    text = (np.round(rng.normal(size=(5, 4)), 2), np.array(["ant", "bee", "cat", "dog"]))
    return [numeric, text]


@checker
def check_ovr_predict(func):
    """Check ``func(scores, classes) -> labels`` (ex-multiclass-ovr-predict).

    Parameters
    ----------
    func : callable
        Takes the one-vs-rest scores, shape (n_samples, K), and the class
        labels, shape (K,); returns the label with the largest score for
        each sample, shape (n_samples,).  Book: (eq-mc-ovr-argmax).

    Returns
    -------
    Feedback
    """
    for scores, classes in _ovr_cases():
        result = call_answer(func, scores.copy(), classes.copy(), name="your function")
        if result is None:
            raise AnswerError("your function returned None; did you forget the return?")
        labels = np.asarray(result)
        n = scores.shape[0]
        if labels.shape != (n,):
            if labels.shape == (scores.shape[1],):
                return Feedback(False, "labels has one entry per class: take the argmax of each "
                                       "row (axis=1), not of each column.")
            if labels.size == n:
                return Feedback(False, f"labels has shape {labels.shape}; return a flat array "
                                       f"of shape ({n},) (np.ravel).")
            return Feedback(False, f"labels has shape {labels.shape}; expected ({n},), one "
                                   f"label per row of scores.")
        right = classes[np.argmax(scores, axis=1)]
        if np.array_equal(labels, right):
            continue
        index = np.argmax(scores, axis=1)
        if labels.dtype.kind in "iuf" and np.array_equal(labels, index):
            return Feedback(False, "these are column indices, not labels: map them with "
                                   "classes[indices] (here the classes are "
                                   f"{classes.tolist()}).")
        if np.array_equal(labels, classes[np.argmin(scores, axis=1)]):
            return Feedback(False, "that is the class with the smallest score; the largest "
                                   "score wins (argmax).")
        claims = (scores > 0).sum(axis=1)
        clear = claims == 1
        if np.array_equal(labels[clear], right[clear]):
            return Feedback(False, "right where exactly one score is positive, but argmax must "
                                   "decide everywhere, also where no score or several scores "
                                   "are positive (compare the values, not their signs).")
        return Feedback(False, "these are not the one-vs-rest predictions. Take one row of "
                               "scores, decide by hand which class wins and how its label is "
                               "found from the column, then compare with your function.")
    return Feedback(True, "the largest score decides, also where all scores are negative or "
                          "several are positive, and the labels come from classes.")
