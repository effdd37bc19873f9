#pragma once
// Per-vertex results put, on the device, in the form callers outside the library expect
// (kernels/graph/vertex_results.cl): component labels numbered 0, 1, ... in the order of each
// component's smallest vertex (how scipy.sparse.csgraph numbers undirected components), and BFS
// parents with the caller's marker for "none" (SciPy's -9999). A pass or two over the vertices
// and a scan; the host reads only the count.
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

// `label` gives every vertex a representative of its component (a vertex of it). Afterwards it
// holds 0 .. count - 1, components numbered in the order of their smallest vertex; returns the
// count. labels_are_minima: every representative is its component's smallest vertex already
// (connected_components' labels), which saves a pass.
std::size_t number_components(Runtime& runtime, DeviceArray<vertex_t>& label,
                              bool labels_are_minima, Profile* profile = nullptr);

// Every label becomes the smallest vertex with that label (labels are vertices).
void label_by_minimum(Runtime& runtime, DeviceArray<vertex_t>& label, Profile* profile = nullptr);

// Every negative parent (the sources and the unreached) becomes `none`.
void mark_missing_parents(Runtime& runtime, DeviceArray<vertex_t>& parent, vertex_t none,
                          Profile* profile = nullptr);

}  // namespace treefix
