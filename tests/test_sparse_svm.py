"""Sparse input to the kernel SVMs: the CSR row source, the solver, the estimators.

* the row source of compressed sparse rows (``svmlib/_smo_rows.py``,
  ``csr_rows``) gives the kernel values of the dense row source (to the last
  bit where the squared norms do not enter), compiled and interpreted alike;
* SMO on sparse points takes the steps it takes on the same points dense;
* every kernel estimator fitted on sparse input matches ``sklearn.svm`` on
  the same sparse input (same support set, dual coefficients and decision
  values within the tolerance's reach, same predictions) and svmlib fitted
  on the dense copy, and behaves as scikit-learn does around it: sparse
  fitted attributes, dense input after a sparse fit, sparse input after a
  dense fit refused, sparse precomputed kernels refused.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.base
import sklearn.svm

import svmlib
from svmlib import _smo_rows as rows_module
from svmlib import _smo_steps as steps
from svmlib import NotSeparableError, kernels
from svmlib.smo import _named_kernel, solve_dual_smo

KERNEL_PARAMS = {
    "linear": {},
    "rbf": {"gamma": 0.8},
    "poly": {"gamma": 0.5, "coef0": 1.0, "degree": 3},
    "sigmoid": {"gamma": 0.05, "coef0": 0.0},
}


def sparse_points(n=150, d=40, density=0.15, seed=0):
    """A CSR matrix with rows of different lengths (some empty) and its labels."""
    rng = np.random.default_rng(seed)
    X = sp.random(n, d, density=density, random_state=seed, format="csr",
                  data_rvs=lambda k: rng.normal(size=k))
    X = sp.csr_matrix(X)
    score = np.asarray(X @ rng.normal(size=d)).ravel()
    y = np.where(score + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


def csr_source(name, X, cache_size=200.0):
    kind, gamma, coef0, degree = _named_kernel(kernels.get_kernel(name, **KERNEL_PARAMS[name]))
    return rows_module.csr_rows(kind, X, gamma, coef0, degree, cache_size=cache_size)


def dense_source(name, X):
    kind, gamma, coef0, degree = _named_kernel(kernels.get_kernel(name, **KERNEL_PARAMS[name]))
    return rows_module.kernel_rows(kind, X, gamma, coef0, degree)


# ------------------------------------------------------------------ the row source

@pytest.mark.parametrize("name", sorted(KERNEL_PARAMS))
def test_csr_rows_give_the_kernel_values_of_the_dense_rows(name):
    """sparse_block, sparse_dot (kernel_value) and the dense kernel_block agree:
    bit for bit for the kernels of <x, z> alone, to rounding of the squared
    norms for RBF; compiled and interpreted give the same bits."""
    X, _ = sparse_points(n=300, d=30)
    dense = dense_source(name, X.toarray())
    n = X.shape[0]
    expected = np.empty(n)
    steps.COMPILED.kernel_block(dense, 17, 0, n, expected, 0)
    for ns in (steps.COMPILED, steps.INTERPRETED):
        source = csr_source(name, X)
        block = np.full(n + 2, np.nan)
        ns.kernel_block(source, 17, 0, n, block, 1)
        values = np.array([ns.kernel_value(source, 17, t) for t in range(n)])
        np.testing.assert_array_equal(block[1:n + 1], values)
        assert np.isnan(block[0]) and np.isnan(block[n + 1])
        if name == "rbf":
            np.testing.assert_allclose(values, expected, rtol=1e-14, atol=1e-15)
        else:
            np.testing.assert_array_equal(values, expected)
        # The scratch row is left clear for the next row.
        assert not source.dense_row.any()


def test_csr_rows_take_canonical_rows_of_any_format():
    """Unsorted indices and duplicate entries (summed) give the same source."""
    X, _ = sparse_points(n=40, d=12)
    coo = X.tocoo()
    order = np.random.default_rng(1).permutation(coo.nnz)
    half = coo.data[order] / 2
    messy = sp.coo_matrix((np.concatenate([half, half]),
                           (np.concatenate([coo.row[order]] * 2),
                            np.concatenate([coo.col[order]] * 2))), shape=X.shape)
    a, b = csr_source("rbf", X), csr_source("rbf", messy)
    np.testing.assert_array_equal(a.indptr, b.indptr)
    np.testing.assert_array_equal(a.indices, b.indices)
    np.testing.assert_allclose(a.data, b.data, rtol=1e-15)
    assert a.indices.dtype == np.int64 and a.XT.shape == (0, 40)


@pytest.mark.parametrize("ns", ["COMPILED", "INTERPRETED"])
def test_permuting_sparse_rows_follows_the_working_order(ns):
    f = getattr(steps, ns)
    X, _ = sparse_points(n=25, d=10)
    source = csr_source("linear", X)
    new_to_old = np.random.default_rng(2).permutation(25).astype(np.int64)
    f.permute_points(source, new_to_old, 25)
    permuted = sp.csr_matrix((source.data, source.indices, source.indptr), shape=X.shape)
    np.testing.assert_array_equal(permuted.toarray(), X.toarray()[new_to_old])
    np.testing.assert_allclose(source.sqnorm, np.asarray(X.multiply(X).sum(1)).ravel()[new_to_old])


# ------------------------------------------------------------------ the solver

def assert_identical_steps(a, b):
    assert a.n_iter == b.n_iter
    assert [(s["i"], s["j"]) for s in a.trace] == [(s["i"], s["j"]) for s in b.trace]
    np.testing.assert_array_equal(a.alpha, b.alpha)
    assert a.b == b.b
    assert a.info["shrink_events"] == b.info["shrink_events"]


@pytest.fixture
def csr_always(monkeypatch):
    """Sparse points stay sparse in the solver, however small."""
    monkeypatch.setattr(kernels, "SMALL_SPARSE_ENTRIES", 0)


@pytest.mark.parametrize("name", ["linear", "poly", "sigmoid"])
def test_smo_on_sparse_points_takes_the_steps_of_the_dense_points(name, csr_always):
    """A cache small enough that rows are evicted and re-packed at every
    shrinking: the sparse rows give the dense rows' values, so the steps are
    the same, compiled and interpreted."""
    X, y = sparse_points(n=70, d=25)
    kernel = kernels.get_kernel(name, **KERNEL_PARAMS[name])
    options = dict(C=2.0, tol=1e-6, precompute_kernel=False, record_trace=True,
                   cache_size=8 * 70 * 8 / 2**20)
    dense = solve_dual_smo(kernel, y, X=X.toarray(), **options)
    assert dense.info["shrink_events"] >= (0 if name == "sigmoid" else 1)
    for compiled in (True, False):
        sparse = solve_dual_smo(kernel, y, X=X, compiled=compiled, **options)
        assert sparse.info["cache_misses"] > 0 and not sparse.info["kernel_precomputed"]
        assert_identical_steps(dense, sparse)


def test_smo_rbf_on_sparse_points_reaches_the_dense_solution(csr_always):
    X, y = sparse_points(n=80, d=30)
    kernel = kernels.get_kernel("rbf", gamma=0.8)
    options = dict(C=5.0, tol=1e-8, precompute_kernel=False, cache_size=0.02)
    dense = solve_dual_smo(kernel, y, X=X.toarray(), **options)
    sparse = solve_dual_smo(kernel, y, X=X, **options)
    interpreted = solve_dual_smo(kernel, y, X=X, compiled=False, **options)
    np.testing.assert_array_equal(sparse.alpha, interpreted.alpha)
    np.testing.assert_allclose(sparse.alpha, dense.alpha, atol=1e-7)
    assert sparse.b == pytest.approx(dense.b, abs=1e-7)


def test_smo_passes_sparse_points_to_a_kernel_function():
    X, y = sparse_points(n=80, d=20)

    def product(A, B):
        assert sp.issparse(A) and sp.issparse(B)
        return (A @ B.T).toarray()

    for precompute in (True, False):
        result = solve_dual_smo(product, y, X=X, C=1.0, tol=1e-8, precompute_kernel=precompute)
        reference = solve_dual_smo(X.toarray() @ X.toarray().T, y, C=1.0, tol=1e-8)
        np.testing.assert_allclose(result.alpha, reference.alpha, atol=1e-7)


# ------------------------------------------------------------------ the estimators

def estimator_problems():
    X, y = sparse_points(n=140, d=30, seed=3)
    s = np.asarray(X.sum(axis=1)).ravel()
    y3 = np.digitize(s, np.quantile(s, [0.33, 0.66]))
    z = s + 0.1 * np.random.default_rng(4).normal(size=s.shape[0])
    return X, {"SVC": y, "SVC3": y3, "NuSVC": y3, "SVR": z, "NuSVR": z, "OneClassSVM": None}


ESTIMATORS = {"SVC": ("SVC", {}), "SVC3": ("SVC", {}), "NuSVC": ("NuSVC", {"nu": 0.4}),
              "SVR": ("SVR", {"epsilon": 0.05}), "NuSVR": ("NuSVR", {"nu": 0.4}),
              "OneClassSVM": ("OneClassSVM", {"nu": 0.3})}


def values(model, X):
    if hasattr(model, "decision_function"):
        return model.decision_function(X)
    return model.predict(X)


#: Every estimator with every kernel, except the one-class SVM with the linear
#: kernel (the origin is inside the data: rho is about 0 and the solution is
#: degenerate, svmlib warns) and with the sigmoid (not positive semidefinite
#: here: the two solvers stop at different stationary points).
ESTIMATOR_KERNELS = [(case, kernel) for case in sorted(ESTIMATORS)
                     for kernel in sorted(KERNEL_PARAMS)
                     if not (case == "OneClassSVM" and kernel in ("linear", "sigmoid"))]


@pytest.mark.parametrize("rows", ["small sparse made dense", "compressed rows"])
@pytest.mark.parametrize("case, kernel", ESTIMATOR_KERNELS)
def test_estimators_on_sparse_input_match_libsvm_and_the_dense_fit(case, kernel, rows,
                                                                   monkeypatch):
    """Both ways svmlib computes a kernel on sparse points: a small matrix
    made dense, and (forced here) the rows from the compressed rows."""
    if rows == "compressed rows":
        monkeypatch.setattr(kernels, "SMALL_SPARSE_ENTRIES", 0)
    X, targets = estimator_problems()
    name, params = ESTIMATORS[case]
    params = dict(params, kernel=kernel, tol=1e-7, **KERNEL_PARAMS[kernel])
    y = targets[case]
    ours = getattr(svmlib, name)(**params).fit(X, y)
    theirs = getattr(sklearn.svm, name)(**params).fit(X, y)
    dense = getattr(svmlib, name)(**params).fit(X.toarray(), y)
    # The fitted attributes are sparse, as scikit-learn's.
    assert sp.issparse(ours.support_vectors_) and sp.issparse(ours.dual_coef_)
    assert type(ours.support_vectors_) is type(theirs.support_vectors_)
    assert type(ours.dual_coef_) is type(theirs.dual_coef_)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_array_equal(ours.support_, dense.support_)
    np.testing.assert_array_equal(ours.support_vectors_.toarray(), dense.support_vectors_)
    scale = max(1.0, float(np.abs(theirs.dual_coef_.toarray()).max()))
    np.testing.assert_allclose(ours.dual_coef_.toarray(), theirs.dual_coef_.toarray(),
                               atol=1e-4 * scale)
    np.testing.assert_allclose(ours.dual_coef_.toarray(), dense.dual_coef_, atol=1e-5 * scale)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=1e-4 * scale)
    f_ours, f_theirs = values(ours, X), values(theirs, X)
    np.testing.assert_allclose(f_ours, f_theirs, atol=1e-4 * scale)
    np.testing.assert_allclose(f_ours, values(dense, X.toarray()), atol=1e-5 * scale)
    if name != "SVR" and name != "NuSVR":
        # Same predictions, apart from points within the tolerance of a tie.
        if f_ours.ndim == 1:
            clear = np.abs(f_theirs) > 1e-4 * scale
        else:
            clear = np.ones(X.shape[0], dtype=bool)
        np.testing.assert_array_equal(ours.predict(X)[clear], theirs.predict(X)[clear])


def test_rbf_svc_on_sparse_rows_beyond_the_gram_matrix_matches_libsvm():
    """Above AUTO_GRAM_MAX_VALUES the rows come from the compressed rows."""
    X, y = sparse_points(n=1100, d=4000, density=0.003, seed=5)
    assert X.shape[0] * X.shape[1] > kernels.SMALL_SPARSE_ENTRIES
    params = dict(kernel="rbf", gamma=0.5, C=3.0, tol=1e-6)
    ours = svmlib.SVC(**params).fit(X, y)
    assert not ours.solver_result_.info["kernel_precomputed"]
    theirs = sklearn.svm.SVC(**params).fit(X, y)
    np.testing.assert_array_equal(ours.support_, theirs.support_)
    np.testing.assert_allclose(ours.dual_coef_.toarray(), theirs.dual_coef_.toarray(),
                               atol=1e-4)
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=1e-4)


def test_predict_takes_dense_input_after_a_sparse_fit():
    X, y = sparse_points()
    model = svmlib.SVC(kernel="rbf", gamma=0.8).fit(X, y)
    np.testing.assert_array_equal(model.decision_function(X.toarray()),
                                  model.decision_function(X))


def test_sparse_input_after_a_dense_fit_is_refused_as_scikit_learn_does():
    X, y = sparse_points()
    for estimator in (svmlib.SVC(), svmlib.NuSVC(nu=0.3), svmlib.SVR(), svmlib.NuSVR(),
                      svmlib.OneClassSVM()):
        target = None if isinstance(estimator, svmlib.OneClassSVM) else y
        estimator.fit(X.toarray(), target)
        name = type(estimator).__name__
        method = getattr(estimator, "decision_function", estimator.predict)
        with pytest.raises(ValueError, match=f"cannot use sparse input in '{name}' trained on "
                                             f"dense data"):
            method(X)


def test_a_kernel_function_gets_sparse_input_at_fit_and_predict():
    X, y = sparse_points(n=90)
    seen = []

    def product(A, B):
        seen.append(sp.issparse(A) and sp.issparse(B))
        return (A @ B.T).toarray()

    ours = svmlib.SVC(kernel=product, tol=1e-8).fit(X, y)
    theirs = svmlib.SVC(kernel="linear", tol=1e-8).fit(X, y)
    np.testing.assert_allclose(ours.decision_function(X), theirs.decision_function(X),
                               atol=1e-6)
    assert all(seen)


def test_sparse_precomputed_kernel_is_refused_with_scikit_learns_message():
    X, y = sparse_points(n=50)
    K = sp.csr_matrix(X @ X.T)
    for ours in (svmlib.SVC(kernel="precomputed"), svmlib.SVR(kernel="precomputed"),
                 svmlib.OneClassSVM(kernel="precomputed")):
        with pytest.raises(TypeError, match="Sparse precomputed kernels are not supported."):
            ours.fit(K, y)
    with pytest.raises(TypeError, match="Sparse precomputed kernels are not supported."):
        sklearn.svm.SVC(kernel="precomputed").fit(K, y)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil", "dok", "bsr"])
def test_every_sparse_format_gives_the_csr_fit(fmt):
    X, y = sparse_points(n=80)
    reference = svmlib.SVC(kernel="rbf", gamma=0.8).fit(X, y)
    model = svmlib.SVC(kernel="rbf", gamma=0.8).fit(X.asformat(fmt), y)
    np.testing.assert_array_equal(model.support_, reference.support_)
    np.testing.assert_array_equal(model.decision_function(X.asformat(fmt)),
                                  reference.decision_function(X))


def test_sparse_arrays_and_int64_indices_are_accepted():
    X, y = sparse_points(n=80)
    X64 = sp.csr_array(X)
    X64.indices = X64.indices.astype(np.int64)
    X64.indptr = X64.indptr.astype(np.int64)
    model = svmlib.SVC(kernel="linear").fit(X64, y)
    assert sp.issparse(model.support_vectors_)
    np.testing.assert_allclose(model.decision_function(X64),
                               svmlib.SVC(kernel="linear").fit(X, y).decision_function(X))


def test_linear_coef_is_sparse_and_read_only_after_a_sparse_fit():
    X, targets = estimator_problems()
    for ours, theirs, y in [
            (svmlib.SVC(kernel="linear"), sklearn.svm.SVC(kernel="linear"), targets["SVC3"]),
            (svmlib.SVR(kernel="linear"), sklearn.svm.SVR(kernel="linear"), targets["SVR"]),
            (svmlib.OneClassSVM(kernel="linear"), sklearn.svm.OneClassSVM(kernel="linear"),
             None)]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)     # the one-class offset warning
            ours.fit(X, y)
        theirs.fit(X, y)
        assert type(ours.coef_) is type(theirs.coef_)
        np.testing.assert_allclose(ours.coef_.toarray(), theirs.coef_.toarray(), atol=1e-2)
        with pytest.raises(ValueError, match="read-only"):
            ours.coef_.data[0] = 1.0


def test_gamma_scale_on_sparse_input():
    """A small sparse X gets the dense input's gamma to the last bit (so the
    same model), a large one scikit-learn's formula for sparse input."""
    X, y = sparse_points()
    ours = svmlib.SVC().fit(X, y)
    assert ours._gamma == svmlib.SVC().fit(X.toarray(), y)._gamma
    assert ours._gamma == pytest.approx(sklearn.svm.SVC().fit(X, y)._gamma, rel=1e-12)
    big = sp.random(300, 20_000, density=0.002, random_state=0, format="csr")
    assert big.shape[0] * big.shape[1] > kernels.SMALL_SPARSE_ENTRIES
    labels = np.arange(300) % 2
    assert svmlib.SVC().fit(big, labels)._gamma == sklearn.svm.SVC().fit(big, labels)._gamma


