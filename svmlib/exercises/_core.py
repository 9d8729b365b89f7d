"""Machinery shared by every chapter's exercise checkers.

A checker takes the reader's answer and returns a :class:`Feedback`: truthy
when the answer is right, and otherwise a specific hint ("the sign of b is
wrong", "w has shape (2, 1); expected (2,)").  A checker must never crash on a
wrong or malformed answer, because the reader who gets a traceback learns
nothing about the exercise.  Two tools make that easy:

* :func:`as_array` converts an answer to a NumPy array and raises
  :class:`AnswerError` with a readable hint when it cannot (``None``, a string,
  a wrong shape, NaN, ...);
* :func:`checker` wraps a ``check_*`` function so that any exception raised
  while checking, an :class:`AnswerError` or anything else, becomes a
  ``Feedback`` with a hint instead of a traceback.

Example
-------
>>> from svmlib.exercises import checker, as_array, close, Feedback
>>> @checker
... def check_normal(w):
...     w = as_array(w, "w", shape=(2,))
...     if close(w, [1.0, -1.0]):
...         return Feedback(True, "w = (1, -1) is orthogonal to the line.")
...     if close(w, [-1.0, 1.0]):
...         return Feedback(False, "right direction, but w points the wrong way.")
...     return Feedback(False, "w must be orthogonal to the line x2 = x1.")
>>> check_normal(None)
❌ Not yet: w is None; did you forget to assign it (or to return it)?
"""

import functools
import html
import re

import numpy as np

__all__ = ["Feedback", "AnswerError", "checker", "as_array", "close", "call_answer",
           "assert_correct", "exercise_data"]

_CORRECT = "\u2705 Correct"  # ✅
_NOT_YET = "\u274c Not yet"  # ❌

# The mark that a verdict came out of a checker (see Feedback.issued): an
# object that only this module holds, set by the checker() wrapper.
_ISSUED = object()


class AnswerError(Exception):
    """An answer that cannot be checked, with a hint for the reader.

    Raised by :func:`as_array` and :func:`call_answer` (and by chapter
    checkers); :func:`checker` turns it into a :class:`Feedback`.

    Parameters
    ----------
    hint : str
        What is wrong with the answer and how to fix it, written for the
        reader of the book.
    """

    def __init__(self, hint):
        super().__init__(hint)
        self.hint = str(hint)


class Feedback:
    """The verdict on an answer: truthy when correct, with a message.

    Displays as ``"✅ Correct: <message>"`` or ``"❌ Not yet: <message>"``,
    in plain text and in HTML; both are deterministic (no addresses, no
    timings), so a stored notebook compares equal under nbval.

    Parameters
    ----------
    correct : bool
        Whether the answer is right.
    message : str, default=""
        Why it is right, or a specific hint saying what to change.

    Examples
    --------
    >>> Feedback(True, "the margin is 1/||w||.")
    ✅ Correct: the margin is 1/||w||.
    >>> bool(Feedback(False, "check the sign of b."))
    False
    """

    def __init__(self, correct, message=""):
        self.correct = bool(correct)
        self.message = str(message).strip()
        self._mark = None

    @property
    def issued(self):
        """Whether a checker made this verdict (``False`` for one built by hand).

        A grader reads ``correct`` only from a verdict that is
        :attr:`issued`: ``Feedback(True, "...")`` written in an answer cell
        displays like a checker's verdict but is not issued, and
        :func:`assert_correct` rejects it.
        """
        return self._mark is _ISSUED

    @classmethod
    def right(cls, message=""):
        """A positive verdict: ``Feedback.right(msg)`` is ``Feedback(True, msg)``."""
        return cls(True, message)

    @classmethod
    def hint(cls, message):
        """A negative verdict with a hint: ``Feedback(False, msg)``."""
        return cls(False, message)

    def __bool__(self):
        return self.correct

    def __eq__(self, other):
        if isinstance(other, Feedback):
            return (self.correct, self.message) == (other.correct, other.message)
        return NotImplemented

    def __hash__(self):
        return hash((self.correct, self.message))

    @property
    def text(self):
        """The verdict as one line of plain text."""
        head = _CORRECT if self.correct else _NOT_YET
        return f"{head}: {self.message}" if self.message else head

    def __str__(self):
        return self.text

    def __repr__(self):
        return self.text

    def _repr_pretty_(self, p, cycle):
        p.text(self.text)

    def _repr_html_(self):
        kind = "correct" if self.correct else "not-yet"
        colour, background = (("#1b5e20", "#e8f5e9") if self.correct
                              else ("#8a1c1c", "#fdecea"))
        head = _CORRECT if self.correct else _NOT_YET
        body = html.escape(self.message)
        sep = ": " if body else ""
        return (
            f'<div class="svmlib-feedback svmlib-feedback-{kind}" role="status" '
            f'style="border-left:4px solid {colour};background:{background};'
            f'color:{colour};padding:0.4em 0.8em;margin:0.3em 0;">'
            f"<strong>{head}</strong>{sep}{body}</div>"
        )


