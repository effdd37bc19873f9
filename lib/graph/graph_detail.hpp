#pragma once
// Internal to the graph module: connectivity with its hooking edges (for the cycle check of
// root_forest and for spanning forests), rooting with known labels, index limits.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/graph/rooting.hpp"

namespace treefix::detail {

// Ranges of rows holding about equal shares of rows plus arcs (a hub's row does not leave one
// thread with most of the work): `wanted` ranges (default eight per host thread), fewer for a
// small graph. Range p is rows [first[p], first[p + 1]).
std::vector<std::size_t> balanced_rows(const std::vector<std::int64_t>& row_offset,
                                       std::size_t wanted = 8 * std::size_t(host_threads()));

// Throws CapacityError unless vertices < 2^31 and edges < 2^30 (32-bit device indices).
void require_graph_indices(std::size_t vertices, std::size_t edges, const char* what);

// The build options of the CSR connectivity kernels (EDGE_T, TEAM).
std::string csr_options(bool wide_offsets);

// Device memory of connected components on a CSR graph: the graph, the labels, the hooking
// records and the larger of the hooking pass's work lists and the forest's packing (bytes in all,
// and the largest buffer). `work_group` is the connectivity kernels' work-group size.
struct DeviceBytes {
  std::uint64_t total = 0, largest = 0;
};
DeviceBytes csr_connectivity_bytes(std::size_t vertices, std::uint64_t arcs, bool wide_offsets,
                                   std::size_t work_group);
// Throws CapacityError (with the numbers) unless connected components of a CSR graph of this
// size can run on the runtime's device: vertex ids below 2^31 - 1, the list of long-row chunks
// below 2^31 entries, and csr_connectivity_bytes within the device's memory. Allocates nothing.
void require_csr_connectivity(const Runtime& runtime, std::size_t vertices, std::uint64_t arcs,
                              bool wide_offsets, std::size_t work_group);

// Edge list (source[i], target[i]), i < edges: the components and, per vertex, the id of the
// edge that hooked it (INT_MAX for a component's root; the cycle check of root_forest names an
// edge that is not one).
struct Connectivity {
  Components components;
  cl::Buffer hook_edge;
};
Connectivity connectivity(Runtime& runtime, std::size_t n, const cl::Buffer& source,
                          const cl::Buffer& target, std::size_t edges, Profile* profile);
// CSR graph with both directions of every edge, any number of arcs (64-bit row offsets): the
// hooking records are vertex ids, never arc indices. Checks require_csr_connectivity first.
Components connectivity(Runtime& runtime, const DeviceGraph& graph, Profile* profile);
// The first edge (smallest index) that is not a hooking edge: it closes a cycle.
cl_int first_cycle_edge(Runtime& runtime, const cl::Buffer& hook_edge, std::size_t n,
                        std::size_t edges);
// The source vertex of every arc of a CSR graph (binary search in the row offsets); arcs below
// 2^31 (32-bit arc ids: PR-RST, whose callers refuse larger graphs).
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