def test_small_sparse_input_gives_the_dense_model_exactly():
    X, targets = estimator_problems()
    for estimator, y in [(svmlib.SVC(), targets["SVC3"]), (svmlib.SVR(), targets["SVR"]),
                         (svmlib.NuSVC(nu=0.4), targets["NuSVC"]),
                         (svmlib.OneClassSVM(nu=0.3), None)]:
        sparse = sklearn.base.clone(estimator).fit(X, y)
        dense = sklearn.base.clone(estimator).fit(X.toarray(), y)
        np.testing.assert_array_equal(sparse.dual_coef_.toarray(), dense.dual_coef_)
        np.testing.assert_array_equal(sparse.intercept_, dense.intercept_)
        np.testing.assert_array_equal(np.atleast_1d(sparse.n_iter_), np.atleast_1d(dense.n_iter_))


def test_probability_on_sparse_input():
    X, y = sparse_points(n=120)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        model = svmlib.SVC(kernel="rbf", gamma=0.8, probability=True, random_state=0).fit(X, y)
        dense = svmlib.SVC(kernel="rbf", gamma=0.8, probability=True,
                           random_state=0).fit(X.toarray(), y)
    np.testing.assert_allclose(model.predict_proba(X), dense.predict_proba(X.toarray()),
                               atol=1e-5)


