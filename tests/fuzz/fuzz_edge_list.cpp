// Fuzz target: edge lists, through both readers: read_edge_list (a graph: undirected, then
// directed; an accepted file gives a Csr in the library's form) and read_edge_list_strict (the
// forest input of `treefix root`: every edge as written, with its line).
#include <algorithm>

#include "fuzz_support.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/graph/graph_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  const std::string& path = fuzz::as_file(data, size);
  for (bool directed : {false, true}) {
    GraphReadOptions options = fuzz::graph_options();
    options.edges_directed = directed;
    Csr graph;
    if (fuzz::expect_refusal([&] { graph = read_edge_list(path, options); }))
      fuzz::require_library_form(graph);
  }
  EdgeList edges;
  std::vector<std::size_t> lines;
  if (fuzz::expect_refusal(
          [&] { edges = read_edge_list_strict(path, -1, &lines, fuzz::graph_options().limits); })) {
    fuzz::require(edges.source.size() == edges.target.size(), "both ends of every edge");
    fuzz::require(lines.size() == edges.edges(), "a line for every edge");
    for (std::size_t i = 0; i < edges.edges(); ++i)
      fuzz::require(
          edges.source[i] >= 0 && edges.target[i] >= 0 &&
              static_cast<std::size_t>(std::max(edges.source[i], edges.target[i])) < edges.vertices,
          "edge ends are vertices");
  }
  return 0;
}
