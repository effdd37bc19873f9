// Host tree forms: validation, child lists, orders, and the Euler tour (all O(n), no recursion).
#include "treefix/treefix/tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"

namespace treefix {

ChildLists child_lists(const ParentArray& parent) {
  const std::size_t n = parent.size();
  ChildLists lists;
  lists.child_offset.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    vertex_t p = parent[v];
    if (p < -1 || p >= static_cast<std::int64_t>(n))
      throw NotAForestError("vertex " + std::to_string(v) + " has parent " + std::to_string(p) +
                            ", but there are " + std::to_string(n) + " vertices");
    if (p == -1)
      lists.roots.push_back(static_cast<vertex_t>(v));
    else
      ++lists.child_offset[p + 1];
  }
  for (std::size_t v = 0; v < n; ++v) lists.child_offset[v + 1] += lists.child_offset[v];
  lists.child.resize(n - lists.roots.size());
  std::vector<std::int64_t> fill(lists.child_offset.begin(), lists.child_offset.end() - 1);
  for (std::size_t v = 0; v < n; ++v)  // increasing v: children come out sorted
    if (parent[v] != -1) lists.child[fill[parent[v]]++] = static_cast<vertex_t>(v);
  return lists;
}

namespace {

// Breadth-first order from the roots; vertices it misses lie on (or below) a cycle.
std::vector<vertex_t> bfs_order(const ParentArray& parent, const ChildLists& lists) {
  std::vector<vertex_t> order;
  order.reserve(parent.size());
  order.insert(order.end(), lists.roots.begin(), lists.roots.end());
  for (std::size_t head = 0; head < order.size(); ++head) {
    vertex_t v = order[head];
    for (auto i = lists.child_offset[v]; i < lists.child_offset[v + 1]; ++i)
      order.push_back(lists.child[i]);
  }
  if (order.size() != parent.size()) {
    std::vector<char> reached(parent.size(), 0);
    for (vertex_t v : order) reached[v] = 1;
    vertex_t v = 0;
    while (reached[v]) ++v;
    // Every unreached vertex has an unreached parent, so following parents from v enters a cycle;
    // mark the walk and report the first vertex met twice (it is on the cycle).
    std::vector<char> walked(parent.size(), 0);
    while (!walked[v]) {
      walked[v] = 1;
      v = parent[v];
    }
    throw NotAForestError("parent array has a cycle through vertex " + std::to_string(v) +
                          " (not a forest: " + std::to_string(parent.size() - order.size()) +
                          " vertices are not reachable from a root)");
  }
  return order;
}

}  // namespace

std::vector<vertex_t> top_down_order(const ParentArray& parent) {
  return bfs_order(parent, child_lists(parent));
}

namespace {

// The walks of parent_first_order: visit(v) for every vertex, each after its parent. A walk marks
// its vertices `walking` so that meeting one again is a cycle; a parent out of range or a cycle
// is reported by the breadth-first validation, whose messages name the first bad vertex.
template <class Visit>
void walk_top_down(const ParentArray& parent, Visit&& visit) {
  enum : unsigned char { unplaced, walking, placed };
  const std::size_t n = parent.size();
  const auto count = static_cast<std::int64_t>(n);
  std::vector<unsigned char> state(n, unplaced);
  std::vector<vertex_t> walk;
  for (std::size_t start = 0; start < n; ++start) {
#if defined(__GNUC__)
    // Most walks are short (bushy trees): the first step of a walk kAhead starts on is asked for
    // now, so that its cache misses overlap this walk's.
    constexpr std::size_t kAhead = 8;
    if (start + kAhead < n) {
      const vertex_t p = parent[start + kAhead];
      if (p >= 0 && p < count) {
        __builtin_prefetch(&state[p]);
        __builtin_prefetch(&parent[p]);
      }
    }
#endif
    if (state[start] != unplaced) continue;
    auto v = static_cast<vertex_t>(start);
    for (;;) {
      state[v] = walking;
      walk.push_back(v);
      const vertex_t p = parent[v];
      if (p == -1) break;
      if (p < -1 || p >= count || state[p] == walking) {
        top_down_order(parent);  // throws the NotAForestError naming the first bad vertex
        throw std::logic_error("parent_first_order: a bad walk the validation accepted");
      }
      if (state[p] == placed) break;
      v = p;
    }
    for (std::size_t i = walk.size(); i-- > 0;) {
      state[walk[i]] = placed;
      visit(walk[i]);
    }
    walk.clear();
  }
}

}  // namespace

