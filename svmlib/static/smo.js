// Sequential minimal optimization for the SVM dual, in the reader's browser.
//
// This module mirrors svmlib/_smo_steps.py (the steps) and svmlib/smo.py (the driver) name for name (the Python names are kept,
// snake_case included, so that the two files can be read side by side):
//
//     minimize over alpha   f(alpha) = 1/2 alpha^T Q alpha - 1^T alpha
//     subject to            y^T alpha = 0,   0 <= alpha_t <= C,
//
// with Q[s, t] = y_s y_t K[s, t] and grad = Q alpha - 1.  Each iteration picks
// i = argmax of score_t = -y_t grad_t over I_up (m(alpha); ties to the last, as LIBSVM), then j among the
// t in I_low with score_t < m by the second-order gain (m - score_t)^2 / a_it
// (WSS 2 of Fan, Chen & Lin, 2005, with the guard TAU), minimizes the dual
// exactly over (alpha_i, alpha_j) clipped to the box, and updates grad.  It
// stops when m(alpha) - M(alpha) <= tol.  Shrinking follows LIBSVM's rule,
// exactly as in the Python solver, so that both take the same path.
//
// The Gram matrix is always computed up front here (a playground holds at
// most a few thousand points), which is what svmlib does whenever the matrix
// fits in its cache: the rows of Q are read from it, so no row cache is needed.
//
// Points are arrays of numbers (any dimension); a set of points is an array
// of points.  Kernels take svmlib's parameters with svmlib's meanings:
//   linear      <x, z>
//   poly        (gamma <x, z> + coef0) ** degree
//   rbf         exp(-gamma ||x - z||^2)
// and gamma "scale" is 1 / (n_features * X.var()), "auto" is 1 / n_features.

export const TAU = 1e-12;
export const HARD_MARGIN_LIMIT = 1e8;
export const LOWER = 0;
export const UPPER = 1;
export const FREE = 2;

// ------------------------------------------------------------------ kernels

function dot(a, b) {
  let s = 0.0;
  for (let k = 0; k < a.length; k++) s += a[k] * b[k];
  return s;
}

/** Squared distances ||x||^2 + ||z||^2 - 2 <x, z>, clipped at 0 (as svmlib). */
export function squared_distance(x, z) {
  const d2 = dot(x, x) + dot(z, z) - 2.0 * dot(x, z);
  return d2 > 0 ? d2 : 0.0;
}

export function linear(x, z) {
  return dot(x, z);
}

export function polynomial(x, z, degree = 3, coef0 = 1.0, gamma = 1.0) {
  return Math.pow(gamma * dot(x, z) + coef0, degree);
}

export function rbf(x, z, gamma = 1.0) {
  return Math.exp(-gamma * squared_distance(x, z));
}

/** gamma as a number: "scale" = 1 / (n_features * X.var()), "auto" = 1 / n_features. */
export function resolve_gamma(gamma, X) {
  if (typeof gamma === "string") {
    const n_features = X.length ? X[0].length : 1;
    if (gamma === "scale") {
      let count = 0, mean = 0.0;
      for (const x of X) for (const v of x) { mean += v; count++; }
      mean /= Math.max(count, 1);
      let variance = 0.0;
      for (const x of X) for (const v of x) variance += (v - mean) * (v - mean);
      variance /= Math.max(count, 1);
      return variance > 0 ? 1.0 / (n_features * variance) : 1.0;
    }
    if (gamma === "auto") return 1.0 / n_features;
    throw new Error(`gamma must be 'scale', 'auto' or a number > 0; got gamma=${JSON.stringify(gamma)}. ` +
                    "Use gamma='scale' or a positive number.");
  }
  if (!(typeof gamma === "number" && gamma > 0 && Number.isFinite(gamma))) {
    throw new Error(`gamma must be a positive finite number; got gamma=${gamma}. Use e.g. gamma=1.`);
  }
  return gamma;
}

/**
 * The kernel as a function k(x, z), from svmlib's parameter names.
 * params: {kernel: "linear" | "poly" | "rbf", gamma, degree, coef0}
 * (gamma already resolved to a number).
 */
export function get_kernel(params) {
  const kernel = params.kernel;
  if (kernel === "linear") return linear;
  if (kernel === "rbf") {
    const gamma = params.gamma;
    return (x, z) => rbf(x, z, gamma);
  }
  if (kernel === "poly") {
    const { degree, coef0, gamma } = params;
    if (!(Number.isInteger(degree) && degree >= 1)) {
      throw new Error(`degree must be an integer >= 1; got degree=${degree}. Use degree=3.`);
    }
    return (x, z) => polynomial(x, z, degree, coef0, gamma);
  }
  throw new Error(`kernel must be one of 'linear', 'poly', 'rbf'; got kernel=${JSON.stringify(kernel)}.`);
}

