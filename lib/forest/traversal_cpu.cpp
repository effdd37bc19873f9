// Visit orders on the CPU: the reference traversals (explicit stacks, no recursion).
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/forest/traversal.hpp"

namespace treefix {

namespace {

// Runs order_trees(begin, end, order) over ranges of trees on `threads` host threads (trees own
// disjoint ranges of `order`).
template <class OrderTrees>
std::vector<vertex_t> over_trees(std::size_t trees, std::size_t n, unsigned threads,
                                 OrderTrees order_trees) {
  std::vector<vertex_t> order(n, -1);
  if (threads == 0) threads = host_threads();
  const Ranges ranges(trees, threads);
  auto range = [&](std::size_t k) { order_trees(ranges.begin(k), ranges.end(k), order); };
  parallel_for(ranges.count, threads, range);  // one range runs on this thread
  return order;
}

// Children of node v in order, through a callback, for both forest kinds.
template <class Children>
void order_with_stacks(const std::vector<vertex_t>& head, const std::vector<vertex_t>& node_count,
                       std::size_t first_tree, std::size_t end_tree, Traversal traversal,
                       Children children, std::vector<vertex_t>& order) {
  std::vector<vertex_t> stack, kids, reversed;
  for (std::size_t t = first_tree; t < end_tree; ++t) {
    std::size_t out = head[t];
    const vertex_t root = head[t];
    if (traversal == Traversal::breadth_first) {
      std::size_t front = out;
      order[out++] = root;
      while (front < out) {
        children(order[front++], kids);
        for (vertex_t c : kids) order[out++] = c;
      }
    } else if (traversal == Traversal::preorder) {
      stack = {root};
      while (!stack.empty()) {
        const vertex_t v = stack.back();
        stack.pop_back();
        order[out++] = v;
        children(v, kids);
        stack.insert(stack.end(), kids.rbegin(), kids.rend());
      }
    } else {  // post-order: the reverse of a pre-order that takes children right to left
      stack = {root};
      reversed.clear();
      while (!stack.empty()) {
        const vertex_t v = stack.back();
        stack.pop_back();
        reversed.push_back(v);
        children(v, kids);
        stack.insert(stack.end(), kids.begin(), kids.end());
      }
      for (auto v = reversed.rbegin(); v != reversed.rend(); ++v) order[out++] = *v;
    }
    if (out != static_cast<std::size_t>(head[t] + node_count[t]))
      throw InputError("forest: tree " + std::to_string(t) + " reaches " +
                       std::to_string(out - head[t]) + " nodes but claims " +
                       std::to_string(node_count[t]));
  }
}

}  // namespace

std::vector<vertex_t> traversal_order_cpu(const LinearForest& f, Traversal traversal,
                                          unsigned threads) {
  if (traversal == Traversal::inorder)
    throw InputError("in-order traversal is defined for binary forests only");
  auto children = [&](vertex_t v, std::vector<vertex_t>& kids) {
    kids.clear();
    for (vertex_t c = f.first_child[v]; c >= 0; c = f.next_sibling[c]) kids.push_back(c);
  };
  return over_trees(f.trees(), f.size(), threads,
                    [&](std::size_t begin, std::size_t end, std::vector<vertex_t>& order) {
                      order_with_stacks(f.head, f.node_count, begin, end, traversal, children,
                                        order);
                    });
}

std::vector<vertex_t> traversal_order_cpu(const BinaryForest& f, Traversal traversal,
                                          unsigned threads) {
  auto children = [&](vertex_t v, std::vector<vertex_t>& kids) {
    kids.clear();
    if (f.left[v] >= 0) kids.push_back(f.left[v]);
    if (f.right[v] >= 0) kids.push_back(f.right[v]);
  };
  return over_trees(f.trees(), f.size(), threads,
                    [&](std::size_t begin, std::size_t end, std::vector<vertex_t>& order) {
                      if (traversal != Traversal::inorder) {
                        order_with_stacks(f.head, f.node_count, begin, end, traversal, children,
                                          order);
                        return;
                      }
                      std::vector<vertex_t> stack;
                      for (std::size_t t = begin; t < end; ++t) {
                        std::size_t out = f.head[t];
                        vertex_t v = f.head[t];
                        while (v >= 0 || !stack.empty()) {
                          for (; v >= 0; v = f.left[v]) stack.push_back(v);
                          v = stack.back();
                          stack.pop_back();
                          order[out++] = v;
                          v = f.right[v];
                        }
                      }
                    });
}

}  // namespace treefix
