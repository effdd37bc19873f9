// Fuzz target: Matrix Market coordinate files (read_matrix_market). An accepted file gives a
// Csr in the library's form.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  treefix::fuzz::read_graph_with(&treefix::read_matrix_market, data, size);
  return 0;
}
