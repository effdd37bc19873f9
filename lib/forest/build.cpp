// Building linear and binary forests: from child lists, parent arrays, nested trees, link arrays.
#include "treefix/forest/forest.hpp"

#include <string>

#include "treefix/core/error.hpp"

namespace treefix {

LinearForest linear_forest_from_children(std::size_t n, const std::vector<vertex_t>& roots,
                                         const std::vector<std::int64_t>& child_offset,
                                         const std::vector<vertex_t>& child) {
  if (child_offset.size() != n + 1)
    throw InputError("linear forest: child_offset has " + std::to_string(child_offset.size()) +
                     " entries for " + std::to_string(n) + " nodes (expected n + 1)");
  LinearForest f;
  f.first_child.assign(n, -1);
  f.next_sibling.assign(n, -1);
  f.parent.assign(n, -1);
  f.original.assign(n, -1);
  std::vector<vertex_t> index_of(n, -1);  // input node -> linear index
  std::size_t next = 0;
  auto place = [&](vertex_t v) {
    if (v < 0 || static_cast<std::size_t>(v) >= n)
      throw InputError("linear forest: node " + std::to_string(v) + " out of range (there are " +
                       std::to_string(n) + " nodes)");
    if (index_of[v] >= 0)
      throw InputError("linear forest: node " + std::to_string(v) +
                       " is reached twice (a node with two parents, or a cycle)");
    index_of[v] = static_cast<vertex_t>(next);
    f.original[next] = v;
    return static_cast<vertex_t>(next++);
  };
  for (vertex_t root : roots) {
    const std::size_t begin = next;
    f.head.push_back(place(root));
    // Breadth-first: the nodes placed so far in this tree are the queue.
    for (std::size_t q = begin; q < next; ++q) {
      const vertex_t v = f.original[q];
      vertex_t previous = -1;
      for (std::int64_t k = child_offset[v]; k < child_offset[v + 1]; ++k) {
        const vertex_t c = place(child[k]);
        f.parent[c] = static_cast<vertex_t>(q);
        if (previous < 0)
          f.first_child[q] = c;
        else
          f.next_sibling[previous] = c;
        previous = c;
      }
    }
    f.node_count.push_back(static_cast<vertex_t>(next - begin));
  }
  if (next != n)
    throw InputError("linear forest: " + std::to_string(n - next) + " of " + std::to_string(n) +
                     " nodes are not reachable from a root (a cycle)");
  return f;
}

LinearForest linear_forest_from_parents(const ParentArray& parent) {
  validate_parent_array(parent);
  ChildLists lists = child_lists(parent);
  return linear_forest_from_children(parent.size(), lists.roots, lists.child_offset, lists.child);
}

LinearForest linear_forest_from_parents(const std::vector<ParentArray>& trees) {
  ParentArray all;
  for (std::size_t k = 0; k < trees.size(); ++k) {
    try {
      validate_parent_array(trees[k]);
    } catch (const InputError& e) {
      throw InputError("tree " + std::to_string(k) + ": " + e.what());
    }
    const auto offset = static_cast<vertex_t>(all.size());
    for (vertex_t p : trees[k]) all.push_back(p < 0 ? -1 : p + offset);
  }
  return linear_forest_from_parents(all);
}

LinearForest linear_forest_from_nested(const std::vector<NestedTree>& trees,
                                       std::vector<std::int64_t>* values) {
  // Pre-order numbering with an explicit stack; a node's parent is numbered before it, and
  // siblings in order, so the parent array's child lists keep the nested order.
  ParentArray parent;
  std::vector<std::int64_t> value;
  std::vector<std::pair<const NestedTree*, vertex_t>> stack;
  for (auto t = trees.rbegin(); t != trees.rend(); ++t) stack.emplace_back(&*t, -1);
  while (!stack.empty()) {
    auto [node, p] = stack.back();
    stack.pop_back();
    const auto id = static_cast<vertex_t>(parent.size());
    parent.push_back(p);
    value.push_back(node->value);
    for (auto c = node->children.rbegin(); c != node->children.rend(); ++c)
      stack.emplace_back(&*c, id);
  }
  LinearForest f = linear_forest_from_parents(parent);
  if (values) *values = permute_payload(value, f.original);
  return f;
}

BinaryForest binary_forest_from_links(const std::vector<BinaryTreeLinks>& trees) {
  BinaryForest f;
  std::size_t total = 0;
  for (auto& t : trees) total += t.left.size();
  if (total > static_cast<std::size_t>(INT32_MAX))
    throw InputError("binary forest: more than 2^31-1 nodes");
  f.left.assign(total, -1);
  f.right.assign(total, -1);
  f.parent.assign(total, -1);
  f.original.assign(total, -1);
  std::size_t next = 0;
  for (std::size_t k = 0; k < trees.size(); ++k) {
    const auto& t = trees[k];
    const std::string tree = "binary tree " + std::to_string(k) + ": ";
    const std::size_t n = t.left.size();
    if (t.right.size() != n)
      throw InputError(tree + std::to_string(n) + " left links but " +
                       std::to_string(t.right.size()) + " right links");
    if (n == 0) throw InputError(tree + "no nodes (a tree has at least one)");
    std::vector<vertex_t> local_parent(n, -1);
    for (std::size_t v = 0; v < n; ++v) {
      for (vertex_t c : {t.left[v], t.right[v]}) {
        if (c == -1) continue;
        if (c < 0 || static_cast<std::size_t>(c) >= n)
          throw InputError(tree + "node " + std::to_string(v) + " has child " + std::to_string(c) +
                           ", but the tree has " + std::to_string(n) + " nodes");
        if (local_parent[c] >= 0 || static_cast<std::size_t>(c) == v)
          throw InputError(tree + "node " + std::to_string(c) + " has two parents");
        local_parent[c] = static_cast<vertex_t>(v);
      }
    }
    vertex_t root = -1;
    for (std::size_t v = 0; v < n; ++v)
      if (local_parent[v] < 0) {
        if (root >= 0)
          throw InputError(tree + "nodes " + std::to_string(root) + " and " + std::to_string(v) +
                           " both have no parent (expected one root)");
        root = static_cast<vertex_t>(v);
      }
    if (root < 0) throw InputError(tree + "every node has a parent (a cycle)");
    const std::size_t begin = next;
    std::vector<vertex_t> index_of(n, -1);
    auto place = [&](vertex_t v) {
      index_of[v] = static_cast<vertex_t>(next);
      f.original[next] = static_cast<vertex_t>(begin + v);
      return static_cast<vertex_t>(next++);
    };
    f.head.push_back(place(root));
    for (std::size_t q = begin; q < next; ++q) {
      const vertex_t v = f.original[q] - static_cast<vertex_t>(begin);
      if (t.left[v] >= 0) {
        f.left[q] = place(t.left[v]);
        f.parent[f.left[q]] = static_cast<vertex_t>(q);
      }
      if (t.right[v] >= 0) {
        f.right[q] = place(t.right[v]);
        f.parent[f.right[q]] = static_cast<vertex_t>(q);
      }
    }
    if (next - begin != n)
      throw InputError(tree + std::to_string(n - (next - begin)) +
                       " nodes are not reachable from the root (a cycle)");
    f.node_count.push_back(static_cast<vertex_t>(n));
  }
  return f;
}

}  // namespace treefix