void validate_parent_array(const ParentArray& parent) {
  walk_top_down(parent, [](vertex_t) {});
}

std::vector<vertex_t> parent_first_order(const ParentArray& parent) {
  std::vector<vertex_t> order;
  order.reserve(parent.size());
  prefault_for_writing(order.data(), parent.size() * sizeof(vertex_t));
  walk_top_down(parent, [&](vertex_t v) { order.push_back(v); });
  return order;
}

std::vector<vertex_t> level_order(const ParentArray& parent) {
  const std::size_t n = parent.size();
  std::vector<vertex_t> depth(n);
  vertex_t deepest = 0;
  walk_top_down(parent, [&](vertex_t v) {
    depth[v] = parent[v] == -1 ? 0 : depth[parent[v]] + 1;
    deepest = std::max(deepest, depth[v]);
  });
  // A counting sort by depth, stable in the ids.
  std::vector<std::size_t> level_start(static_cast<std::size_t>(deepest) + 2, 0);
  for (std::size_t v = 0; v < n; ++v) ++level_start[static_cast<std::size_t>(depth[v]) + 1];
  for (std::size_t l = 1; l < level_start.size(); ++l) level_start[l] += level_start[l - 1];
  std::vector<vertex_t> order(n);
  for (std::size_t v = 0; v < n; ++v) order[level_start[depth[v]]++] = static_cast<vertex_t>(v);
  return order;
}

std::vector<vertex_t> preorder(const ParentArray& parent) {
  const ChildLists lists = child_lists(parent);
  bfs_order(parent, lists);  // validates: every vertex reachable from a root
  std::vector<vertex_t> order;
  order.reserve(parent.size());
  // An explicit stack of the children still to visit, last child pushed first.
  std::vector<vertex_t> pending(lists.roots.rbegin(), lists.roots.rend());
  while (!pending.empty()) {
    const vertex_t v = pending.back();
    pending.pop_back();
    order.push_back(v);
    for (auto i = lists.child_offset[v + 1]; i-- > lists.child_offset[v];)
      pending.push_back(lists.child[i]);
  }
  return order;
}

std::vector<vertex_t> depths(const ParentArray& parent) {
  std::vector<vertex_t> depth(parent.size(), 0);
  walk_top_down(parent, [&](vertex_t v) {
    if (parent[v] != -1) depth[v] = depth[parent[v]] + 1;
  });
  return depth;
}

EulerTour build_euler_tour(const ParentArray& parent) {
  const std::size_t n = parent.size();
  ChildLists lists = child_lists(parent);
  std::vector<vertex_t> order = bfs_order(parent, lists);
  // Subtree sizes bottom-up (reverse BFS order visits children before parents).
  std::vector<std::int64_t> size(n, 1);
  for (std::size_t i = n; i-- > 0;) {
    vertex_t v = order[i];
    if (parent[v] != -1) size[parent[v]] += size[v];
  }
  EulerTour tour;
  tour.open_pos.resize(n);
  tour.close_pos.resize(n);
  // Roots one after another, in increasing id; then each child starts right after its previous
  // sibling's subtree (2 positions per vertex of the subtree).
  std::int64_t next = 0;
  for (vertex_t r : lists.roots) {
    tour.open_pos[r] = next;
    next += 2 * size[r];
  }
  for (vertex_t v : order) {
    tour.close_pos[v] = tour.open_pos[v] + 2 * size[v] - 1;
    std::int64_t child_start = tour.open_pos[v] + 1;
    for (auto i = lists.child_offset[v]; i < lists.child_offset[v + 1]; ++i) {
      vertex_t c = lists.child[i];
      tour.open_pos[c] = child_start;
      child_start += 2 * size[c];
    }
  }
  return tour;
}

}  // namespace treefix
