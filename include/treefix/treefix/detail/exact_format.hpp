#pragma once
// Detail, installed on purpose: the fixed-point formats of the exact floating-point sums
// (kernels/core/exact_sum.clh) and how one is chosen for a call. The treefix module's Euler-tour
// sums and the phylo module's path lengths (treefix/phylo/path_lengths.hpp) use them.
#include <cstdint>
#include <string>

#include "treefix/core/device_array.hpp"
#include "treefix/core/profile.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"

namespace treefix::detail {

// A fixed-point format (kernels/core/exact_sum.clh): `count` signed digits of 31 bits added lane by
// lane (the fast form), or `count` 32-bit words with carries (any span); the exponent of the
// lowest bit; whether two more lanes count the terms and those that are not -0 (-0 results).
struct ExactFormat {
  bool digits = true;
  int count = 0;
  int lsb = 0;
  bool zero_sign = false;
  bool nonfinite = false;  // some weight is an infinity or a NaN (the format holds the others)
  std::size_t first_nonfinite = 0;  // with nonfinite: the first such weight's index (< 2^32)
  std::string options() const;  // the -D options of exact_sum.clh
  std::size_t value_bytes() const;
};

// The narrowest format that holds every weight of the array and any sum of up to 2^32 of them,
// from one device pass over the weights (treefix/exact_range.cl) and one read of its four words:
// data of a narrow range (counts, probabilities, lengths of a few decades) take one digit, a
// plain long. Weights that are not finite are left out of the fit and flagged (`nonfinite`).
template <class T>
ExactFormat fitted_exact_format(Runtime& runtime, const DeviceArray<T>& weights, Profile* profile);

// Weights with an infinity or a NaN, split for the Euler tour's passes (kernels/treefix/
// exact_range.cl): `finite` gets the weights with each non-finite one as 0, `term_class` a 64-bit
// code per vertex whose sum over a result's terms apply_nonfinite turns into IEEE's class.
template <class T>
void split_nonfinite(Runtime& runtime, const DeviceArray<T>& weights, DeviceArray<T>& finite,
                     DeviceArray<std::int64_t>& term_class, Profile* profile);
// result = IEEE's sum where class_sum (term_class summed over the same terms) holds a non-finite
// term: NaN for a NaN or both infinities, else that infinity; other values are left as they are.
template <class T>
void apply_nonfinite(Runtime& runtime, DeviceArray<T>& result,
                     const DeviceArray<std::int64_t>& class_sum, Profile* profile);

}  // namespace treefix::detail