/** The Gram matrix K[s, t] = k(x_s, x_t), row-major Float64Array of length n * n. */
export function gram_matrix(kernel, X) {
  const n = X.length;
  const K = new Float64Array(n * n);
  for (let s = 0; s < n; s++) {
    for (let t = s; t < n; t++) {
      const v = kernel(X[s], X[t]);
      K[s * n + t] = v;
      K[t * n + s] = v;
    }
  }
  return K;
}

// ------------------------------------------------------- the pair update

/**
 * Minimize the dual exactly over (alpha_i, alpha_j), the others fixed, and
 * clip to the box [0, C]^2.  Returns [new alpha_i, new alpha_j].
 */
export function analytic_pair_update(alpha_i, alpha_j, y_i, y_j, grad_i, grad_j, Q_ii, Q_jj, Q_ij, C) {
  if (y_i !== y_j) {
    // alpha_i - alpha_j stays fixed.
    const quad_coef = Math.max(Q_ii + Q_jj + 2.0 * Q_ij, TAU);
    const delta = (-grad_i - grad_j) / quad_coef;
    const diff = alpha_i - alpha_j;
    alpha_i += delta;
    alpha_j += delta;
    if (diff > 0) {
      if (alpha_j < 0) { alpha_j = 0.0; alpha_i = diff; }
    } else if (alpha_i < 0) { alpha_i = 0.0; alpha_j = -diff; }
    if (diff > 0) {
      if (alpha_i > C) { alpha_i = C; alpha_j = C - diff; }
    } else if (alpha_j > C) { alpha_j = C; alpha_i = C + diff; }
  } else {
    // alpha_i + alpha_j stays fixed.
    const quad_coef = Math.max(Q_ii + Q_jj - 2.0 * Q_ij, TAU);
    const delta = (grad_i - grad_j) / quad_coef;
    const total = alpha_i + alpha_j;
    alpha_i -= delta;
    alpha_j += delta;
    if (total > C) {
      if (alpha_i > C) { alpha_i = C; alpha_j = total - C; }
    } else if (alpha_j < 0) { alpha_j = 0.0; alpha_i = total; }
    if (total > C) {
      if (alpha_j > C) { alpha_j = C; alpha_i = total - C; }
    } else if (alpha_i < 0) { alpha_i = 0.0; alpha_j = total; }
  }
  return [alpha_i, alpha_j];
}

// ------------------------------------------------------------- the bias

/**
 * The bias b at a dual solution, as LIBSVM computes it: the mean of
 * -y_t grad_t over the free multipliers, else the midpoint of the interval
 * allowed by the multipliers at the bounds.
 */
export function compute_intercept(alpha, grad, y, C) {
  const n = alpha.length;
  let free_sum = 0.0, n_free = 0;
  let ub = Infinity, lb = -Infinity;
  for (let t = 0; t < n; t++) {
    const y_grad = y[t] * grad[t];
    const at_upper = alpha[t] >= C, at_lower = alpha[t] <= 0;
    if (!at_upper && !at_lower) { free_sum += y_grad; n_free++; continue; }
    if ((at_upper && y[t] < 0) || (at_lower && y[t] > 0)) ub = Math.min(ub, y_grad);
    else lb = Math.max(lb, y_grad);
  }
  let rho;
  if (n_free > 0) rho = free_sum / n_free;
  else if (Number.isFinite(ub) && Number.isFinite(lb)) rho = (ub + lb) / 2;
  else rho = Number.isFinite(ub) ? ub : lb;
  return -rho;
}

/** max(0, m(alpha) - M(alpha)): the maximal violation of the dual KKT conditions. */
export function max_kkt_violation(alpha, grad, y, C) {
  let m = -Infinity, M = Infinity;
  for (let t = 0; t < alpha.length; t++) {
    const score = -y[t] * grad[t];
    const pos = y[t] > 0;
    const below_upper = alpha[t] < C, above_lower = alpha[t] > 0;
    const in_up = pos ? below_upper : above_lower;
    const in_low = pos ? above_lower : below_upper;
    if (in_up && score > m) m = score;
    if (in_low && score < M) M = score;
  }
  if (!Number.isFinite(m) || !Number.isFinite(M)) return 0.0;
  return Math.max(0.0, m - M);
}

// --------------------------------------------------------------- the solver

// The last position of the largest value: LIBSVM's tie-breaking (-G[t] >= Gmax,
// obj_diff <= obj_diff_min), as svmlib's select_i and select_j.
function argmax_last(values, A) {
  let best = 0, value = values[0];
  for (let t = 1; t < A; t++) if (values[t] >= value) { value = values[t]; best = t; }
  return best;
}

function argmin(values, A) {
  let best = 0, value = values[0];
  for (let t = 1; t < A; t++) if (values[t] < value) { value = values[t]; best = t; }
  return best;
}

