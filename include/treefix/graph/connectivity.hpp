#pragma once
// Connected components on the device by asynchronous union-find (ECL-CC's hooking with path
// halving, split three ways by row length; Afforest's neighbour sampling and giant-component
// skip, tuning knob connectivity_samples). Labels are the smallest vertex of each component, and
// the hooking edges are returned as a spanning forest. Determinism: the labels do not depend on
// timing; which edges form the spanning forest does (a root is hooked by whichever edge wins its
// exchange first). Correct without forward progress between work-groups: no work-item waits for
// another. Sizes: vertex ids are 32-bit (fewer than 2^31 - 1 vertices). A CSR graph may have any
// number of arcs its device holds (64-bit row offsets beyond 2^31 arcs: nothing per vertex keeps
// an arc index); an edge list fewer than 2^30 edges (32-bit edge ids). CapacityError beyond, with
// the numbers.
#include <cstddef>
#include <cstdint>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/device_graph.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

struct Components {
  DeviceArray<vertex_t> label;  // smallest vertex id of v's component
  std::size_t count = 0;        // number of components
  // The hooking edges: a spanning forest (vertices - count edges), in no particular order.
  DeviceArray<vertex_t> forest_source, forest_target;
};

// Edges (source[i], target[i]), i < edges, already on the device (int ids).
Components connected_components(Runtime& runtime, std::size_t vertices, const cl::Buffer& source,
                                const cl::Buffer& target, std::size_t edges,
                                Profile* profile = nullptr);
// A CSR graph on the device with both directions of every edge (the fast path: rows are split
// by length, and each edge is linked once).
Components connected_components(Runtime& runtime, const DeviceGraph& graph,
                                Profile* profile = nullptr);

// Throws CapacityError, with the numbers, unless connected_components can take a CSR graph of
// `vertices` and `arcs` (both directions counted) on the runtime's device: 32-bit vertex ids, and
// the graph with the labels and working arrays within the device's memory and largest buffer.
// Allocates nothing (the kernels are built, for their work-group size); connected_components
// checks the same before it starts.
void require_components_fit(Runtime& runtime, std::size_t vertices, std::uint64_t arcs);

}  // namespace treefix
