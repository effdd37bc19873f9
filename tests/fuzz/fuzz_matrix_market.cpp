// Fuzz target: Matrix Market coordinate files (read_matrix_market). An accepted file gives a
// Csr in the library's form.
#include "fuzz_support.hpp"
#include "treefix/graph/graph_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  Csr graph;
  if (fuzz::expect_refusal(
          [&] { graph = read_matrix_market(fuzz::as_file(data, size), fuzz::graph_options()); }))
    fuzz::require_library_form(graph);
  return 0;
}
