#pragma once
// The traversal choices shared by the spatial commands (correlate, knn, nbody).
#include "command.hpp"
#include "treefix/spatial/ropes.hpp"

namespace treefix::cli {

struct TraversalArgs {
  Variant variant = Variant::automatic;
  SortMode sort = SortMode::automatic;
  std::string device;
  // --variant, --sort (what sorting orders: `sorted_items`), --device.
  void add_to(CLI::App* command, const std::string& sorted_items) {
    add_enum_option(command, "--variant", variant, "traversal variant");
    add_enum_option(command, "--sort", sort, "Morton-order the " + sorted_items + " first");
    add_device_option(command, device);
  }
  // The variant and sort mode into a library options struct (QueryOptions, GravityOptions).
  template <class Options>
  Options options() const {
    Options o;
    o.variant = variant;
    o.sort = sort;
    return o;
  }
};

}  // namespace treefix::cli
