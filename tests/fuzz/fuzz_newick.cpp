// Fuzz target: Newick text (parse_newick with names, and read_tree_input of the same bytes as a
// file). An accepted text gives a forest with one length and one name per vertex.
#include "fuzz_support.hpp"
#include "treefix/treefix/newick.hpp"
#include "treefix/treefix/tree_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  NewickTree tree;
  if (fuzz::expect_refusal(
          [&] { tree = parse_newick(fuzz::as_text(data, size), "fuzz.nwk", true); })) {
    validate_parent_array(tree.parent);
    fuzz::require(tree.length.size() == tree.parent.size(), "one length per vertex");
    fuzz::require(tree.names.size() == tree.parent.size(), "one name per vertex");
  }
  TreeReadOptions options;
  options.format = TreeFormat::newick;
  fuzz::expect_refusal([&] { read_tree_input(fuzz::as_file(data, size), options); });
  return 0;
}