def _describe(answer):
    """A short description of an answer for hints (no memory addresses)."""
    if answer is None:
        return "None"
    if isinstance(answer, bytes):
        answer = answer.decode("utf-8", "replace")
    if isinstance(answer, str):
        text = answer if len(answer) <= 30 else answer[:27] + "..."
        return f"the string {text!r}"
    if callable(answer):
        return f"a function ({getattr(answer, '__name__', type(answer).__name__)})"
    if isinstance(answer, np.ndarray):
        return f"an array of shape {answer.shape}"
    return f"an object of type {type(answer).__name__}"


def _shape_text(shape):
    inner = ", ".join("n" if s is None else str(s) for s in shape)
    return f"({inner},)" if len(shape) == 1 else f"({inner})"


def as_array(answer, name="answer", shape=None, dtype=float, allow_nan=False):
    """Convert an answer to an array, or raise :class:`AnswerError` with a hint.

    Parameters
    ----------
    answer : object
        What the reader gave: a list, a tuple, an array, a number...
    name : str, default="answer"
        The name the exercise uses for it (``"w"``, ``"alpha"``), for hints.
    shape : tuple of (int or None), optional
        The expected shape; ``None`` in a position accepts any length there,
        e.g. ``(None, 2)`` for "n rows, two columns".  A transposed answer and
        a column vector where a flat vector is expected get their own hints.
    dtype : data-type, default=float
        The dtype to convert to.
    allow_nan : bool, default=False
        Whether NaN and infinite entries are acceptable.

    Returns
    -------
    ndarray of shape ``shape``

    Raises
    ------
    AnswerError
        When the answer is missing, is not numeric, has the wrong shape, or
        contains NaN or infinity.
    """
    if answer is None:
        raise AnswerError(f"{name} is None; did you forget to assign it (or to return it)?")
    if answer is Ellipsis:
        raise AnswerError(f"{name} is still the placeholder `...`; replace it with your answer.")
    if isinstance(answer, (str, bytes)):
        raise AnswerError(f"{name} should be numbers, but it is {_describe(answer)}; "
                          f"write the numbers without quotes.")
    if callable(answer) and not isinstance(answer, np.ndarray):
        raise AnswerError(f"{name} should be numbers, but it is {_describe(answer)}; "
                          f"call the function and pass its result.")
    try:
        arr = np.asarray(answer, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        raise AnswerError(
            f"{name} could not be read as an array of numbers (it is {_describe(answer)}); "
            f"give a list or NumPy array of numbers with the same length in every row."
        ) from None
    if shape is not None:
        shape = tuple(shape)
        if not _shape_matches(arr.shape, shape):
            raise AnswerError(_shape_hint(name, arr.shape, shape))
    if not allow_nan and arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        raise AnswerError(f"{name} contains NaN or infinite values; check for a division "
                          f"by zero or an undefined variable.")
    return arr


def _shape_matches(got, expected):
    return len(got) == len(expected) and all(e is None or g == e for g, e in zip(got, expected))


def _shape_hint(name, got, expected):
    want = _shape_text(expected)
    have = _shape_text(got)
    base = f"{name} has shape {have}; expected {want}."
    if len(got) == 2 and len(expected) == 2 and _shape_matches(got[::-1], expected):
        return base + f" It looks transposed: try {name}.T."
    squeezed = tuple(s for s in got if s != 1)
    if len(expected) == 1 and len(got) == 2 and _shape_matches(squeezed, expected):
        return base + f" It is a row or column vector: flatten it with np.ravel({name})."
    if len(expected) == 2 and len(got) == 1 and 1 in expected:
        return base + f" Reshape it, e.g. np.reshape({name}, {want})."
    if len(got) == 0:
        return base + " You gave a single number where an array is expected."
    return base


def close(a, b, rtol=1e-6, atol=1e-8):
    """Whether two numbers or arrays agree within a tolerance (never raises).

    Parameters
    ----------
    a, b : array-like
        The values to compare; shapes must be equal (no broadcasting, so a
        column vector is not "close" to a flat vector).
    rtol, atol : float
        Relative and absolute tolerances, as in :func:`numpy.allclose`.

    Returns
    -------
    bool
        ``False`` for different shapes, non-numeric input or NaN.
    """
    try:
        a = np.asarray(a, dtype=float)
        b = np.asarray(b, dtype=float)
    except (TypeError, ValueError, OverflowError):
        return False
    if a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=False))


