// The scan's tuning rows (scan.cpp).
#include "primitives/scan_tuning.hpp"

namespace treefix::knobs {

// Scan tile: elements per work-item, by value size. More amortises the work-group scan; local
// memory bounds it (the scan planner shrinks it when it must). A CPU device runs a work-group on
// one core: long tiles. On NVIDIA the plain scan of 2^24 floats prefers 24 items (0.083 against
// 0.107 ms, the tuner), but the fused Euler-tour scan, the product, prefers fewer: 12 against 24
// with the one-word look-back (0.295 against 0.349 ms at 2^24), and 8 since the windowed
// look-back (0.240 against 0.286 for 12 on the random trees, 0.261 against 0.316 on the star;
// `treefix-bench pipeline` kernels table, bench/results/h100-2026-11-25-scan).
const Knob<std::size_t> scan_items_4 = declare<std::size_t>(
    TuningRow("primitives", "scan_items_4", "scan tile: elements per work-item of 4-byte values")
        .defaults(16, 12)
        .measured_on("nvidia", 8)
        .range(1, 64)
        .swept({4, 8, 12, 16, 24}, "scan-4-byte"));
const Knob<std::size_t> scan_items_8 = declare<std::size_t>(
    TuningRow("primitives", "scan_items_8", "scan tile: elements per work-item of 8-byte values")
        .defaults(16, 6)
        .range(1, 64)
        .swept({2, 4, 6, 8, 12}, "scan-8-byte"));
const Knob<std::size_t> scan_items_16 = declare<std::size_t>(
    TuningRow("primitives", "scan_items_16", "scan tile: elements per work-item of 16-byte values")
        .defaults(16, 3)
        .range(1, 64));

// Single-pass scan with decoupled look-back: a work-group waits for its predecessors, which is
// correct only where running work-groups keep making progress. OpenCL does not promise that;
// NVIDIA GPUs give it (known). Off elsewhere: the portable reduce-then-scan.
const Knob<bool> single_pass_scan = declare<bool>(
    TuningRow("primitives", "single_pass_scan",
              "scan strategy (single-pass needs running work-groups to make progress)")
        .env("TREEFIX_SCAN")
        .switch_words("single-pass", "reduce-then-scan")
        .defaults(0, 0)
        .measured_on("nvidia", 1)
        .swept({0, 1}, "scan-4-byte"));

}  // namespace treefix::knobs
