#pragma once
// Traversals of linear and binary forests: pre-order, post-order, breadth-first, and in-order for
// binary forests. On the device one work-item walks one tree with no stack: pre- and post-order
// climb parent links, so trees of any depth work (a path of a million nodes included).
// Breadth-first order is the storage order. Each traversal writes the visit order and may apply a
// user visit function in OpenCL C (VisitFunction), compiled at run time
// (kernels/forest/traversal.cl). The CPU orders are the reference.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/names.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"
#include "treefix/forest/forest.hpp"

namespace treefix {

enum class Traversal { preorder, postorder, inorder, breadth_first };
TREEFIX_ENUM_NAMES(Traversal, "traversal", {Traversal::preorder, "pre", "preorder"},
                   {Traversal::postorder, "post", "postorder"},
                   {Traversal::inorder, "in", "inorder"},
                   {Traversal::breadth_first, "bfs", "breadth_first"});

// Visit orders on the CPU (the reference; explicit stacks, no recursion). The result is indexed
// like the nodes: order[head[t] + k] is the k-th node of tree t visited. In-order is only defined
// for binary forests (InputError for a LinearForest). Trees are spread over `threads` host
// threads (0 = all, host_threads()).
std::vector<vertex_t> traversal_order_cpu(const LinearForest& forest, Traversal traversal,
                                          unsigned threads = 1);
std::vector<vertex_t> traversal_order_cpu(const BinaryForest& forest, Traversal traversal,
                                          unsigned threads = 1);

// A forest on the device: the link arrays uploaded once, used by any number of traversals.
struct DeviceForest {
  bool binary = false;
  std::size_t trees = 0, nodes = 0;
  DeviceArray<vertex_t> head, node_count, link_a, link_b, parent;  // a/b: first/next or left/right
  static DeviceForest upload(Runtime& runtime, const LinearForest& forest,
                             Profile* profile = nullptr);
  static DeviceForest upload(Runtime& runtime, const BinaryForest& forest,
                             Profile* profile = nullptr);
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