def test_bad_sparse_input_is_explained():
    X, y = sparse_points(n=40)
    bad = X.copy()
    bad.data[0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        svmlib.SVC().fit(bad, y)
    with pytest.raises(ValueError, match="Complex data not supported"):
        svmlib.SVC().fit(X.astype(np.complex128), y)


# ------------------------------------------------- the smaller parity items of issue 27

def common_characters(A, B):
    """A kernel on strings: the number of positions where they agree, plus 1."""
    return np.array([[sum(a == b for a, b in zip(s, t)) + 1.0 for t in B] for s in A])


STRINGS = ["abcab", "abdab", "xyzzy", "xzzyy", "abxab", "zzyxz"]


def test_kernel_function_on_a_list_of_strings_as_scikit_learn():
    """scikit-learn passes X unchecked to a kernel function; so does svmlib,
    and the model is the one fitted on the Gram matrix."""
    y = [0, 0, 1, 1, 0, 1]
    test = ["abcaa", "xyzzz"]
    K = common_characters(STRINGS, STRINGS)
    for name in ("SVC", "NuSVC"):
        ours = getattr(svmlib, name)(kernel=common_characters).fit(STRINGS, y)
        theirs = getattr(sklearn.svm, name)(kernel=common_characters).fit(STRINGS, y)
        gram = getattr(svmlib, name)(kernel="precomputed").fit(K, y)
        np.testing.assert_array_equal(ours.predict(test), theirs.predict(test))
        np.testing.assert_allclose(ours.decision_function(test),
                                   gram.decision_function(common_characters(test, STRINGS)),
                                   atol=1e-12)
        assert list(ours.support_vectors_) == [STRINGS[i] for i in ours.support_]
        assert not hasattr(ours, "n_features_in_")
    z = [0.0, 0.1, 1.0, 1.1, 0.2, 0.9]
    ours = svmlib.SVR(kernel=common_characters).fit(STRINGS, z)
    theirs = sklearn.svm.SVR(kernel=common_characters).fit(STRINGS, z)
    np.testing.assert_allclose(ours.predict(test), theirs.predict(test), atol=1e-3)


def test_max_iter_warning_is_scikit_learns_then_svmlibs_detail():
    X, y = sparse_points(n=60)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = svmlib.SVC(max_iter=1).fit(X, y)
    messages = [str(w.message) for w in caught if issubclass(w.category, Warning)]
    assert len(messages) == 1
    assert messages[0].startswith("Solver terminated early (max_iter=1).  Consider "
                                  "pre-processing your data with StandardScaler or "
                                  "MinMaxScaler.")
    assert "KKT violation" in messages[0]
    assert model.fit_status_ == 1


@pytest.mark.parametrize("name", ["SVC", "NuSVC", "SVR", "NuSVR", "OneClassSVM"])
def test_all_zero_weights_give_scikit_learns_message(name):
    X, y = sparse_points(n=30)
    target = None if name == "OneClassSVM" else y
    for module in (svmlib, sklearn.svm):
        with pytest.raises(ValueError, match="Invalid input - all samples have zero or "
                                             "negative weights."):
            getattr(module, name)().fit(X.toarray(), target, sample_weight=np.zeros(30))


@pytest.mark.parametrize("wrapper", ["OneVsRestClassifier", "OneVsOneClassifier"])
def test_multiclass_wrappers_are_binary_classifiers_for_two_classes(wrapper):
    from svmlib import multiclass
    X, y = sparse_points(n=80)
    labels = np.where(y > 0, "yes", "no")
    base = svmlib.SVC(kernel="linear", tol=1e-10)     # (one-vs-one flips the labels)
    model = getattr(multiclass, wrapper)(base).fit(X, labels)
    scores = model.decision_function(X)
    assert scores.shape == (80,) and len(model.estimators_) == 1
    np.testing.assert_array_equal(model.predict(X)[scores != 0],
                                  model.classes_[(scores > 0).astype(int)][scores != 0])
    binary = sklearn.base.clone(base).fit(X, labels)
    np.testing.assert_allclose(scores, binary.decision_function(X), atol=1e-8)


def test_hard_margin_linear_svc_on_sparse_input_checks_separability_sparse(monkeypatch):
    """SVC(kernel="linear", C=inf) decides separability by a linear program on the
    sparse rows themselves (no dense copy of X: text-sized data would not fit),
    and reaches the dense fit; non-separable sparse data are refused as dense."""
    X, _ = sparse_points(n=80, d=30, density=0.2, seed=3)
    w = np.random.default_rng(3).normal(size=30)
    score = np.asarray(X @ w).ravel()
    keep = np.abs(score) > 0.2           # a gap around the separating plane
    X, y = X[keep], np.sign(score[keep])
    seen = []
    real_check = svmlib.svc.check_separable
    monkeypatch.setattr(svmlib.svc, "check_separable",
                        lambda *a, **kw: seen.append(kw.get("X")) or real_check(*a, **kw))
    sparse = svmlib.SVC(kernel="linear", C=np.inf).fit(X, y)
    assert len(seen) == 1 and sp.issparse(seen[0])
    dense = svmlib.SVC(kernel="linear", C=np.inf).fit(X.toarray(), y)
    np.testing.assert_allclose(sparse.decision_function(X), dense.decision_function(X.toarray()),
                               atol=1e-8)
    bad = y.copy()
    bad[0] = -bad[0]
    X_bad = sp.vstack([X, X[0]], format="csr")
    with pytest.raises(NotSeparableError, match="not linearly separable"):
        svmlib.SVC(kernel="linear", C=np.inf).fit(X_bad, np.append(y, bad[0]))
