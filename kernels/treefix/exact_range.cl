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
