#pragma once
// The precision of floating-point treefix sums: what every algorithm promises (treefix.hpp,
// levels.hpp, reference.hpp take it).
#include "treefix/core/names.hpp"

namespace treefix {

// How floating-point sums are carried (integers wrap around exactly either way; min and max round
// nothing). u is the unit roundoff of the value type (2^-24 float, 2^-53 double), S the sum of |w|
// over the terms a result combines (the vertex and its ancestors for rootfix, its subtree for
// leaffix; without the vertex itself when exclusive), m their count.
//   accurate  (the default) every result within 8·u·S of the exact sum, with the same bits on
//             every run, device layout and algorithm form:
//               euler       the sum carried exactly in fixed point (kernels/core/exact_sum.clh)
//                           and rounded once: |error| <= u·|result|, so a leaf's leaffix and a
//                           root's rootfix are exact.
//               levels,     float summed in double, double in double-word arithmetic:
//               sequential  |error| <= u·|result| + m·2^-53·S (float), u·|result| + 3m·u²·S
//                           (double): within 5·u·S for m < 2^31.
//             A sum whose terms are all -0 is -0 on every path; min and max are unchanged.
//   fast      the weight type itself, as in Defour and Marin's paper. euler's results are
//             differences of prefixes over the whole Euler tour: |error| <= 2n·u·W to first order,
//             W the sum of |w| over the whole forest, so a small subtree's sum can lose every digit
//             (a leaf's leaffix 400 times off on a random float tree of 10^6 vertices). levels and
//             sequential sum in the weight type: |error| <= (m - 1)·u·S.
//
// Infinities and NaNs (both precisions, every algorithm and value type give the same result,
// whatever the call history):
//   sum       IEEE's sum of the terms: NaN when a term is NaN or the terms hold both +inf and
//             -inf, else +inf or -inf when a term is; inf + 1 = inf. (The Euler tour, whose sums
//             subtract, counts the non-finite terms in a pass of its own.) Finite terms whose sum
//             overflows the type are outside the bounds above (S overflows too): ±inf or a
//             value within them, by algorithm.
//   min, max  numpy.minimum and numpy.maximum: a NaN term makes the result NaN; infinities
//             compare as numbers.
enum class Precision { accurate, fast };
TREEFIX_ENUM_NAMES(Precision, "precision", {Precision::accurate, "accurate"},
                   {Precision::fast, "fast"});

}  // namespace treefix
