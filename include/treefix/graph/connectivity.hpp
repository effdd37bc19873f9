#pragma once
// Connected components on the device by asynchronous union-find (ECL-CC's hooking with path
// halving, split three ways by row length; Afforest's neighbour sampling and giant-component
// skip, tuning knob connectivity_samples). Labels are the smallest vertex of each component, and
// the hooking edges are returned as a spanning forest. Determinism: the labels do not depend on
// timing; which edges form the spanning forest does (a root is hooked by whichever edge wins its
// exchange first). Correct without forward progress between work-groups: no work-item waits for
// another. Sizes: vertices and edges below 2^31 (32-bit device indices); CapacityError beyond.
#include <cstddef>

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

}  // namespace treefix