/**
 * An SMO solver that can be run in slices: `create_smo(K, y, options)`
 * prepares the problem and returns {run(budget), snapshot(), finished()}.
 * run({iterations, deadline_ms}) does at most `iterations` SMO iterations,
 * and stops (between two iterations) once the clock passes `deadline_ms` (a
 * performance.now() time), so that a page can spread a long solve over
 * several animation frames and stay responsive; it returns true once the
 * solve is over (converged, at the iteration limit, or stopped by the
 * callback).  Every variable of the algorithm lives in the solver between
 * two slices, so a solve cut into slices takes exactly the path of one run.
 *
 * K: the Gram matrix, Float64Array of length n * n (row-major);
 * y: labels in {-1, +1} (array of length n);
 * options: {C = 1, tol = 1e-3, max_iter = -1, shrinking = true,
 *           selection = "second_order" | "first_order", alpha0 = null,
 *           callback = null}.
 *
 * alpha0, as in svmlib.smo.solve_dual_smo, is a feasible start
 * (0 <= alpha0_t <= C): the gradient Q alpha0 - 1 is computed from it, one
 * row of Q per nonzero entry, and y^T alpha stays y^T alpha0 (0 for the
 * SVM's dual: see warm_start).
 *
 * snapshot() returns {alpha, grad, b, n_iter, objective, kkt_violation,
 * converged, finished, shrink_events, stopped_by_callback} at the current
 * iterate (in the original order of the points); objective is the dual
 * objective D = 1^T alpha - 1/2 alpha^T Q alpha.
 */
