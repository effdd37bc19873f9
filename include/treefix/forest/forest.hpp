#pragma once
// Linear forests: many small trees in a few flat arrays, so that thousands of trees reach the
// device in one copy per array and each work-item walks its own tree.
//
// LinearForest (general trees): the nodes of tree t occupy the index range
//   head[t] .. head[t] + node_count[t] - 1
// in breadth-first order (the root first, children of a node in order, parents before children).
// Each node has first_child, next_sibling and parent links (global node indices, -1 for none).
// BinaryForest is the same with left/right child links (breadth-first, left before right).
//
// Node payloads are separate arrays indexed like the nodes (structure of arrays). `original[i]`
// says where node i came from (the input vertex, or the pre-order number of a nested host tree),
// so a caller permutes its own payload with permute_payload().
//
// Files: treefix/forest/forest_io.hpp. Traversals: treefix/forest/traversal.hpp.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/treefix/tree.hpp"

namespace treefix {

struct LinearForest {
  std::vector<vertex_t> head;          // root (first node) of each tree
  std::vector<vertex_t> node_count;    // nodes of each tree (>= 1)
  std::vector<vertex_t> first_child;   // per node, -1 for a leaf
  std::vector<vertex_t> next_sibling;  // per node, -1 for a last child or a root
  std::vector<vertex_t> parent;        // per node, -1 for a root
  std::vector<vertex_t> original;      // per node: its index in the input
  std::size_t trees() const { return head.size(); }
  std::size_t size() const { return parent.size(); }  // nodes
};

struct BinaryForest {
  std::vector<vertex_t> head, node_count;     // as in LinearForest
  std::vector<vertex_t> left, right, parent;  // per node, -1 for none
  std::vector<vertex_t> original;
  std::size_t trees() const { return head.size(); }
  std::size_t size() const { return parent.size(); }
};

// Every root of `parent` starts a tree (trees in increasing root order; children in increasing
// vertex order). original[i] = the vertex of node i. Validates (InputError on range or cycle).
LinearForest linear_forest_from_parents(const ParentArray& parent);
// The trees (or forests) of several parent arrays, one after the other; original[i] counts the
// vertices of all arrays in order (vertex v of array k is sum of earlier sizes + v).
LinearForest linear_forest_from_parents(const std::vector<ParentArray>& trees);

// A nested host tree: a payload and children, in order.
struct NestedTree {
  std::int64_t value = 0;
  std::vector<NestedTree> children;
};
// original[i] = the pre-order number of node i within all the trees (tree by tree). The nested
// trees are read without recursion. Payload: values[i] of node i in `values` when not null.
LinearForest linear_forest_from_nested(const std::vector<NestedTree>& trees,
                                       std::vector<std::int64_t>* values = nullptr);

// Builds from each node's children list (children_of[v] in order) and the roots, in order, of any
// index space of `n` nodes. Used by the other builders and by payload-carrying modules
// (similarity). InputError when a node is reached twice or links are out of range.
LinearForest linear_forest_from_children(std::size_t n, const std::vector<vertex_t>& roots,
                                         const std::vector<std::int64_t>& child_offset,
                                         const std::vector<vertex_t>& child);

// Binary trees given by left/right child arrays (local indices, -1 for none); the root is the one
// node that is nobody's child. InputError on two parents, no root, several roots, or a cycle.
struct BinaryTreeLinks {
  std::vector<vertex_t> left, right;
};
BinaryForest binary_forest_from_links(const std::vector<BinaryTreeLinks>& trees);

// payload[original[i]] for each node i.
template <class T>
std::vector<T> permute_payload(const std::vector<T>& payload,
                               const std::vector<vertex_t>& original) {
  std::vector<T> out(original.size());
  for (std::size_t i = 0; i < original.size(); ++i) out[i] = payload.at(original[i]);
  return out;
}

}  // namespace treefix
