"""Tests of the exercise machinery: Feedback, @checker, as_array, close, call_answer."""

import math

import numpy as np
import pytest

from svmlib.exercises import AnswerError, Feedback, as_array, call_answer, checker, close


# ------------------------------------------------------------------ Feedback

def test_feedback_truthiness_and_text():
    good = Feedback(True, "w is orthogonal to the line.")
    bad = Feedback(False, "check the sign of b.")
    assert good and not bad
    assert repr(good) == str(good) == "\u2705 Correct: w is orthogonal to the line."
    assert repr(bad) == "\u274c Not yet: check the sign of b."
    assert Feedback(True).text == "\u2705 Correct"


def test_feedback_html_is_escaped_and_deterministic():
    fb = Feedback(False, "use <w, x> + b, not <x, w>")
    html = fb._repr_html_()
    assert html == Feedback(False, "use <w, x> + b, not <x, w>")._repr_html_()
    assert "&lt;w, x&gt;" in html and "<w, x>" not in html
    assert 'class="svmlib-feedback svmlib-feedback-not-yet"' in html
    assert "svmlib-feedback-correct" in Feedback(True, "ok")._repr_html_()
    assert "0x" not in html


def test_feedback_pretty_printer_uses_text():
    from IPython.lib.pretty import pretty

    assert pretty(Feedback(True, "fine")) == "\u2705 Correct: fine"


def test_feedback_constructors_and_equality():
    assert Feedback.right("yes") == Feedback(True, "yes")
    assert Feedback.hint("no") == Feedback(False, "no")
    assert Feedback(True, "a") != Feedback(False, "a")
    assert len({Feedback(True, "a"), Feedback(True, "a")}) == 1


# ------------------------------------------------------------------ as_array

def test_as_array_accepts_lists_and_checks_shape():
    arr = as_array([1, 2], "w", shape=(2,))
    assert arr.dtype == float and arr.shape == (2,)
    assert as_array([[1, 2], [3, 4], [5, 6]], "X", shape=(None, 2)).shape == (3, 2)


@pytest.mark.parametrize(
    "answer, shape, fragment",
    [
        (None, None, "is None"),
        (..., None, "placeholder"),
        ("1, 2", None, "string"),
        (b"12", None, "string"),
        (len, None, "function"),
        ([[1, 2], [3]], None, "could not be read"),
        ({"a": 1}, None, "could not be read"),
        ([1.0, float("nan")], (2,), "NaN"),
        ([1.0, math.inf], (2,), "NaN or infinite"),
        ([1, 2, 3], (2,), "expected (2,)"),
        (3.0, (2,), "single number"),
        (np.zeros((3, 2)), (2, 3), "transposed"),
        (np.zeros((2, 1)), (2,), "np.ravel"),
        (np.zeros(2), (2, 1), "Reshape"),
    ],
)
def test_as_array_rejects_malformed_answers_with_hints(answer, shape, fragment):
    with pytest.raises(AnswerError) as info:
        as_array(answer, "w", shape=shape)
    assert fragment in info.value.hint
    assert info.value.hint.count("w") >= 1


def test_as_array_allow_nan():
    arr = as_array([1.0, np.nan], "x", allow_nan=True)
    assert np.isnan(arr[1])


# ------------------------------------------------------------------ close

def test_close():
    assert close(0.1 + 0.2, 0.3)
    assert close([1.0, 2.0], np.array([1.0, 2.0 + 1e-9]))
    assert not close([1.0, 2.0], [1.0, 2.1])
    assert not close([1.0, 2.0], [[1.0, 2.0]])  # no broadcasting
    assert not close(np.nan, np.nan)
    assert not close("a", 1.0)
    assert not close(None, 1.0)
    assert close(1.0, 1.05, rtol=0.1)


# ------------------------------------------------------------------ checker

@checker
def check_w(w):
    """The normal of the line x2 = x1 (w = (1, -1) up to scale)."""
    w = as_array(w, "w", shape=(2,))
    if np.allclose(w, 0):
        return Feedback(False, "w = 0 is not a normal vector.")
    cos = w @ np.array([1.0, -1.0]) / (np.linalg.norm(w) * math.sqrt(2))
    if close(cos, 1.0):
        return Feedback(True, "w is orthogonal to the line.")
    if close(cos, -1.0):
        return Feedback(False, "right direction, but the sign is flipped.")
    return Feedback(False, "w must be orthogonal to the direction (1, 1).")


def test_checker_right_and_specific_wrong_answers():
    assert check_w([2, -2])
    assert check_w([-1, 1]).message == "right direction, but the sign is flipped."
    assert not check_w([1, 1])


@pytest.mark.parametrize(
    "answer",
    [None, "w", [1, 2, 3], [[1], [-1]], [np.nan, 1], {"w": 1}, object(), len, [1j, 2], ...],
)
def test_checker_never_raises_on_malformed_answers(answer):
    result = check_w(answer)
    assert isinstance(result, Feedback)
    assert not result
    assert result.message
    assert "0x" not in result.text


def test_checker_turns_unexpected_exceptions_into_feedback():
    @checker
    def check_boom(answer):
        return {}["missing"]

    fb = check_boom(1)
    assert not fb
    assert "KeyError" in fb.message and "could not be checked" in fb.message


def test_checker_accepts_bool_results_and_flags_other_results():
    assert checker(lambda a: a == 1)(1)
    assert not checker(lambda a: a == 1)(2)
    assert checker(lambda a: np.bool_(True))(0)
    odd = checker(lambda a: 42)(0)
    assert not odd and "instead of a verdict" in odd.message


def test_checker_keeps_name_and_doc():
    assert check_w.__name__ == "check_w"
    assert "normal" in check_w.__doc__


def test_checker_silences_numpy_warnings(recwarn):
    fb = checker(lambda a: bool(np.log(np.asarray(a, float)) .sum() > 0))([0.0, -1.0])
    assert isinstance(fb, Feedback)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


# ------------------------------------------------------------------ call_answer

def test_call_answer_wraps_the_readers_errors():
    def predict(X):
        raise ZeroDivisionError("division by zero")

    with pytest.raises(AnswerError) as info:
        call_answer(predict, np.zeros((2, 2)), name="predict")
    assert info.value.hint == "predict raised ZeroDivisionError: division by zero"
    with pytest.raises(AnswerError, match="should be a function"):
        call_answer(None, name="predict")
    assert call_answer(lambda x: x + 1, 1) == 2


def test_checker_with_a_function_answer_that_raises():
    @checker
    def check_predict(predict):
        out = as_array(call_answer(predict, np.array([[1.0, 2.0]]), name="predict"),
                       "predict(X)", shape=(1,))
        return Feedback(close(out, [1.0]), "ok" if close(out, [1.0]) else "wrong label")

    fb = check_predict(lambda X: X.missing_attribute)
    assert not fb and "AttributeError" in fb.message
    assert check_predict(lambda X: np.ones(1))
    assert "shape" in check_predict(lambda X: np.ones(3)).message
