// Rooted spanning forests of graphs: connectivity + rooting (euler), BFS trees (bfs), or
// path reversal (pr).
#include "treefix/graph/spanning_forest.hpp"

#include <string>
#include <vector>

#include "graph/graph_detail.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/graph/bfs.hpp"

namespace treefix {
namespace {

// BFS trees: from the root (R, else vertex 0); when that leaves vertices unreached, one
// multi-source BFS from the root of every component (labels from connectivity).
ParentArray bfs_spanning_forest(Runtime& runtime, const Csr& graph, const DeviceGraph& device_graph,
                                const RstOptions& options) {
  const std::size_t n = graph.vertices();
  if (n == 0) return {};
  Profile* profile = options.profile;
  BfsOptions bfs_options;
  bfs_options.profile = profile;
  vertex_t first = options.root.value_or(0);
  DeviceBfs result = bfs(runtime, device_graph, {first}, bfs_options);
  if (result.reached() < n) {
    Components cc = detail::connectivity(runtime, device_graph, profile).components;
    std::vector<vertex_t> label = cc.label.download(runtime, profile);
    // Isolated vertices are roots without a search (BFS leaves their parent at -1): on a
    // Kronecker graph they are most of the components.
    std::vector<vertex_t> sources;
    for (std::size_t v = 0; v < n; ++v)
      if (label[v] == static_cast<vertex_t>(v) && graph.degree(static_cast<vertex_t>(v)) > 0 &&
          (!options.root || label[*options.root] != label[v]))
        sources.push_back(static_cast<vertex_t>(v));
    if (options.root) sources.push_back(*options.root);
    result = bfs(runtime, device_graph, sources, bfs_options);
  }
  return result.parent.download(runtime, profile);
}

void check_request(const Csr& graph, const RstOptions& options) {
  const std::size_t n = graph.vertices();
  detail::require_graph_indices(n, graph.edges() / 2 + 1, "a rooted spanning forest");
  if (options.root && (*options.root < 0 || static_cast<std::size_t>(*options.root) >= n))
    throw InputError("root " + std::to_string(*options.root) + " is not a vertex (there are " +
                     std::to_string(n) + ")");
}

}  // namespace

ParentArray rooted_spanning_forest(Runtime& runtime, const Csr& graph, const RstOptions& options) {
  check_request(graph, options);  // before the upload
  DeviceGraph device_graph = translate_device_errors(
      "rooted spanning forest", [&] { return DeviceGraph(runtime, graph, options.profile); });
  return rooted_spanning_forest(runtime, graph, device_graph, options);
}

ParentArray rooted_spanning_forest(Runtime& runtime, const Csr& graph,
                                   const DeviceGraph& device_graph, const RstOptions& options) {
  const std::size_t n = graph.vertices();
  check_request(graph, options);
  return translate_device_errors("rooted spanning forest", [&] {
    if (options.method == RstMethod::bfs)
      return bfs_spanning_forest(runtime, graph, device_graph, options);
    Profile* profile = options.profile;
    if (options.method == RstMethod::path_reversal) {
      return detail::path_reversal_forest(runtime, device_graph, options.root, profile)
          .download(runtime, profile);
    }
    Components cc = detail::connectivity(runtime, device_graph, profile).components;
    RootingOptions rooting;
    if (options.root) rooting.roots.push_back(*options.root);
    rooting.list_rank = options.list_rank;
    rooting.profile = profile;
    return detail::root_forest(runtime, n, cc.forest_source.buffer(), cc.forest_target.buffer(),
                               cc.forest_source.size(), rooting, &cc.label)
        .download(runtime, profile);
  });
}

}  // namespace treefix
