#pragma once
// Rooting an unrooted forest on the device: an edge list in, a parent array out, by the
// Euler-tour technique (Tarjan–Vishkin): arcs sorted by source on the device, tour successors,
// each tour cut at its root, list ranking (treefix/primitives/listrank.hpp), parent = the endpoint
// whose arc comes first in the tour.
//
// Roots: by default every tree is rooted at its smallest vertex; options.roots names the root of
// some trees (at most one per tree). Isolated vertices are one-vertex trees.
// Sizes: vertices and 2 x edges below 2^31 (32-bit device indices); CapacityError beyond.
// Determinism: results do not depend on timing (atomic choices are all minima).
#include <cstddef>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

struct RootingOptions {
  std::vector<vertex_t> roots;  // at most one per tree; trees not named use their smallest vertex
  ListRankOptions list_rank;    // method and stride of the list ranking; its profile is ignored
  Profile* profile = nullptr;   // every transfer and kernel ("check", "tour", "listrank", ...)
};

// Host in, host out. Throws EdgeListError for an id out of range, a self loop, a duplicate edge
// or a cycle ("edge 7 (3 5) closes a cycle: ..."), InputError for bad roots.
ParentArray root_forest(Runtime& runtime, const EdgeList& forest,
                        const RootingOptions& options = {});
// Device in, device out: n vertices, edges (source, target) already on the device.
DeviceArray<vertex_t> root_forest(Runtime& runtime, std::size_t vertices,
                                  const DeviceArray<vertex_t>& source,
                                  const DeviceArray<vertex_t>& target,
                                  const RootingOptions& options = {});

}  // namespace treefix
