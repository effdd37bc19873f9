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
// Traversals (pre-order, post-order, breadth-first; in-order for binary forests) run on the device
// with one work-item per tree and no stack: pre- and post-order climb parent links, so trees of any
// depth work (a path of a million nodes included). Breadth-first order is the storage order. Each
// traversal writes the visit order and may apply a user visit function in OpenCL C (see
// VisitFunction), compiled at run time.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/treefix/tree.hpp"
#include "treefix/core/types.hpp"

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
  std::vector<vertex_t> head, node_count;    // as in LinearForest
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

// Forest file: the number of trees, then for each tree its vertex count n and n parent indices
// (local to the tree, -1 for its root). '#' starts a comment. InputError "file:line: ...".
LinearForest read_linear_forest(const std::string& path);
void write_linear_forest(std::ostream& out, const LinearForest& forest);

// Binary trees given by left/right child arrays (local indices, -1 for none); the root is the one
// node that is nobody's child. InputError on two parents, no root, several roots, or a cycle.
struct BinaryTreeLinks {
  std::vector<vertex_t> left, right;
};
BinaryForest binary_forest_from_links(const std::vector<BinaryTreeLinks>& trees);
// Binary forest file: the number of trees, then per tree n and n lines "left right".
BinaryForest read_binary_forest(const std::string& path);

// payload[original[i]] for each node i.
template <class T>
std::vector<T> permute_payload(const std::vector<T>& payload, const std::vector<vertex_t>& original) {
  std::vector<T> out(original.size());
  for (std::size_t i = 0; i < original.size(); ++i) out[i] = payload.at(original[i]);
  return out;
}

// Random binary trees of n nodes (local links), for tests and benchmarks. Deterministic per seed.
BinaryTreeLinks random_binary_tree(std::size_t n, std::uint64_t seed);
// Degenerate shapes: a path of left children, of right children, or alternating (zigzag).
BinaryTreeLinks binary_path(std::size_t n, int shape /* 0 left, 1 right, 2 zigzag */);

// --- traversals --------------------------------------------------------------------------------
enum class Traversal { preorder, postorder, inorder, breadth_first };
const char* to_string(Traversal t);
Traversal parse_traversal(const std::string& name);  // "pre|post|in|bfs"

// Visit orders on the CPU (the reference; explicit stacks, no recursion). The result is indexed
// like the nodes: order[head[t] + k] is the k-th node of tree t visited. In-order is only defined
// for binary forests (InputError for a LinearForest).
std::vector<vertex_t> traversal_order_cpu(const LinearForest& forest, Traversal traversal);
std::vector<vertex_t> traversal_order_cpu(const BinaryForest& forest, Traversal traversal);

// A forest on the device: the link arrays uploaded once, used by any number of traversals.
struct DeviceForest {
  bool binary = false;
  std::size_t trees = 0, nodes = 0;
  DeviceArray<vertex_t> head, node_count, link_a, link_b, parent;  // a/b: first/next or left/right
  static DeviceForest upload(Runtime& runtime, const LinearForest& forest, Profile* profile = nullptr);
  static DeviceForest upload(Runtime& runtime, const BinaryForest& forest, Profile* profile = nullptr);
};

// A user visit function in OpenCL C, called once per node in visit order by the work-item of the
// node's tree. The source must define
//   void visit(VISIT_T* acc, int tree, int node, int step, global VISIT_T* data)
// where VISIT_T is the OpenCL C type of `type`, `acc` the tree's private accumulator (starting at
// the `initial` value, written to tree_result at the end), `node` the global node index, `step` the
// visit number within the tree (0, 1, ...) and `data` a per-node array (read and write).
// Example (pre-order prefix sums of a payload): "*acc += data[node]; data[node] = *acc;".
struct VisitFunction {
  std::string source;
  ValueType type = ValueType::int32;
};

// Visit order on the device (one work-item per tree, no stack). Same layout as the CPU order.
std::vector<vertex_t> traversal_order(Runtime& runtime, const DeviceForest& forest,
                                      Traversal traversal, Profile* profile = nullptr);

template <class T>
struct VisitResult {
  std::vector<vertex_t> order;  // as traversal_order
  std::vector<T> data;          // the per-node array after the visits
  std::vector<T> tree_result;   // each tree's accumulator after its last visit
};
// Runs `visit` over every tree. data: one value per node (uploaded, updated, downloaded).
// T must match visit.type (InputError otherwise). Build errors of the user source come back as a
// DeviceError with the build log.
template <class T>
VisitResult<T> traverse(Runtime& runtime, const DeviceForest& forest, Traversal traversal,
                        const VisitFunction& visit, const std::vector<T>& data, T initial,
                        Profile* profile = nullptr);

}  // namespace treefix