export function create_smo(K, y_in, options = {}) {
  const C = options.C === undefined ? 1.0 : options.C;
  const tol = options.tol === undefined ? 1e-3 : options.tol;
  const shrinking = options.shrinking === undefined ? true : options.shrinking;
  const selection = options.selection || "second_order";
  const n = y_in.length;
  if (!(C > 0)) throw new Error(`C must be > 0; got C=${C}. Use a positive C such as C=1.`);
  if (!(tol > 0)) throw new Error(`tol must be > 0; got tol=${tol}. Use tol=1e-3.`);
  if (selection !== "second_order" && selection !== "first_order") {
    throw new Error(`selection must be 'second_order' or 'first_order'; got ${JSON.stringify(selection)}.`);
  }
  if (K.length !== n * n) {
    throw new Error(`K must hold n * n = ${n * n} values for ${n} labels; got ${K.length}. ` +
                    "Pass the Gram matrix of the training points.");
  }
  const y = Float64Array.from(y_in);
  for (let t = 0; t < n; t++) {
    if (y[t] !== 1 && y[t] !== -1) {
      throw new Error(`y must hold labels -1 and +1; got y[${t}]=${y_in[t]}. Map the classes to -1 and +1.`);
    }
  }
  const alpha0 = options.alpha0 === undefined ? null : options.alpha0;
  if (alpha0 !== null) {
    if (alpha0.length !== n) {
      throw new Error(`alpha0 must hold one starting value per point, ${n}; got ${alpha0.length}. ` +
                      "Pass alpha0=null to start at alpha = 0.");
    }
    for (let t = 0; t < n; t++) {
      const a = alpha0[t];
      if (!(Number.isFinite(a) && a >= 0 && a <= C)) {
        throw new Error(`alpha0 must be feasible, 0 <= alpha0[t] <= C = ${C}; got alpha0[${t}]=${a}. ` +
                        "Clip the start into the box, or pass alpha0=null.");
      }
    }
  }
  const max_iter = options.max_iter;
  const default_limit = max_iter === undefined || max_iter === null || max_iter < 0;
  const limit = default_limit ? Math.max(C === Infinity ? 100000 : 1000000, 100 * n) : max_iter;

  // ----- working arrays, in working order (active set = prefix 0:active_size)
  const order = new Int32Array(n);
  for (let t = 0; t < n; t++) order[t] = t;
  const y_work = Float64Array.from(y);
  const QD = new Float64Array(n);
  let diag_max = 0.0;
  for (let t = 0; t < n; t++) { QD[t] = K[t * n + t]; diag_max = Math.max(diag_max, QD[t]); }
  const alpha = new Float64Array(n);
  const grad = new Float64Array(n).fill(-1.0);
  const grad_bar = new Float64Array(n);
  const alpha_status = new Int8Array(n);            // LOWER
  const positive = new Uint8Array(n);
  const up_offset = new Float64Array(n);
  const low_offset = new Float64Array(n);
  const low_indicator = new Float64Array(n);
  const neg_y = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    positive[t] = y_work[t] > 0 ? 1 : 0;
    up_offset[t] = positive[t] ? 0.0 : -Infinity;
    low_offset[t] = positive[t] ? Infinity : 0.0;
    low_indicator[t] = positive[t] ? 0.0 : 1.0;
    neg_y[t] = -y_work[t];
  }
  const arrays = [order, y_work, QD, alpha, grad, grad_bar, alpha_status, positive,
                  up_offset, low_offset, low_indicator, neg_y];

  // Row `index` (an original index) of Q at working positions 0:length.
  const row_i = new Float64Array(n), row_j = new Float64Array(n), row_t = new Float64Array(n);
  function get_row(index, length, out) {
    const y_index = y[index], base = index * n;
    for (let k = 0; k < length; k++) out[k] = (y_index * y_work[k]) * K[base + order[k]];
    return out;
  }

  function set_status(t) {
    const a_t = alpha[t];
    const old_status = alpha_status[t];
    const status = a_t >= C ? UPPER : (a_t <= 0 ? LOWER : FREE);
    if (status === old_status) return [old_status, status];
    alpha_status[t] = status;
    const can_increase = status !== UPPER, can_decrease = status !== LOWER;
    const in_up = positive[t] ? can_increase : can_decrease;
    const in_low = positive[t] ? can_decrease : can_increase;
    up_offset[t] = in_up ? 0.0 : -Infinity;
    low_offset[t] = in_low ? 0.0 : Infinity;
    low_indicator[t] = in_low ? 1.0 : 0.0;
    return [old_status, status];
  }

  // The gradient of the inactive (shrunk) entries, written into `out`.
  function reconstruct_gradient(active_size, out = grad) {
    if (active_size === n) return;
    const free = [];
    for (let s = 0; s < active_size; s++) if (alpha_status[s] === FREE) free.push(s);
    for (let t = active_size; t < n; t++) {
      out[t] = grad_bar[t] - 1.0;
      if (free.length === 0) continue;
      let acc = 0.0;
      const base = order[t] * n;
      for (const s of free) acc += K[base + order[s]] * (alpha[s] * y_work[s]);
      out[t] += y_work[t] * acc;
    }
  }

  function permute(new_to_old) {
    for (const array of arrays) {
      const copy = array.slice();
      for (let k = 0; k < n; k++) array[k] = copy[new_to_old[k]];
    }
  }

  function do_shrinking(A, gmax, m_low) {
    const keep = [], shrink = [];
    for (let t = 0; t < A; t++) {
      const score = neg_y[t] * grad[t];
      const bounded = alpha_status[t] !== FREE;
      const same = (alpha_status[t] === UPPER) === (positive[t] === 1);
      const only_low = bounded && same, only_up = bounded && !same;
      if ((only_low && score > gmax) || (only_up && score < m_low)) shrink.push(t);
      else keep.push(t);
    }
    if (shrink.length === 0) return A;
    const new_to_old = keep.concat(shrink);
    for (let t = A; t < n; t++) new_to_old.push(t);
    permute(new_to_old);
    return keep.length;
  }

  const score = new Float64Array(n), up_scores = new Float64Array(n), low_scores = new Float64Array(n);
  const work_b = new Float64Array(n);
  function scores(A) {
    for (let t = 0; t < A; t++) {
      const s = neg_y[t] * grad[t];
      score[t] = s;
      up_scores[t] = s + up_offset[t];
      low_scores[t] = s + low_offset[t];
    }
  }
  function min_of(values, A) {
    let v = Infinity;
    for (let t = 0; t < A; t++) if (values[t] < v) v = values[t];
    return v;
  }
  function max_of(values, A) {
    let v = -Infinity;
    for (let t = 0; t < A; t++) if (values[t] > v) v = values[t];
    return v;
  }

  let alpha_sum = 0.0;
  // ----- the warm start: grad = Q alpha0 - 1, grad_bar = C * (sum of the rows at C)
  if (alpha0 !== null) {
    for (let s = 0; s < n; s++) {
      alpha[s] = alpha0[s];
      set_status(s);
    }
    for (let s = 0; s < n; s++) {
      if (!(alpha[s] > 0)) continue;
      alpha_sum += alpha[s];
      const row = get_row(s, n, row_t);        // the order is still the identity here
      const a_s = alpha[s];
      for (let k = 0; k < n; k++) grad[k] += a_s * row[k];
      if (alpha_status[s] === UPPER) for (let k = 0; k < n; k++) grad_bar[k] += C * row[k];
    }
  }

  const callback = options.callback || null;
  let stopped_by_callback = false;
  let active_size = n, unshrunk = false, counter = Math.min(n, 1000), shrink_events = 0;
  let converged = false, iteration = 0, violation = Infinity, finished = false;
  const alpha_sum_limit = C === Infinity ? HARD_MARGIN_LIMIT / Math.max(diag_max, 1e-300) : Infinity;
  const clock = typeof performance !== "undefined" ? performance : Date;

  // One SMO iteration; true when the solve is over.
  function iterate() {
    let A = active_size;
    // ---- shrinking, every min(n, 1000) iterations
    counter -= 1;
    if (counter === 0) {
      counter = Math.min(n, 1000);
      if (shrinking) {
        scores(A);
        let gmax = max_of(up_scores, A), m_low = min_of(low_scores, A);
        if (!unshrunk && gmax - m_low <= 10 * tol) {
          unshrunk = true;
          reconstruct_gradient(A);
          active_size = A = n;
          scores(A);
          gmax = max_of(up_scores, A); m_low = min_of(low_scores, A);
        }
        const new_size = do_shrinking(A, gmax, m_low);
        if (new_size !== A) { shrink_events += 1; active_size = A = new_size; }
      }
    }
    // ---- working-set selection: i = argmax over I_up, and the stopping rule
    scores(A);
    let i = argmax_last(up_scores, A);
    let gmax = up_scores[i];
    violation = gmax - min_of(low_scores, A);
    if (violation <= tol) {
      if (A === n) { converged = true; return true; }
      // Optimal on the active set: rebuild the whole gradient and check all.
      reconstruct_gradient(A);
      active_size = A = n;
      scores(A);
      i = argmax_last(up_scores, A);
      gmax = up_scores[i];
      violation = gmax - min_of(low_scores, A);
      if (violation <= tol) { converged = true; return true; }
      counter = 1;
    }
    const Q_i = get_row(order[i], A, row_i);
    const y_i = y_work[i];
    // ---- working-set selection: j
    let j;
    if (selection === "first_order") {
      j = argmin(low_scores, A);
    } else {
      // Decrease of f for the pair (i, t): (m - score_t)^2 / a_it, t in I_low.
      const QD_i = QD[i];
      for (let t = 0; t < A; t++) {
        let b = gmax - score[t];
        if (!(b > 0)) b = 0.0;
        b *= low_indicator[t];
        let a = y_work[t] * Q_i[t] * (-2.0 * y_i) + QD[t] + QD_i;
        if (!(a > TAU)) a = TAU;
        work_b[t] = (b * b) / a;
      }
      j = argmax_last(work_b, A);
    }
    const Q_j = get_row(order[j], A, row_j);
    // ---- the pair update
    const old_i = alpha[i], old_j = alpha[j];
    const [new_i, new_j] = analytic_pair_update(old_i, old_j, y_i, y_work[j], grad[i], grad[j],
                                                QD[i], QD[j], Q_i[j], C);
    alpha[i] = new_i; alpha[j] = new_j;
    const d_i = new_i - old_i, d_j = new_j - old_j;
    // ---- the gradient update on the active set
    if (d_i !== 0.0) for (let t = 0; t < A; t++) grad[t] += Q_i[t] * d_i;
    if (d_j !== 0.0) for (let t = 0; t < A; t++) grad[t] += Q_j[t] * d_j;
    // ---- alpha_status, and grad_bar when a multiplier reaches or leaves C
    for (const t of [i, j]) {
      const [old_status, status] = set_status(t);
      const is_upper = status === UPPER;
      if (shrinking && (old_status === UPPER) !== is_upper) {
        const row = get_row(order[t], n, row_t);
        const sign = is_upper ? C : -C;
        for (let k = 0; k < n; k++) grad_bar[k] += sign * row[k];
      }
    }
    iteration += 1;
    alpha_sum += d_i + d_j;
    if (alpha_sum > alpha_sum_limit) {
      throw new Error("the hard-margin problem (C=inf) has no solution in practice: the multipliers " +
                      `diverge (sum(alpha) = ${alpha_sum.toPrecision(3)}). Use a finite C.`);
    }
    if (callback !== null && callback({ iteration, i: order[i], j: order[j], violation })) {
      stopped_by_callback = true;
      return true;
    }
    return false;
  }

  // The clock is read every CLOCK_EVERY iterations (a few microseconds of work each).
  const CLOCK_EVERY = 32;
  function run(budget = {}) {
    if (finished) return true;
    const steps = budget.iterations === undefined ? Infinity : budget.iterations;
    const deadline = budget.deadline_ms === undefined ? Infinity : budget.deadline_ms;
    for (let done = 0; done < steps; done++) {
      if (iteration >= limit) { finished = true; break; }
      if (iterate()) { finished = true; break; }
      if (deadline !== Infinity && done % CLOCK_EVERY === CLOCK_EVERY - 1 && clock.now() >= deadline) break;
    }
    if (!finished && iteration >= limit) finished = true;
    return finished;
  }

  function snapshot() {
    const full = grad.slice();
    if (active_size < n) reconstruct_gradient(active_size, full);
    const alpha_out = new Float64Array(n), grad_out = new Float64Array(n);
    for (let k = 0; k < n; k++) { alpha_out[order[k]] = alpha[k]; grad_out[order[k]] = full[k]; }
    const b = compute_intercept(alpha_out, grad_out, y, C);
    let objective = 0.0;
    for (let t = 0; t < n; t++) objective += alpha_out[t] * (grad_out[t] - 1.0);
    objective *= -0.5;
    return {
      alpha: alpha_out, grad: grad_out, b, n_iter: iteration, objective,
      kkt_violation: max_kkt_violation(alpha_out, grad_out, y, C),
      converged, finished, shrink_events, stopped_by_callback,
    };
  }

  return { run, snapshot, finished: () => finished, limit };
}

