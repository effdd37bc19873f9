// The graph module's warm-up tasks (treefix/graph/warm_up.hpp): the public calls on a tiny graph.
#include "treefix/graph/warm_up.hpp"

#include "treefix/graph/bfs.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/spanning_forest.hpp"

namespace treefix {
namespace {
// Two components: a path with a branch, and an edge.
Csr tiny_graph() {
  return csr_from_edges(7, std::vector<vertex_t>{0, 1, 2, 1, 5},
                        std::vector<vertex_t>{1, 2, 3, 4, 6}, true);
}
}  // namespace

std::vector<WarmUpTask> graph_warm_up_tasks() {
  return {{"bfs and connected components",
           [](Runtime& runtime) {
             const Csr graph = tiny_graph();
             const DeviceGraph device(runtime, graph);
             bfs(runtime, device, {0});
             connected_components(runtime, device);
           }},
          {"rooted spanning forests",
           [](Runtime& runtime) {
             const Csr graph = tiny_graph();
             for (RstMethod method : {RstMethod::euler, RstMethod::bfs, RstMethod::path_reversal}) {
               RstOptions options;
               options.method = method;
               rooted_spanning_forest(runtime, graph, options);
             }
           }}};
}

}  // namespace treefix
