"""Reading the results of a hyperparameter search.

:func:`grid_table` turns one column of scikit-learn's
``GridSearchCV(...).cv_results_`` (a flat list, one entry per setting) into
a table with one row per value of one parameter and one column per value of
another, the form in which chapter 10 reads a C × gamma search (and draws
it with :func:`svmlib.plotting.in_practice.plot_validation_heatmap`).

Book: chapter ``ch-in-practice``.
"""

import numpy as np

__all__ = ["grid_table"]


def grid_table(cv_results, key="mean_test_score", row_param="svc__C", col_param="svc__gamma"):
    """Arrange one column of ``cv_results_`` as a (rows × columns) table.

    Parameters
    ----------
    cv_results : dict
        ``GridSearchCV(...).cv_results_`` of a search over a full grid of
        ``row_param`` × ``col_param`` (other parameters fixed).
    key : str, default="mean_test_score"
        The column to arrange, e.g. ``"mean_test_accuracy"`` for a named
        scorer or ``"mean_train_score"``.
    row_param, col_param : str
        The parameter names as the search saw them (``"svc__C"`` inside a
        pipeline whose last step is called ``"svc"``).

    Returns
    -------
    rows : ndarray of shape (n_rows,)
        The sorted values of ``row_param``.
    cols : ndarray of shape (n_cols,)
        The sorted values of ``col_param``.
    table : ndarray of shape (n_rows, n_cols)
        ``table[i, j]`` is the value at ``row_param = rows[i]``,
        ``col_param = cols[j]``; NaN where the grid has no such cell.
    """
    if not isinstance(cv_results, dict):
        raise TypeError(f"cv_results must be the dict GridSearchCV.cv_results_; got "
                        f"{type(cv_results).__name__}. Pass search.cv_results_.")
    for name in (key, f"param_{row_param}", f"param_{col_param}"):
        if name not in cv_results:
            known = sorted(k for k in cv_results if k.startswith(("param_", "mean_")))
            raise KeyError(f"cv_results has no column {name!r}; it has {known}. Check the "
                           f"parameter names (e.g. 'svc__C' in a pipeline) and the scorer name.")
    row_values = np.asarray(cv_results[f"param_{row_param}"], dtype=float)
    col_values = np.asarray(cv_results[f"param_{col_param}"], dtype=float)
    values = np.asarray(cv_results[key], dtype=float)
    rows, cols = np.unique(row_values), np.unique(col_values)
    table = np.full((rows.size, cols.size), np.nan)
    table[np.searchsorted(rows, row_values), np.searchsorted(cols, col_values)] = values
    return rows, cols, table
