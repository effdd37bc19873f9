// Fuzz target: linear and binary forest files (read_linear_forest, read_binary_forest), the
// inputs of `treefix forest-order`.
#include "fuzz_support.hpp"
#include "treefix/forest/forest_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  const std::string& path = fuzz::as_file(data, size);
  LinearForest linear;
  if (fuzz::expect_refusal([&] { linear = read_linear_forest(path); }))
    fuzz::require(
        linear.first_child.size() == linear.size() && linear.next_sibling.size() == linear.size() &&
            linear.original.size() == linear.size() && linear.node_count.size() == linear.trees(),
        "one link of each kind per node");
  fuzz::expect_refusal([&] { read_binary_forest(path); });
  return 0;
}
