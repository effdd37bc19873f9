// Linear and binary forests: builders, files, CPU reference traversals, device traversals.
#include "treefix/forest/forest.hpp"

#include <algorithm>
#include <numeric>
#include <ostream>
#include <random>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/text_io.hpp"

namespace treefix {

// --- builders ----------------------------------------------------------------------------------

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
        if (previous < 0) f.first_child[q] = c;
        else f.next_sibling[previous] = c;
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

LinearForest read_linear_forest(const std::string& path) {
  TokenStream in(path, "#");
  const std::int64_t trees = in.next_int("tree count");
  if (trees < 0) in.fail("negative tree count " + std::to_string(trees));
  ParentArray all;
  for (std::int64_t t = 0; t < trees; ++t) {
    const std::string tree = "tree " + std::to_string(t);
    const std::int64_t n = in.next_int((tree + " vertex count").c_str());
    if (n < 1) in.fail(tree + ": vertex count " + std::to_string(n) + " (a tree has at least one)");
    if (static_cast<std::int64_t>(all.size()) + n > INT32_MAX)
      in.fail("more than 2^31-1 nodes in the forest");
    const auto offset = static_cast<vertex_t>(all.size());
    ParentArray local(static_cast<std::size_t>(n));
    std::int64_t roots = 0;
    for (std::int64_t v = 0; v < n; ++v) {
      const std::int64_t p = in.next_int((tree + " parent of vertex " + std::to_string(v)).c_str());
      if (p < -1 || p >= n)
        in.fail(tree + ": vertex " + std::to_string(v) + " has parent " + std::to_string(p) +
                ", but the tree has " + std::to_string(n) + " vertices");
      roots += p < 0;
      local[v] = static_cast<vertex_t>(p);
    }
    if (roots != 1) in.fail(tree + " has " + std::to_string(roots) + " roots (expected one)");
    try {
      validate_parent_array(local);
    } catch (const InputError& e) {
      in.fail(tree + ": " + e.what());
    }
    for (vertex_t p : local) all.push_back(p < 0 ? -1 : p + offset);
  }
  std::string_view extra;
  if (in.next(extra))
    in.fail("unexpected '" + std::string(extra.substr(0, 40)) + "' after " +
            std::to_string(trees) + " trees");
  return linear_forest_from_parents(all);
}

void write_linear_forest(std::ostream& out, const LinearForest& forest) {
  out << forest.trees() << "\n";
  for (std::size_t t = 0; t < forest.trees(); ++t) {
    const vertex_t base = forest.head[t];
    out << forest.node_count[t] << "\n";
    for (vertex_t i = 0; i < forest.node_count[t]; ++i) {
      const vertex_t p = forest.parent[base + i];
      out << (i ? " " : "") << (p < 0 ? -1 : p - base);
    }
    out << "\n";
  }
}

BinaryForest binary_forest_from_links(const std::vector<BinaryTreeLinks>& trees) {
  BinaryForest f;
  std::size_t total = 0;
  for (auto& t : trees) total += t.left.size();
  if (total > static_cast<std::size_t>(INT32_MAX)) throw InputError("binary forest: more than 2^31-1 nodes");
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

BinaryForest read_binary_forest(const std::string& path) {
  TokenStream in(path, "#");
  const std::int64_t trees = in.next_int("tree count");
  if (trees < 0) in.fail("negative tree count " + std::to_string(trees));
  std::vector<BinaryTreeLinks> links(static_cast<std::size_t>(trees));
  for (std::int64_t t = 0; t < trees; ++t) {
    const std::string tree = "tree " + std::to_string(t);
    const std::int64_t n = in.next_int((tree + " node count").c_str());
    if (n < 1 || n > INT32_MAX) in.fail(tree + ": node count " + std::to_string(n));
    for (std::int64_t v = 0; v < n; ++v) {
      const std::string node = tree + " node " + std::to_string(v);
      const std::int64_t l = in.next_int((node + " left").c_str());
      const std::int64_t r = in.next_int((node + " right").c_str());
      for (std::int64_t c : {l, r})
        if (c < -1 || c >= n)
          in.fail(node + " has child " + std::to_string(c) + ", but the tree has " +
                  std::to_string(n) + " nodes");
      links[t].left.push_back(static_cast<vertex_t>(l));
      links[t].right.push_back(static_cast<vertex_t>(r));
    }
  }
  std::string_view extra;
  if (in.next(extra))
    in.fail("unexpected '" + std::string(extra.substr(0, 40)) + "' after " +
            std::to_string(trees) + " trees");
  try {
    return binary_forest_from_links(links);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

BinaryTreeLinks random_binary_tree(std::size_t n, std::uint64_t seed) {
  // Insert each node at a random free child slot of the tree built so far.
  BinaryTreeLinks t{std::vector<vertex_t>(n, -1), std::vector<vertex_t>(n, -1)};
  std::mt19937_64 rng(seed);
  std::vector<std::pair<vertex_t, int>> free_slots;
  if (n) free_slots = {{0, 0}, {0, 1}};
  for (std::size_t v = 1; v < n; ++v) {
    std::uniform_int_distribution<std::size_t> pick(0, free_slots.size() - 1);
    const std::size_t k = pick(rng);
    auto [p, side] = free_slots[k];
    free_slots[k] = free_slots.back();
    free_slots.pop_back();
    (side ? t.right : t.left)[p] = static_cast<vertex_t>(v);
    free_slots.emplace_back(static_cast<vertex_t>(v), 0);
    free_slots.emplace_back(static_cast<vertex_t>(v), 1);
  }
  // Shuffle local labels so the root is not always node 0.
  std::vector<vertex_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  BinaryTreeLinks s{std::vector<vertex_t>(n, -1), std::vector<vertex_t>(n, -1)};
  for (std::size_t v = 0; v < n; ++v) {
    s.left[perm[v]] = t.left[v] < 0 ? -1 : perm[t.left[v]];
    s.right[perm[v]] = t.right[v] < 0 ? -1 : perm[t.right[v]];
  }
  return s;
}

BinaryTreeLinks binary_path(std::size_t n, int shape) {
  BinaryTreeLinks t{std::vector<vertex_t>(n, -1), std::vector<vertex_t>(n, -1)};
  for (std::size_t v = 0; v + 1 < n; ++v) {
    const bool right = shape == 1 || (shape == 2 && v % 2 == 1);
    (right ? t.right : t.left)[v] = static_cast<vertex_t>(v + 1);
  }
  return t;
}

// --- CPU reference traversals --------------------------------------------------------------------

const char* to_string(Traversal t) {
  switch (t) {
    case Traversal::preorder: return "pre";
    case Traversal::postorder: return "post";
    case Traversal::inorder: return "in";
    case Traversal::breadth_first: return "bfs";
  }
  return "?";
}

Traversal parse_traversal(const std::string& name) {
  if (name == "pre" || name == "preorder") return Traversal::preorder;
  if (name == "post" || name == "postorder") return Traversal::postorder;
  if (name == "in" || name == "inorder") return Traversal::inorder;
  if (name == "bfs" || name == "breadth_first") return Traversal::breadth_first;
  throw InputError("unknown traversal '" + name + "' (expected pre, post, in or bfs)");
}

namespace {

// Children of node v in order, through a callback, for both forest kinds.
template <class Children>
std::vector<vertex_t> order_with_stacks(const std::vector<vertex_t>& head,
                                        const std::vector<vertex_t>& node_count, std::size_t n,
                                        Traversal traversal, Children children) {
  std::vector<vertex_t> order(n, -1);
  std::vector<vertex_t> stack, kids, reversed;
  for (std::size_t t = 0; t < head.size(); ++t) {
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
  return order;
}

}  // namespace

std::vector<vertex_t> traversal_order_cpu(const LinearForest& f, Traversal traversal) {
  if (traversal == Traversal::inorder)
    throw InputError("in-order traversal is defined for binary forests only");
  return order_with_stacks(f.head, f.node_count, f.size(), traversal,
                           [&](vertex_t v, std::vector<vertex_t>& kids) {
                             kids.clear();
                             for (vertex_t c = f.first_child[v]; c >= 0; c = f.next_sibling[c])
                               kids.push_back(c);
                           });
}

std::vector<vertex_t> traversal_order_cpu(const BinaryForest& f, Traversal traversal) {
  if (traversal != Traversal::inorder)
    return order_with_stacks(f.head, f.node_count, f.size(), traversal,
                             [&](vertex_t v, std::vector<vertex_t>& kids) {
                               kids.clear();
                               if (f.left[v] >= 0) kids.push_back(f.left[v]);
                               if (f.right[v] >= 0) kids.push_back(f.right[v]);
                             });
  std::vector<vertex_t> order(f.size(), -1), stack;
  for (std::size_t t = 0; t < f.trees(); ++t) {
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
  return order;
}

// --- device traversals -------------------------------------------------------------------------

DeviceForest DeviceForest::upload(Runtime& rt, const LinearForest& f, Profile* profile) {
  DeviceForest d;
  d.binary = false;
  d.trees = f.trees();
  d.nodes = f.size();
  d.head = DeviceArray<vertex_t>::upload(rt, f.head, profile, "forest heads");
  d.node_count = DeviceArray<vertex_t>::upload(rt, f.node_count, profile, "forest node counts");
  d.link_a = DeviceArray<vertex_t>::upload(rt, f.first_child, profile, "forest first children");
  d.link_b = DeviceArray<vertex_t>::upload(rt, f.next_sibling, profile, "forest next siblings");
  d.parent = DeviceArray<vertex_t>::upload(rt, f.parent, profile, "forest parents");
  return d;
}

DeviceForest DeviceForest::upload(Runtime& rt, const BinaryForest& f, Profile* profile) {
  DeviceForest d;
  d.binary = true;
  d.trees = f.trees();
  d.nodes = f.size();
  d.head = DeviceArray<vertex_t>::upload(rt, f.head, profile, "forest heads");
  d.node_count = DeviceArray<vertex_t>::upload(rt, f.node_count, profile, "forest node counts");
  d.link_a = DeviceArray<vertex_t>::upload(rt, f.left, profile, "forest left children");
  d.link_b = DeviceArray<vertex_t>::upload(rt, f.right, profile, "forest right children");
  d.parent = DeviceArray<vertex_t>::upload(rt, f.parent, profile, "forest parents");
  return d;
}

namespace {

const char* kernel_name(Traversal t) {
  switch (t) {
    case Traversal::preorder: return "preorder";
    case Traversal::postorder: return "postorder";
    case Traversal::inorder: return "inorder";
    case Traversal::breadth_first: return "breadth_first";
  }
  return "?";
}

// Launches one traversal kernel; data/tree_result may be dummies when there is no visit function.
void run_traversal(Runtime& rt, const DeviceForest& forest, Traversal traversal,
                   cl::Program program, const cl::Buffer& order, const cl::Buffer& data,
                   const cl::Buffer& tree_result, const void* initial, std::size_t initial_bytes,
                   Profile* profile) {
  if (traversal == Traversal::inorder && !forest.binary)
    throw InputError("in-order traversal is defined for binary forests only");
  if (forest.trees == 0) return;
  translate_device_errors("forest traversal", [&] {
    cl::Kernel kernel(program, kernel_name(traversal));
    set_args(kernel, static_cast<cl_int>(forest.trees), forest.head.buffer(),
             forest.node_count.buffer(), forest.link_a.buffer(), forest.link_b.buffer(),
             forest.parent.buffer(), order, data, tree_result);
    kernel.setArg(9, initial_bytes, initial);
    rt.launch(kernel, forest.trees, rt.default_work_group_size(), profile, "traverse");
  });
}

std::string forest_options(const DeviceForest& forest, ValueType type, bool have_visit) {
  return std::string("-DBINARY=") + (forest.binary ? "1" : "0") + " -DVISIT_T=" +
         opencl_type_name(type) + " -DHAVE_VISIT=" + (have_visit ? "1" : "0");
}

}  // namespace

std::vector<vertex_t> traversal_order(Runtime& rt, const DeviceForest& forest, Traversal traversal,
                                      Profile* profile) {
  DeviceArray<vertex_t> order(rt, forest.nodes, "traversal order");
  cl::Buffer& dummy = rt.scratch("forest.dummy", sizeof(cl_long));
  const cl_int initial = 0;
  if (forest.trees) {
    auto program = rt.program("forest/traversal.cl", forest_options(forest, ValueType::int32, false));
    run_traversal(rt, forest, traversal, program, order.buffer(), dummy, dummy, &initial,
                  sizeof(initial), profile);
  }
  return order.download(rt, profile);
}

template <class T>
VisitResult<T> traverse(Runtime& rt, const DeviceForest& forest, Traversal traversal,
                        const VisitFunction& visit, const std::vector<T>& data, T initial,
                        Profile* profile) {
  if (value_type_of<T>() != visit.type)
    throw InputError(std::string("traverse: the visit function works on ") +
                     to_string(visit.type) + " but the data are " + to_string(value_type_of<T>()));
  if (data.size() != forest.nodes)
    throw InputError("traverse: " + std::to_string(data.size()) + " data values for " +
                     std::to_string(forest.nodes) + " nodes");
  DeviceArray<vertex_t> order(rt, forest.nodes, "traversal order");
  auto device_data = DeviceArray<T>::upload(rt, data, profile, "visit data");
  DeviceArray<T> tree_result(rt, forest.trees, "visit results");
  if (forest.trees) {
    std::string source;
    if (visit.type == ValueType::float64) source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    source += visit.source + "\n" + Runtime::expanded_source("forest/traversal.cl");
    auto program = rt.program_from_source("forest.cl with a user visit function", source,
                                          forest_options(forest, visit.type, true));
    run_traversal(rt, forest, traversal, program, order.buffer(), device_data.buffer(),
                  tree_result.buffer(), &initial, sizeof(T), profile);
  }
  VisitResult<T> result;
  result.order = order.download(rt, profile);
  result.data = device_data.download(rt, profile);
  result.tree_result = tree_result.download(rt, profile);
  return result;
}

template VisitResult<std::int32_t> traverse(Runtime&, const DeviceForest&, Traversal,
                                            const VisitFunction&, const std::vector<std::int32_t>&,
                                            std::int32_t, Profile*);
template VisitResult<std::int64_t> traverse(Runtime&, const DeviceForest&, Traversal,
                                            const VisitFunction&, const std::vector<std::int64_t>&,
                                            std::int64_t, Profile*);
template VisitResult<float> traverse(Runtime&, const DeviceForest&, Traversal, const VisitFunction&,
                                     const std::vector<float>&, float, Profile*);
template VisitResult<double> traverse(Runtime&, const DeviceForest&, Traversal, const VisitFunction&,
                                      const std::vector<double>&, double, Profile*);

}  // namespace treefix