/**
 * Solve the SVM dual by SMO (LIBSVM's algorithm, as svmlib.smo.solve_dual_smo),
 * in one run: create_smo(K, y, options), run to the end.
 *
 * Returns create_smo's snapshot and time_ms.
 */
export function solve_dual_smo(K, y_in, options = {}) {
  const clock = typeof performance !== "undefined" ? performance : Date;
  const start_time = clock.now();
  const solver = create_smo(K, y_in, options);
  solver.run();
  const result = solver.snapshot();
  result.time_ms = clock.now() - start_time;
  return result;
}

/**
 * A feasible start for the SVM dual after an edit, from the multipliers of
 * the last solution:
 *
 * previous: alpha of each point still there (0 for a point just added), as
 *           an array aligned with y;
 * y:        the labels now;
 * C_old:    the C that `previous` was computed with; C: the C now.
 *
 * The multipliers are first scaled by C / C_old (a move of the C slider:
 * this keeps 0 <= alpha <= C and y^T alpha), then, if a point with alpha > 0
 * was removed, y^T alpha = s != 0: the class with the larger sum gives up s,
 * each of its multipliers scaled by the same factor (which keeps them in the
 * box).  So the start is feasible, with sum(alpha * y) = 0 up to rounding.
 * Returns a Float64Array, or null when nothing is left to start from.
 */
