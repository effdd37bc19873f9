#pragma once
// Host tree forms.
//
// ParentArray: parent[v] for every vertex v, -1 for a root. Several roots make a forest.
// EulerTour:   the vector tree representation of Defour & Marin: a depth-first tour of length 2n
//              in which vertex v is entered at open_pos[v] and left at close_pos[v]; the positions
//              open_pos[v]..close_pos[v] hold exactly the subtree of v. Trees of a forest follow
//              one another in the order of their roots; children in increasing vertex order.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace treefix {

using vertex_t = std::int32_t;  // vertex ids: n < 2^31 on host and device
using ParentArray = std::vector<vertex_t>;

struct EulerTour {
  std::vector<std::int64_t> open_pos;                   // position of the entry of v in the tour
  std::vector<std::int64_t> close_pos;                  // position of the exit of v in the tour
  std::size_t size() const { return open_pos.size(); }  // vertices (the tour has 2n positions)
};

// Children of every vertex in CSR form (children of v: child[child_offset[v] .. [v+1]), in
// increasing vertex order) and the roots in increasing order. O(n).
struct ChildLists {
  std::vector<std::int64_t> child_offset;  // n + 1 entries
  std::vector<vertex_t> child;             // n - roots entries
  std::vector<vertex_t> roots;
};
ChildLists child_lists(const ParentArray& parent);

// Throws NotAForestError (an InputError) for a parent out of range ("vertex 17 has parent 99, but
// there are 20 vertices") or a cycle ("parent array has a cycle through vertex 5"). O(n), no
// recursion.
void validate_parent_array(const ParentArray& parent);

// Vertices in breadth-first order from the roots (every parent before its children). Validates.
std::vector<vertex_t> top_down_order(const ParentArray& parent);

// Every parent before its children, found without child lists: from each vertex not yet placed,
// in increasing id, a walk up the parents to the nearest placed vertex or a root, placed
// top-down. One dependent load per vertex where the breadth-first order takes two after building
// the lists: the cheapest order for a rootfix (6x faster than top_down_order on a shuffled
// 2^20-vertex path). Validates (validate_parent_array's errors).
std::vector<vertex_t> parent_first_order(const ParentArray& parent);

// Vertices level by level from the roots (depth 0, 1, ...), in increasing id within a level.
// Read backwards it meets the children of each vertex in decreasing id, as the breadth-first
// order read backwards does, so a leaffix folds every vertex's children in the same order along
// either. Validates.
std::vector<vertex_t> level_order(const ParentArray& parent);

// Vertices in depth-first pre-order: trees in increasing root id, children in increasing id
// (the device tour's pre_order, euler_tour.hpp). Validates.
std::vector<vertex_t> preorder(const ParentArray& parent);

// Depth of each vertex (roots 0). Validates.
std::vector<vertex_t> depths(const ParentArray& parent);

// The Euler tour, built in O(n) without recursion (subtree sizes bottom-up, then positions
// top-down), so a path of millions of vertices is fine. Validates.
EulerTour build_euler_tour(const ParentArray& parent);

}  // namespace treefix
