// The treefix module's tuning rows (treefix.cpp: automatic_on_host, choose_algorithm).
#include "treefix/treefix_tuning.hpp"

namespace treefix::knobs {

// `automatic` on a CPU device takes the host's sequential pass: the device shares the host's
// cores, and the pass needs no upload, no device tree and no program to compile (on PoCL 5-10x
// faster than the tour on small trees, 2-6x end to end at 2^20 vertices, and a first call with
// empty kernel caches in milliseconds rather than seconds). A GPU takes the device algorithms.
const Knob<bool> automatic_on_host = declare<bool>(
    TuningRow("treefix", "automatic_on_host",
              "where --algorithm auto runs rootfix and leaffix: the host's sequential pass, or "
              "the device's euler and levels")
        .env("TREEFIX_AUTO")
        .switch_words("host", "device")
        .defaults(1, 0));

}  // namespace treefix::knobs
