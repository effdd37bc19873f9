// The device reader's tuning row: where reading RuleML files on the device pays
// (ruleml_device_parse_pays, treefix/forest/device_forest.hpp).
#include "treefix/core/parallel.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/tuning.hpp"
#include "treefix/forest/device_forest.hpp"

namespace treefix {
namespace knobs {

// Reading 10^5 files costs about as much as parsing them with pugixml, and the file-system calls
// of one process serialise (about 1 us a file): with 16 host threads the host's parse fits
// within the time the reading takes anyway, with fewer it does not. On the H100's host the
// device parse took 0.92-0.95x the host parse's time at 16 threads, 1.65x faster at 8, 2.2x at
// 4, 2.9x at 2 (bench/results/h100-2026-11-25-forest-device). A CPU device parses on the same cores as the
// host reader, with no gain.
const Knob<unsigned> ruleml_device_parse_threads = declare<unsigned>(
    TuningRow("forest", "ruleml_device_parse_threads",
              "host threads up to which RuleML files are parsed on the device when the choice "
              "is automatic (0: never)")
        .defaults(0, 8)
        .range(0, 1 << 16));

}  // namespace knobs

bool ruleml_device_parse_pays(const Runtime& runtime) {
  return host_threads() <= runtime.tuning()[knobs::ruleml_device_parse_threads];
}

}  // namespace treefix