export function warm_start(previous, y, C_old, C) {
  const n = y.length;
  if (!previous || previous.length !== n || !(C_old > 0) || !(C > 0)) return null;
  const ratio = C / C_old;
  const alpha = new Float64Array(n);
  let pos_sum = 0.0, neg_sum = 0.0;
  for (let t = 0; t < n; t++) {
    let a = previous[t] * ratio;
    if (!(a > 0)) a = 0.0;
    if (a > C) a = C;
    alpha[t] = a;
    if (y[t] > 0) pos_sum += a; else neg_sum += a;
  }
  if (pos_sum === 0 && neg_sum === 0) return null;
  const excess = pos_sum - neg_sum;
  if (excess !== 0) {
    const sign = excess > 0 ? 1 : -1, total = excess > 0 ? pos_sum : neg_sum;
    const factor = (total - Math.abs(excess)) / total;
    for (let t = 0; t < n; t++) if ((y[t] > 0 ? 1 : -1) === sign) alpha[t] *= factor;
  }
  return alpha;
}

// --------------------------------------------------- a two-class classifier

/**
 * Start fitting a two-class SVM as svmlib.SVC does: labels -1 / +1 (+1 is
 * the class that decision_function > 0 predicts), the Gram matrix computed
 * up front, then an SMO solver (create_smo) that continue_fit runs, in one
 * go or in slices.
 *
 * params: {C = 1, kernel = "rbf", gamma = "scale", degree = 3, coef0 = 0,
 *          tol = 1e-3, max_iter = -1, alpha0 = null (a feasible start, see
 *          warm_start)}.
 * Returns a job {X, y, C, kernel, kernel_params, solver, gram_ms, solve_ms}.
 */
export function start_fit(X, y, params = {}) {
  const n = X.length;
  if (n !== y.length) {
    throw new Error(`X and y must have the same number of samples; got ${n} and ${y.length}.`);
  }
  let n_pos = 0, n_neg = 0;
  for (const label of y) { if (label === 1) n_pos++; else if (label === -1) n_neg++; }
  if (n_pos === 0 || n_neg === 0) {
    throw new Error(`y must contain both classes -1 and +1; got ${n_neg} of -1 and ${n_pos} of +1. ` +
                    "Add a point of the missing class.");
  }
  const kernel_name = params.kernel || "rbf";
  const kernel_params = {
    kernel: kernel_name,
    gamma: kernel_name === "linear" ? null : resolve_gamma(params.gamma === undefined ? "scale" : params.gamma, X),
    degree: params.degree === undefined ? 3 : params.degree,
    coef0: params.coef0 === undefined ? 0.0 : params.coef0,
  };
  const kernel = get_kernel(kernel_params);
  const clock = typeof performance !== "undefined" ? performance : Date;
  const t0 = clock.now();
  const K = gram_matrix(kernel, X);
  const gram_ms = clock.now() - t0;
  const C = params.C === undefined ? 1.0 : params.C;
  const options = { C, tol: params.tol === undefined ? 1e-3 : params.tol, max_iter: params.max_iter };
  const solver = create_smo(K, y, Object.assign({}, options,
                                                { alpha0: params.alpha0 === undefined ? null : params.alpha0 }));
  return { X, y: Array.from(y), C, kernel, kernel_params, K, options, solver, gram_ms, solve_ms: 0 };
}

