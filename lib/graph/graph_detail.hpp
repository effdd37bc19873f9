#pragma once
// Internal to the graph module: connectivity with its hooking edges (for the cycle check of
// root_forest and for spanning forests), rooting with known labels, index limits.
#include <cstddef>
#include <optional>

#include "treefix/core/device_array.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/rooting.hpp"

namespace treefix::detail {

// Throws CapacityError unless vertices < 2^31 and edges < 2^30 (32-bit device indices).
void require_graph_indices(std::size_t vertices, std::size_t edges, const char* what);

// The components and, per vertex, the edge that hooked it (INT_MAX for a component's root): an
// edge id for edge lists, an arc id (index into the columns) for CSR graphs.
struct Connectivity {
  Components components;
  cl::Buffer hook_edge;
};
// Edge list (source[i], target[i]), i < edges.
Connectivity connectivity(Runtime& runtime, std::size_t n, const cl::Buffer& source,
                          const cl::Buffer& target, std::size_t edges, Profile* profile);
// CSR graph with both directions of every edge.
Connectivity connectivity(Runtime& runtime, const DeviceGraph& graph, Profile* profile);
// The first edge (smallest index) that is not a hooking edge: it closes a cycle.
cl_int first_cycle_edge(Runtime& runtime, const cl::Buffer& hook_edge, std::size_t n,
                        std::size_t edges);
// The source vertex of every arc of a CSR graph (binary search in the row offsets).
DeviceArray<vertex_t> arc_sources(Runtime& runtime, const DeviceGraph& graph, const Phase& phase);

// PR-RST (path reversal): a rooted spanning forest of a CSR graph, every tree rooted at its
// smallest vertex except `root`'s, which is rooted there. Parent -1 at roots.
DeviceArray<vertex_t> path_reversal_forest(Runtime& runtime, const DeviceGraph& graph,
                                           std::optional<vertex_t> root, Profile* profile);

// Rooting proper. `labels`, when given, are the component labels of a known forest (its
// validation and connectivity are skipped).
DeviceArray<vertex_t> root_forest(Runtime& runtime, std::size_t n, const cl::Buffer& source,
                                  const cl::Buffer& target, std::size_t edges,
                                  const RootingOptions& options,
                                  const DeviceArray<vertex_t>* labels);

}  // namespace treefix::detail
