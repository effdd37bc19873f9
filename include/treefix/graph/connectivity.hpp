#pragma once
// Connected components on the device: hooking + pointer jumping (min-label Shiloach–Vishkin).
// Labels are the smallest vertex of each component, and the hooking edges are returned as a
// spanning forest. Determinism: results do not depend on timing (atomic choices are all minima).
// Sizes: vertices and edges below 2^31 (32-bit device indices); CapacityError beyond.
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
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

}  // namespace treefix
