#pragma once
// Ill-conditioned sums with a chosen condition number, after Ogita, Rump and Oishi, "Accurate sum
// and dot product" (SIAM J. Sci. Comput. 26(6), 2005), Algorithm 6.1 (GenDot) specialised to sums
// ("GenSum"): the first half of the terms have random signs and exponents spread over
// [0, log2(cond)], the largest forced to 2^log2(cond); each term of the second half is a random
// number of a decreasing magnitude (2^log2(cond) down to 2^0) minus the exact sum of the terms
// before it, so that the exact total collapses to about 1 while sum |p_i| stays about cond. The
// terms are finally shuffled.
//
// The condition number of a sum is cond(p) = sum |p_i| / |sum p_i|; a sum computed in working
// precision u has relative error up to about n * u * cond(p) (recursive summation).
//
// Everything about the terms is computed exactly: exact_sum() keeps the partials of Shewchuk's
// expansion sum (error-free TwoSum), so the reference needs no wider type.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace treefix::gensum {

template <class T>  // float or double
struct IllConditionedSum {
  std::vector<T> terms;  // the terms, in random order
  double exact_sum = 0;  // sum of the terms, correctly rounded to double
  double condition = 0;  // achieved sum |p_i| / |sum p_i| (infinity if the sum is 0)
};

// n >= 2 terms whose sum has condition number within a small factor of `condition` (>= 1; up to
// about 1e30 for double, 1e15 for float, beyond which the float terms cannot carry it). Several
// candidates are drawn from `seed` and the closest to the target is kept. Deterministic.
// Throws InputError for n < 2 or a condition number out of range.
template <class T>
IllConditionedSum<T> generate(std::size_t n, double condition, std::uint64_t seed);

// The exact sum of doubles (no overflow assumed), correctly rounded to double. O(n * partials).
double exact_sum(const std::vector<double>& values);
template <class T>
double exact_sum_of(const std::vector<T>& values);  // float or double terms

// sum |p_i| / |sum p_i|, both computed exactly (then rounded); infinity when the sum is 0.
template <class T>
double condition_number(const std::vector<T>& terms);

}  // namespace treefix::gensum