/**
 * The same job (points, kernel, Gram matrix) solved again from the start
 * alpha0 (a feasible start, see warm_start; null: alpha = 0): a fresh solver
 * replaces the job's, and the solver's time starts again from 0.
 */
export function restart_fit(job, alpha0) {
  job.solver = create_smo(job.K, job.y, Object.assign({}, job.options, { alpha0 }));
  job.solve_ms = 0;
  return job;
}

/**
 * The playground's limit on SMO iterations per solve, over all its frames
 * (svmlib's default is max(1,000,000, 100 n)): at a few microseconds each
 * on 200 points, a solve that cannot converge (the polynomial kernel with a
 * large gamma and C on overlapping classes) ends after a few seconds of
 * frames instead of running on, and the readout says so.
 */
export const PLAYGROUND_ITERATIONS = 500000;

/**
 * Run a job of start_fit further (budget as create_smo's run: {iterations,
 * deadline_ms}; none: to the end) and return the model at the current
 * iterate: {X, y, C, alpha, b, kernel, kernel_params, support (indices with
 * alpha > 0), result (the solver's snapshot, with time_ms: the solver's time
 * so far), gram_ms}.  result.finished is false while the solve goes on.
 */
export function continue_fit(job, budget = {}) {
  const clock = typeof performance !== "undefined" ? performance : Date;
  const t0 = clock.now();
  job.solver.run(budget);
  job.solve_ms += clock.now() - t0;
  const result = job.solver.snapshot();
  result.time_ms = job.solve_ms;
  const support = [];
  for (let t = 0; t < result.alpha.length; t++) if (result.alpha[t] > 0) support.push(t);
  return {
    X: job.X, y: job.y, C: job.C, alpha: result.alpha, b: result.b,
    kernel: job.kernel, kernel_params: job.kernel_params, support, result, gram_ms: job.gram_ms,
  };
}

/** Fit in one go: continue_fit(start_fit(X, y, params)). */
export function fit(X, y, params = {}) {
  return continue_fit(start_fit(X, y, params));
}

// ------------------------------------------- training spread over frames

/** The solver's share of one animation frame in the playground, in ms. */
export const FRAME_SOLVE_MS = 20;
/** How long a cold start (alpha = 0) may run before the warm start takes over, in ms. */
export const COLD_TRIAL_MS = 10;

/**
 * The playground's way of training after an edit, one animation frame at a
 * time, so that no frame holds the page for more than about FRAME_SOLVE_MS
 * of solving, however slowly SMO converges.
 *
 * X, y, params: as start_fit (params.max_iter bounds the whole solve, over
 * all frames).  start: {alpha, C} from the last solution, alpha aligned with
 * y (0 for a point just added), or null.  budget (all optional): solve_ms,
 * cold_ms, and, instead of the clock, frame_iterations and cold_iterations
 * (SMO iterations per frame and for the cold trial, for tests);
 * try_cold = true.
 *
 * The first frame tries a cold start, which takes svmlib's own path, for
 * cold_ms; if it has not finished by then (or try_cold is false) the solve
 * goes on from the warm start (see warm_start), the remaining time of that
 * frame and in later frames.  Returns {frame(), model(), finished()}:
 * frame() runs one frame's share and returns the model at the current
 * iterate, with `phase` ("cold" or "warm"), `frames` (frames so far) and
 * `train_ms` (solver and Gram matrix time over all frames).
 */
export function create_trainer(X, y, params = {}, start = null, budget = {}) {
  const clock = typeof performance !== "undefined" ? performance : Date;
  const pick = (value, fallback) => (value === undefined ? fallback : value);
  const solve_ms = pick(budget.solve_ms, FRAME_SOLVE_MS), cold_ms = pick(budget.cold_ms, COLD_TRIAL_MS);
  const frame_iterations = pick(budget.frame_iterations, Infinity);
  const cold_iterations = pick(budget.cold_iterations, Infinity);
  const try_cold = pick(budget.try_cold, true);
  const C = pick(params.C, 1.0);
  const warm = start ? warm_start(start.alpha, y, start.C, C) : null;
  let job = null, model = null, phase = "cold", frames = 0, train_ms = 0;

  function frame() {
    const t0 = clock.now();
    const rest = { deadline_ms: t0 + solve_ms, iterations: frame_iterations };
    if (job === null) {
      if (warm === null || try_cold) {
        job = start_fit(X, y, params);
        if (warm === null) {
          model = continue_fit(job, rest);
        } else {
          model = continue_fit(job, { deadline_ms: t0 + cold_ms, iterations: cold_iterations });
          if (!model.result.finished) {
            restart_fit(job, warm);
            phase = "warm";
            model = continue_fit(job, rest);
          }
        }
      } else {
        job = start_fit(X, y, Object.assign({}, params, { alpha0: warm }));
        phase = "warm";
        model = continue_fit(job, rest);
      }
    } else if (!model.result.finished) {
      model = continue_fit(job, rest);
    }
    frames += 1;
    train_ms += clock.now() - t0;
    model.phase = phase;
    model.frames = frames;
    model.train_ms = train_ms;
    return model;
  }
  return { frame, model: () => model, finished: () => model !== null && model.result.finished };
}

