// The partitioned components' tuning row (components.cpp).
#include "distributed/components_tuning.hpp"

namespace treefix::knobs {

// Work-items walking one row of medium length together. On a GPU a team reads the row's arcs
// side by side; a CPU device runs a work-group's items one after another on a core, where one
// item walking the row in order reads it fastest (PoCL, Kronecker-20: 1 took 100 ms where 32
// took 158 ms for the local pass's medium rows). Capped at the work-group size.
const Knob<std::size_t> distributed_components_team = declare<std::size_t>(
    TuningRow("distributed", "distributed_components_team",
              "work-items per medium row in the distributed components' passes")
        .defaults(1, 32)
        .range(1, 1024));

}  // namespace treefix::knobs
