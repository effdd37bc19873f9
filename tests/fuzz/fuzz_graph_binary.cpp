// Fuzz target: the binary graph formats, SciPy's .npz (a zip of .npy members, stored or
// deflated) and our raw .csr. An accepted file gives a Csr in the library's form.
#include "fuzz_support.hpp"
#include "treefix/graph/graph_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  const std::string& path = fuzz::as_file(data, size);
  for (auto read : {&read_npz_csr, &read_csr_binary}) {
    Csr graph;
    if (fuzz::expect_refusal([&] { graph = read(path, fuzz::graph_options()); }))
      fuzz::require_library_form(graph);
  }
  return 0;
}