/** f(x) = sum over support vectors of alpha_s y_s k(x_s, x) + b, for each point of Z. */
export function decision_function(model, Z) {
  const out = new Float64Array(Z.length);
  const { X, y, alpha, b, kernel, support } = model;
  for (let r = 0; r < Z.length; r++) {
    let f = b;
    for (const s of support) f += alpha[s] * y[s] * kernel(X[s], Z[r]);
    out[r] = f;
  }
  return out;
}

/**
 * f on a regular grid of 2-D points, fast: the point (x0 + i dx, y1 - j dy)
 * for i < nx, j < ny, stored at [j * nx + i] (rows from the top, as on a
 * screen).  Same values as decision_function up to rounding; for the RBF
 * kernel exp(-gamma ||x - s||^2) is split into exp(-gamma (x1 - s1)^2) times
 * exp(-gamma (x2 - s2)^2), one table per column and per row, so the inner
 * loop has no exponential.
 */
export function decision_grid(model, x0, dx, nx, y1, dy, ny) {
  const out = new Float64Array(nx * ny);
  const { X, y, alpha, b, support } = model;
  const m = support.length;
  const s1 = new Float64Array(m), s2 = new Float64Array(m), coef = new Float64Array(m);
  support.forEach((s, k) => { s1[k] = X[s][0]; s2[k] = X[s][1]; coef[k] = alpha[s] * y[s]; });
  const { kernel, gamma, degree, coef0 } = model.kernel_params;
  if (kernel === "linear") {
    let w1 = 0.0, w2 = 0.0;
    for (let k = 0; k < m; k++) { w1 += coef[k] * s1[k]; w2 += coef[k] * s2[k]; }
    for (let j = 0; j < ny; j++) {
      const v = y1 - j * dy;
      for (let i = 0; i < nx; i++) out[j * nx + i] = w1 * (x0 + i * dx) + w2 * v + b;
    }
  } else if (kernel === "rbf") {
    const ex = new Float64Array(nx * m), ey = new Float64Array(ny * m);
    for (let i = 0; i < nx; i++) {
      const u = x0 + i * dx;
      for (let k = 0; k < m; k++) ex[i * m + k] = Math.exp(-gamma * (u - s1[k]) * (u - s1[k]));
    }
    for (let j = 0; j < ny; j++) {
      const v = y1 - j * dy;
      for (let k = 0; k < m; k++) ey[j * m + k] = coef[k] * Math.exp(-gamma * (v - s2[k]) * (v - s2[k]));
    }
    for (let j = 0; j < ny; j++) {
      const row = j * m;
      for (let i = 0; i < nx; i++) {
        const col = i * m;
        let f = b;
        for (let k = 0; k < m; k++) f += ex[col + k] * ey[row + k];
        out[j * nx + i] = f;
      }
    }
  } else {
    for (let j = 0; j < ny; j++) {
      const v = y1 - j * dy;
      for (let i = 0; i < nx; i++) {
        const u = x0 + i * dx;
        let f = b;
        for (let k = 0; k < m; k++) {
          const base = gamma * (u * s1[k] + v * s2[k]) + coef0;
          let power = 1.0;
          for (let d = 0; d < degree; d++) power *= base;
          f += coef[k] * power;
        }
        out[j * nx + i] = f;
      }
    }
  }
  return out;
}

/** w = sum_s alpha_s y_s x_s, for the linear kernel (null otherwise). */
export function primal_weights(model) {
  if (model.kernel_params.kernel !== "linear") return null;
  const d = model.X.length ? model.X[0].length : 0;
  const w = new Array(d).fill(0.0);
  for (const s of model.support) {
    for (let k = 0; k < d; k++) w[k] += model.alpha[s] * model.y[s] * model.X[s][k];
  }
  return w;
}

/**
 * Each point's case in the KKT conditions: 0 (alpha = 0), 1 (0 < alpha < C,
 * on the margin) or 2 (alpha = C, on or inside the margin).
 */
export function kkt_cases(model) {
  const C = model.C;
  return Array.from(model.alpha, (a) => (a <= 0 ? 0 : (a >= C ? 2 : 1)));
}
