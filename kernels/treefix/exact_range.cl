// exact_range.cl: what a fixed-point format for the exact sums of a float or double weight array
// must hold (core/exact_sum.clh), in one read of the weights:
//   range[0]  the exponent of the lowest set bit over the nonzero weights (INT_MAX: none)
//   range[1]  the exponent of the highest set bit over them (INT_MIN: none)
//   range[2]  1 when some weight is -0
//   range[3]  the first vertex whose weight is not finite (UINT_MAX: none)
// The host fills range with those "none" values first. Built with value_op_options of the weight
// type alone (no EXACT_* options: value_t is weight_t).
#include "core/common.clh"

kernel void exact_range(global const weight_t* weight, const idx_t n, global int* range) {
  int low = INT_MAX, high = INT_MIN, negative_zero = 0;
  uint first_nonfinite = UINT_MAX;
  for (idx_t v = get_global_id(0); v < n; v += get_global_size(0)) {
    const weight_t w = weight[v];
    if (!float_finite(w)) {
      first_nonfinite = min(first_nonfinite, (uint)v);
      continue;
    }
    int mant_exp;
    const ulong mant = float_mant(w, &mant_exp);
    if (mant == 0) {
      negative_zero |= float_negative(w);
      continue;
    }
    low = min(low, mant_exp + (int)ctz(mant));
    high = max(high, mant_exp + 63 - (int)clz(mant));
  }
  // one atomic per work-item per field, only where it carries news
  if (low != INT_MAX) atomic_min(&range[0], low);
  if (high != INT_MIN) atomic_max(&range[1], high);
  if (negative_zero) atomic_or(&range[2], 1);
  if (first_nonfinite != UINT_MAX) atomic_min((volatile global uint*)&range[3], first_nonfinite);
}

// Weights with an infinity or a NaN (range[3] found one): the Euler tour's sums subtract, and the
// fixed point holds no infinity, so such sums are split in two. `finite` takes the weights with
// every non-finite one as 0; `term_class` gives each vertex a code whose 64-bit sum over the same
// terms (an Euler-tour pass of its own) says the IEEE class of the sum: the low 32 bits count the
// +inf and NaN terms, the high 32 bits the -inf and NaN terms (below 2^32 terms, no carry crosses).
kernel void split_nonfinite(global const weight_t* weight, const idx_t n, global weight_t* finite,
                            global long* term_class) {
  for (idx_t v = get_global_id(0); v < n; v += get_global_size(0)) {
    const weight_t w = weight[v];
    const int positive = isnan(w) || (isinf(w) && w > 0), negative = isnan(w) || (isinf(w) && w < 0);
    finite[v] = float_finite(w) ? w : (weight_t)0;
    term_class[v] = (long)positive | ((long)negative << 32);
  }
}

// The sum of the finite terms, made IEEE's where some term was not finite: NaN when the terms
// hold a NaN or both infinities, else the infinity they hold.
kernel void apply_nonfinite(global weight_t* result, global const long* class_sum, const idx_t n) {
  for (idx_t v = get_global_id(0); v < n; v += get_global_size(0)) {
    const ulong sum = (ulong)class_sum[v];
    const uint positive = (uint)sum, negative = (uint)(sum >> 32);
    if (positive && negative) result[v] = (weight_t)NAN;
    else if (positive) result[v] = (weight_t)INFINITY;
    else if (negative) result[v] = -(weight_t)INFINITY;
  }
}