def call_answer(func, *args, name="your function", **kwargs):
    """Call a function the reader wrote; turn its failure into an :class:`AnswerError`.

    Parameters
    ----------
    func : callable
        The reader's function.
    *args, **kwargs
        Passed on to ``func``.
    name : str, default="your function"
        How the hint refers to it.

    Returns
    -------
    object
        Whatever ``func`` returns.
    """
    if not callable(func):
        raise AnswerError(f"{name} should be a function, but it is {_describe(func)}.")
    try:
        with np.errstate(all="ignore"):
            return func(*args, **kwargs)
    except Exception as exc:  # the reader's code: any error becomes a hint
        raise AnswerError(f"{name} raised {type(exc).__name__}: {_clean(exc)}") from None


def exercise_data(passed, exercise, other_data=False):
    """The data a checker compares an answer with: the exercise's own.

    A book cell may pass the exercise's givens to its checker
    (``check_bisector((w, b), a, c)``), but they sit in a cell the reader can
    edit: a checker that took them as its reference would call an answer to
    another problem correct.  So the reference is always the exercise's data,
    which the checker makes itself, and data passed along must be that data.

    Parameters
    ----------
    passed : dict
        name -> what the caller passed (``None``: not passed), in the
        checker's order.
    exercise : dict
        name -> the exercise's own value, for every name of ``passed``.
    other_data : bool, default=False
        Check on the data passed instead (each one not passed is the
        exercise's): for using a checker beyond the book's exercise.  The
        course's hidden tests never pass data.

    Returns
    -------
    tuple
        The values to check against, in the order of ``passed``.

    Raises
    ------
    AnswerError
        When a value passed is not the exercise's (and ``other_data`` is False).
    """
    if other_data:
        return tuple(exercise[name] if value is None else value
                     for name, value in passed.items())
    for name, value in passed.items():
        if value is not None and not _same_data(value, exercise[name]):
            raise AnswerError(
                f"the {name} passed to the checker is not the exercise's {name}. The checker "
                f"compares your answer with the exercise's own data: re-run the cell that "
                f"defines {name} and leave it as the exercise gives it (to check an answer on "
                f"data of your own, pass other_data=True).")
    return tuple(exercise.values())


def _same_data(given, reference):
    """Whether ``given`` is ``reference`` (same shape, the same numbers); never raises."""
    return close(given, reference, rtol=1e-9, atol=1e-12)


def _clean(exc):
    """The message of an exception on one line, without memory addresses."""
    text = " ".join(str(exc).split())
    text = re.sub(r" at 0x[0-9a-fA-F]+", "", text)
    return text if len(text) <= 200 else text[:197] + "..."


def assert_correct(verdict):
    """Raise ``AssertionError`` unless ``verdict`` is a checker's positive verdict.

    The grading side of a checker (the hidden tests of the course edition,
    ``make course``): call the checker on the answer, then this on what it
    returned.  A verdict built by hand, ``Feedback(True, ...)``, or anything
    that is not a :class:`Feedback` fails, whatever it displays.

    Parameters
    ----------
    verdict : Feedback
        What a ``check_*`` function returned.

    Raises
    ------
    AssertionError
        With the checker's hint when the answer is not right.
    """
    if not isinstance(verdict, Feedback) or not verdict.issued:
        raise AssertionError(f"not a checker's verdict ({_describe(verdict)}); call the "
                             f"exercise's check_* function on your answer.")
    if not verdict.correct:
        raise AssertionError(verdict.text)


def _issue(verdict):
    """A copy of ``verdict`` marked as made by a checker."""
    issued = Feedback(verdict.correct, verdict.message)
    issued._mark = _ISSUED
    return issued


def checker(func):
    """Decorator: make a ``check_*`` function always return a :class:`Feedback`.

    Inside the wrapped function, return a ``Feedback`` (or a bool, turned into
    a bare verdict) and raise :class:`AnswerError` for answers that cannot be
    checked.  Any other exception (say, the reader's answer made NumPy raise)
    also becomes a ``Feedback`` whose hint names the error, so a checker never
    crashes on a malformed answer.  NumPy floating-point warnings are silenced
    while checking.  Every verdict it returns is :attr:`Feedback.issued`, which
    a verdict constructed by hand is not.
    """

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            with np.errstate(all="ignore"):
                result = func(*args, **kwargs)
        except AnswerError as exc:
            return _issue(Feedback(False, exc.hint))
        except Exception as exc:  # never crash on a malformed answer
            return _issue(Feedback(False, f"your answer could not be checked "
                                          f"({type(exc).__name__}: {_clean(exc)}); check its "
                                          f"type and shape against the exercise."))
        if isinstance(result, Feedback):
            return _issue(result)
        if isinstance(result, (bool, np.bool_)):
            return _issue(Feedback(bool(result),
                                   "" if result else "this is not the expected answer."))
        return _issue(Feedback(False, f"the checker returned {_describe(result)} instead of "
                                      f"a verdict."))

    return wrapper
