// Fuzz target: text parent-array tree files (read_tree_input, validated: ranges and cycles).
// A tree it accepts is a forest: validate_parent_array, called outside the expected refusals,
// must not throw.
#include "fuzz_support.hpp"
#include "treefix/treefix/tree_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  const std::string& path = fuzz::as_file(data, size);
  TreeInput tree;
  TreeReadOptions options;
  options.format = TreeFormat::parents;
  if (fuzz::expect_refusal([&] { tree = read_tree_input(path, options); }))
    validate_parent_array(tree.parent);
  return 0;
}
