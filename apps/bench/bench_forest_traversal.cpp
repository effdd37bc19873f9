// treefix-bench forest-traversal: the thesis' traversal experiment. Copies of small trees (3,072
// in the thesis, one work-item per tree) under the traversals each storage supports, as the
// thesis tests them (its section 4.2.2):
//   general trees (first child / right sibling links): pre-order, post-order, breadth-first;
//   binary trees (left / right links): pre-order, post-order, in-order, breadth-first;
// and a large forest of random binary trees. The device (no stack; kernel time from OpenCL
// profiling events, the forest uploaded once) against the CPU reference on one thread and on
// --threads threads (host wall clocks, output allocation included). Every device result is
// checked against the CPU's. Medians over --repeats after --warmup runs.
//   --sizes 5,6,10          one random binary tree of each size, copied
//   --general-sizes 10      one random general tree of each size, copied
//   --all-shapes 5,6        every binary shape of those sizes (42 of 5 nodes, 132 of 6)
//   --general-shapes 5,6    every general (ordered) shape of those sizes (14 of 5 nodes, 42 of 6)
// The height column (edges on the longest root path) is what the thesis found the traversal time
// to grow with. --visit labels gives every node a node label and an arc label drawn from the
// thesis' alphabets (NA, NB, NC and la, lb, lc: its test data, section 5.2.1.2) and has each visit
// read them and fold them into its tree's accumulator in visit order (treefix::traverse), as a
// traversal that reads its nodes does; --visit order (the default) writes the visit order only.
#include <algorithm>
#include <iostream>
#include <memory>
#include <random>
#include <type_traits>

#include "bench.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/traversal.hpp"
#include "treefix/treefix/generate.hpp"

