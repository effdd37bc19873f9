#pragma once
// Traversal orders and structure of a forest as device arrays (int32), from its Euler tour: the
// arrays that DendroPy, ete3 and Bio.Phylo hand out one node at a time as iterators.
//
//   pre-order     DeviceEulerTour::pre_order(): trees in increasing root id, children in
//                 increasing id (treefix/treefix/euler_tour.hpp)
//   postorder     children before their parent, in the same child order (one pass)
//   levelorder    breadth-first from the roots: depth 0, 1, ..., and within a level in pre-order
//                 (the order a queue-driven traversal visits children in; a stable radix sort of
//                 the pre-order by depth)
//   tips          the vertices without children, in increasing id (a compaction)
//   intervals     each vertex's subtree as the pre-order ranks [begin, end): the subtree of v is
//                 pre_order[begin[v] .. end[v]) (one pass)
// The child lists in CSR form are DeviceTree::children().
#include "treefix/core/device_array.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix {

DeviceArray<vertex_t> postorder(Runtime& runtime, DeviceTree& tree, Profile* profile = nullptr);
DeviceArray<vertex_t> levelorder(Runtime& runtime, DeviceTree& tree, Profile* profile = nullptr);
DeviceArray<vertex_t> tips(Runtime& runtime, DeviceTree& tree, Profile* profile = nullptr);

struct PreorderIntervals {
  DeviceArray<vertex_t> begin, end;
};
PreorderIntervals preorder_intervals(Runtime& runtime, DeviceTree& tree,
                                     Profile* profile = nullptr);

}  // namespace treefix
