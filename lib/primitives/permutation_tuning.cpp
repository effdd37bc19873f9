// The planned permutations' tuning rows (permutation.cpp).
#include "primitives/primitives_tuning.hpp"

namespace treefix::knobs {

// Permutations planned once and applied many times (primitives/permutation.hpp; the tree's
// pre-order layout) of at least this many elements run as two gathers with local reads instead
// of one random gather (0: never). `treefix-bench pipeline` (its kernels table) times both. Off
// everywhere: on PoCL it gains nothing (bench/results/pocl-2026-11-26-permutation); on the H100,
// where it is meant to cut the random-tree rootfix's two 0.39 ms gathers, it has not been timed.
// The environment's two-pass runs it at every size.
const Knob<std::size_t> two_pass_permutation_from = declare<std::size_t>(
    TuningRow("primitives", "two_pass_permutation_from",
              "elements from which a planned permutation runs as two gathers (0: never)")
        .env("TREEFIX_PERMUTATION")
        .word("two-pass", 1)
        .word("one-pass", 0)
        .defaults(0, 0)
        .range(0, std::size_t(1) << 40));
// Blocks of the two-pass permutation's output: 2^permutation_block_log elements (a cache's worth).
const Knob<unsigned> permutation_block_log =
    declare<unsigned>(TuningRow("primitives", "permutation_block_log",
                                "log2 of the output block of a two-pass permutation")
                          .defaults(18, 18)
                          .range(1, 40));

}  // namespace treefix::knobs