namespace treefix::bench {
namespace {

struct TraversalOptions {
  CommonOptions common{"", "", 5, 1};
  std::size_t copies = 3072;
  std::vector<std::size_t> sizes = {5, 6, 10};
  std::vector<std::size_t> general_sizes;
  std::size_t random_trees = 100000, random_max_nodes = 200;
  std::vector<std::size_t> all_shapes;      // sizes whose every binary shape is measured
  std::vector<std::size_t> general_shapes;  // sizes whose every general shape is measured
  std::string visit = "order";
  unsigned threads = 0;
  std::uint64_t seed = 1;
};

// Edges on the longest root path of a binary tree (its root: the node nobody points to).
std::size_t height(const BinaryTreeLinks& tree) {
  const std::size_t n = tree.left.size();
  std::vector<bool> is_child(n, false);
  for (std::size_t v = 0; v < n; ++v) {
    if (tree.left[v] >= 0) is_child[tree.left[v]] = true;
    if (tree.right[v] >= 0) is_child[tree.right[v]] = true;
  }
  std::size_t highest = 0;
  std::vector<std::pair<vertex_t, std::size_t>> stack;
  for (std::size_t v = 0; v < n; ++v)
    if (!is_child[v]) stack.push_back({static_cast<vertex_t>(v), 0});
  while (!stack.empty()) {
    auto [v, depth] = stack.back();
    stack.pop_back();
    highest = std::max(highest, depth);
    for (vertex_t c : {tree.left[v], tree.right[v]})
      if (c >= 0) stack.push_back({c, depth + 1});
  }
  return highest;
}

std::size_t height(const ParentArray& tree) {
  const auto depth = depths(tree);
  return depth.empty() ? 0
                       : static_cast<std::size_t>(*std::max_element(depth.begin(), depth.end()));
}

// Every binary tree shape of n nodes (Catalan(n) of them), nodes numbered in pre-order.
std::vector<BinaryTreeLinks> every_shape(std::size_t n) {
  if (n == 0) return {BinaryTreeLinks{}};
  std::vector<BinaryTreeLinks> shapes;
  for (std::size_t left = 0; left < n; ++left)
    for (const auto& l : every_shape(left))
      for (const auto& r : every_shape(n - 1 - left)) {
        BinaryTreeLinks t;
        t.left.assign(n, -1);
        t.right.assign(n, -1);
        auto shift = [](vertex_t v, std::size_t by) {
          return v < 0 ? v : static_cast<vertex_t>(v + by);
        };
        for (std::size_t v = 0; v < left; ++v) {
          t.left[1 + v] = shift(l.left[v], 1);
          t.right[1 + v] = shift(l.right[v], 1);
        }
        for (std::size_t v = 0; v + left + 1 < n; ++v) {
          t.left[1 + left + v] = shift(r.left[v], 1 + left);
          t.right[1 + left + v] = shift(r.right[v], 1 + left);
        }
        if (left > 0) t.left[0] = 1;
        if (left + 1 < n) t.right[0] = static_cast<vertex_t>(1 + left);
        shapes.push_back(std::move(t));
      }
  return shapes;
}

// Every ordered forest of n nodes as parent arrays (nodes in pre-order, roots -1): its first tree
// takes k nodes (a root over an ordered forest of k - 1), the rest is a forest of n - k.
std::vector<ParentArray> every_forest(std::size_t n) {
  if (n == 0) return {ParentArray{}};
  std::vector<ParentArray> forests;
  for (std::size_t k = 1; k <= n; ++k)
    for (const auto& below : every_forest(k - 1))
      for (const auto& rest : every_forest(n - k)) {
        ParentArray f(n, -1);
        for (std::size_t v = 0; v < below.size(); ++v) f[1 + v] = below[v] < 0 ? 0 : below[v] + 1;
        for (std::size_t v = 0; v < rest.size(); ++v)
          f[k + v] = rest[v] < 0 ? -1 : static_cast<vertex_t>(rest[v] + k);
        forests.push_back(std::move(f));
      }
  return forests;
}

// Every general (ordered) tree shape of n nodes: a root over an ordered forest of n - 1
// (Catalan(n - 1) of them).
std::vector<ParentArray> every_general_shape(std::size_t n) {
  if (n == 0) return {};
  std::vector<ParentArray> shapes;
  for (const auto& below : every_forest(n - 1)) {
    ParentArray t(n, -1);
    for (std::size_t v = 0; v < below.size(); ++v) t[1 + v] = below[v] < 0 ? 0 : below[v] + 1;
    shapes.push_back(std::move(t));
  }
  return shapes;
}

// The thesis' labels, one node and one arc label per node, as one code 3 * node + arc (0..8).
std::vector<std::int32_t> label_codes(std::size_t nodes, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int32_t> code(nodes);
  for (auto& c : code) c = static_cast<std::int32_t>(rng() % 3 * 3 + rng() % 3);
  return code;
}

// The visit of --visit labels: fold the node's code into the tree's accumulator (order matters),
// and leave the running fold on the node. The modulus keeps every value in int.
constexpr std::int32_t kFoldModulus = 1000003;
const VisitFunction kLabelVisit{
    "void visit(VISIT_T* acc, int tree, int node, int step, global VISIT_T* data) {\n"
    "  *acc = (*acc * 7 + data[node]) % 1000003;\n"
    "  data[node] = *acc;\n"
    "}\n",
    ValueType::int32};

// What the device must give for the labels visit: the CPU order folded the same way.
VisitResult<std::int32_t> labels_on_cpu(const std::vector<vertex_t>& order,
                                        const std::vector<vertex_t>& head,
                                        const std::vector<vertex_t>& count,
                                        const std::vector<std::int32_t>& code) {
  VisitResult<std::int32_t> r;
  r.order = order;
  r.data = code;
  r.tree_result.assign(head.size(), 0);
  for (std::size_t t = 0; t < head.size(); ++t) {
    std::int32_t acc = 0;
    for (vertex_t k = 0; k < count[t]; ++k) {
      const vertex_t node = order[head[t] + k];
      acc = (acc * 7 + code[node]) % kFoldModulus;
      r.data[node] = acc;
    }
    r.tree_result[t] = acc;
  }
  return r;
}

template <class Forest>
void bench_forest(Runtime& rt, const std::string& name, const Forest& forest,
                  const TraversalOptions& o, Runs runs, unsigned threads, std::size_t tree_height,
                  Table& table) {
  constexpr bool binary = std::is_same_v<Forest, BinaryForest>;
  const bool labels = o.visit == "labels";
  const auto code = labels ? label_codes(forest.size(), o.seed) : std::vector<std::int32_t>{};
  Profile upload;
  const DeviceForest device = DeviceForest::upload(rt, forest, &upload);
  std::vector<Traversal> traversals = {Traversal::preorder, Traversal::postorder};
  if (binary) traversals.push_back(Traversal::inorder);
  traversals.push_back(Traversal::breadth_first);
  for (Traversal traversal : traversals) {
    std::vector<double> kernel, download, cpu1, cpu_n;
    for (std::size_t run = 0; run < runs.total(); ++run) {
      Profile profile;
      VisitResult<std::int32_t> on_device;
      if (labels)
        on_device = traverse(rt, device, traversal, kLabelVisit, code, 0, &profile);
      else
        on_device.order = traversal_order(rt, device, traversal, &profile);
      std::vector<vertex_t> single, multi;
      const double t1 = host_ms([&] { single = traversal_order_cpu(forest, traversal, 1); });
      const double tn = host_ms([&] { multi = traversal_order_cpu(forest, traversal, threads); });
      if (on_device.order != single || multi != single)
        throw Error("forest-traversal: " + std::string(to_string(traversal)) +
                    " orders differ on " + name);
      if (labels) {
        const auto want = labels_on_cpu(single, forest.head, forest.node_count, code);
        if (on_device.data != want.data || on_device.tree_result != want.tree_result)
          throw Error("forest-traversal: " + std::string(to_string(traversal)) +
                      " label folds differ on " + name);
      }
      if (!runs.timed(run)) continue;
      kernel.push_back(profile.milliseconds("traverse"));
      download.push_back(profile.milliseconds("download"));
      cpu1.push_back(t1);
      cpu_n.push_back(tn);
    }
    const double k = median(kernel);
    table.add({name, std::to_string(forest.trees()), std::to_string(forest.size()),
               to_string(traversal), cell(upload.milliseconds("upload"), 4), cell(k, 4),
               cell(median(download), 4), cell(median(cpu1), 4), cell(median(cpu_n), 4),
               std::to_string(threads), general(median(cpu1) / k, 4), general(median(cpu_n) / k, 4),
               std::to_string(tree_height), binary ? "binary" : "general", o.visit});
  }
}

LinearForest copies_of(const ParentArray& tree, std::size_t copies) {
  return linear_forest_from_parents(std::vector<ParentArray>(copies, tree));
}

void run_traversal_suite(Session& session, const TraversalOptions& o) {
  Runtime& runtime = session.runtime;
  const Runs runs = session.runs;
  const unsigned threads = thread_count(o.threads);
  if (o.visit != "order" && o.visit != "labels")
    throw InputError("--visit " + o.visit + ": order or labels");
  for (std::size_t size : o.general_shapes)
    if (size < 1 || size > 11)
      throw InputError("--general-shapes: sizes 1 to 11 (Catalan(10) = 16796 shapes)");
  for (std::size_t size : o.all_shapes)
    if (size > 10) throw InputError("--all-shapes: sizes up to 10 (Catalan(10) = 16796 shapes)");
  std::cout << "# forest-traversal: one work-item per tree, against the CPU on 1 and " << threads
            << " threads; visit: " << o.visit << "; medians of " << runs.repeats << " after "
            << runs.warmup << " warm-up\n";
  Table table({"forest", "trees", "nodes", "traversal", "upload_ms", "device_ms", "download_ms",
               "cpu1_ms", "cpuN_ms", "threads", "speedup_cpu1", "speedup_cpuN", "height", "tree",
               "visit"});
  const std::string copies = std::to_string(o.copies) + "x";
  for (std::size_t size : o.sizes) {
    // One random shape of `size` nodes, copied: the thesis' experiment.
    const BinaryTreeLinks tree = random_binary_tree(size, o.seed + size);
    const BinaryForest forest =
        binary_forest_from_links(std::vector<BinaryTreeLinks>(o.copies, tree));
    bench_forest(runtime, copies + std::to_string(size), forest, o, runs, threads, height(tree),
                 table);
  }
  for (std::size_t size : o.general_sizes) {
    if (size == 0) throw InputError("--general-sizes: a tree has at least one node");
    const ParentArray tree = generate::random_recursive(size, o.seed + size);
    bench_forest(runtime, copies + std::to_string(size) + "-general", copies_of(tree, o.copies), o,
                 runs, threads, height(tree), table);
  }
  for (std::size_t size : o.all_shapes) {
    const auto shapes = every_shape(size);
    for (std::size_t k = 0; k < shapes.size(); ++k)
      bench_forest(runtime, copies + std::to_string(size) + "-shape" + std::to_string(k),
                   binary_forest_from_links(std::vector<BinaryTreeLinks>(o.copies, shapes[k])), o,
                   runs, threads, height(shapes[k]), table);
  }
  for (std::size_t size : o.general_shapes) {
    const auto shapes = every_general_shape(size);
    for (std::size_t k = 0; k < shapes.size(); ++k)
      bench_forest(runtime, copies + std::to_string(size) + "-general" + std::to_string(k),
                   copies_of(shapes[k], o.copies), o, runs, threads, height(shapes[k]), table);
  }
  if (o.random_trees) {
    std::mt19937_64 rng(o.seed);
    std::vector<BinaryTreeLinks> trees;
    trees.reserve(o.random_trees);
    std::size_t highest = 0;
    for (std::size_t t = 0; t < o.random_trees; ++t) {
      trees.push_back(random_binary_tree(1 + rng() % o.random_max_nodes, rng()));
      highest = std::max(highest, height(trees.back()));
    }
    bench_forest(runtime, "random<=" + std::to_string(o.random_max_nodes),
                 binary_forest_from_links(trees), o, runs, threads, highest, table);
  }
  session.report({&table});
}

void add_options(CLI::App* suite, TraversalOptions& o) {
  add_setting(suite, "--copies", o.copies, "Copies of each small tree");
  add_setting(suite, "--sizes", o.sizes, "Small binary tree sizes (comma-separated)")
      ->delimiter(',');
  suite->add_option("--general-sizes", o.general_sizes, "Small general tree sizes")->delimiter(',');
  suite->add_option("--all-shapes", o.all_shapes, "Sizes whose every binary shape is measured")
      ->delimiter(',');
  suite
      ->add_option("--general-shapes", o.general_shapes,
                   "Sizes whose every general (ordered) shape is measured")
      ->delimiter(',');
  add_setting(suite, "--visit", o.visit,
              "order (write the visit order) or labels (each visit folds the node's labels)");
  add_setting(suite, "--random-trees", o.random_trees, "Trees of the random forest (0: none)");
  add_setting(suite, "--random-max-nodes", o.random_max_nodes,
              "Largest random tree (sizes uniform in 1..N)");
  add_threads_option(suite, o.threads);
  add_seed_option(suite, o.seed);
}

TREEFIX_BENCH("forest-traversal",
              "The thesis' traversal experiment: copies of small general and binary trees and "
              "a large random forest, every traversal, device against 1 and N threads",
              run_traversal_suite, add_options);

}  // namespace
}  // namespace treefix::bench
