// Fuzz target: the binary graph formats, SciPy's .npz (a zip of .npy members, stored or
// deflated) and our raw .csr. An accepted file gives a Csr in the library's form.
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  treefix::fuzz::read_graph_with(&treefix::read_npz_csr, data, size);
  treefix::fuzz::read_graph_with(&treefix::read_csr_binary, data, size);
  return 0;
}
