// treefix-bench forest-traversal: the thesis' traversal experiment. 3,072 copies of a 5-, 6- and
// 10-node binary tree, and a large forest of random binary trees, under the four traversals
// (pre-order, post-order, in-order, breadth-first): the device (one work-item per tree, no stack;
// kernel time from OpenCL profiling events, the forest uploaded once) against the CPU reference
// on one thread and on --threads threads (host wall clocks, output allocation included). Every
// device order is checked against the CPU's. Medians over --repeats after --warmup runs.
// --all-shapes 5,6 adds every binary tree shape of those sizes (42 of 5 nodes, 132 of 6), each
// in --copies copies; the height column (edges on the longest root path) is what the thesis
// found the traversal time to grow with. --sizes with larger trees and --copies sweep the size.
#include <algorithm>
#include <iostream>
#include <memory>
#include <random>

#include "bench.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/traversal.hpp"

namespace treefix::bench {
namespace {

struct TraversalOptions {
  CommonOptions common{"", "", 5, 1};
  std::size_t copies = 3072;
  std::vector<std::size_t> sizes = {5, 6, 10};
  std::size_t random_trees = 100000, random_max_nodes = 200;
  std::vector<std::size_t> all_shapes;  // sizes whose every shape is measured
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

void bench_forest(Runtime& rt, const std::string& name, const BinaryForest& forest, Runs runs,
                  unsigned threads, std::size_t tree_height, Table& table) {
  Profile upload;
  const DeviceForest device = DeviceForest::upload(rt, forest, &upload);
  for (Traversal traversal :
       {Traversal::preorder, Traversal::postorder, Traversal::inorder, Traversal::breadth_first}) {
    std::vector<double> kernel, download, cpu1, cpu_n;
    for (std::size_t run = 0; run < runs.total(); ++run) {
      Profile profile;
      const auto order = traversal_order(rt, device, traversal, &profile);
      std::vector<vertex_t> single, multi;
      const double t1 = host_ms([&] { single = traversal_order_cpu(forest, traversal, 1); });
      const double tn = host_ms([&] { multi = traversal_order_cpu(forest, traversal, threads); });
      if (order != single || multi != single)
        throw Error("forest-traversal: " + std::string(to_string(traversal)) +
                    " orders differ on " + name);
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
               std::to_string(tree_height)});
  }
}

void run_traversal_suite(Session& session, const TraversalOptions& o) {
  Runtime& runtime = session.runtime;
  const Runs runs = session.runs;
  const unsigned threads = thread_count(o.threads);
  std::cout << "# forest-traversal: the four traversals, one work-item per "
            << "tree, against the CPU on 1 and " << threads << " threads; medians of "
            << runs.repeats << " after " << runs.warmup << " warm-up\n";
  Table table({"forest", "trees", "nodes", "traversal", "upload_ms", "device_ms", "download_ms",
               "cpu1_ms", "cpuN_ms", "threads", "speedup_cpu1", "speedup_cpuN", "height"});
  for (std::size_t size : o.sizes) {
    // One random shape of `size` nodes, copied: the thesis' experiment.
    const BinaryTreeLinks tree = random_binary_tree(size, o.seed + size);
    const BinaryForest forest =
        binary_forest_from_links(std::vector<BinaryTreeLinks>(o.copies, tree));
    bench_forest(runtime, std::to_string(o.copies) + "x" + std::to_string(size), forest, runs,
                 threads, height(tree), table);
  }
  for (std::size_t size : o.all_shapes) {
    if (size > 10) throw InputError("--all-shapes: sizes up to 10 (Catalan(10) = 16796 shapes)");
    const auto shapes = every_shape(size);
    for (std::size_t k = 0; k < shapes.size(); ++k)
      bench_forest(
          runtime,
          std::to_string(o.copies) + "x" + std::to_string(size) + "-shape" + std::to_string(k),
          binary_forest_from_links(std::vector<BinaryTreeLinks>(o.copies, shapes[k])), runs,
          threads, height(shapes[k]), table);
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
                 binary_forest_from_links(trees), runs, threads, highest, table);
  }
  session.report({&table});
}

void add_options(CLI::App* suite, TraversalOptions& o) {
  add_setting(suite, "--copies", o.copies, "Copies of each small tree");
  add_setting(suite, "--sizes", o.sizes, "Small tree sizes (comma-separated)")->delimiter(',');
  suite->add_option("--all-shapes", o.all_shapes, "Sizes whose every binary shape is measured")
      ->delimiter(',');
  add_setting(suite, "--random-trees", o.random_trees, "Trees of the random forest (0: none)");
  add_setting(suite, "--random-max-nodes", o.random_max_nodes,
              "Largest random tree (sizes uniform in 1..N)");
  add_threads_option(suite, o.threads);
  add_seed_option(suite, o.seed);
}

TREEFIX_BENCH("forest-traversal",
              "The thesis' traversal experiment: copies of small binary trees and a "
              "large random forest, four traversals, device against 1 and N threads",
              run_traversal_suite, add_options);

}  // namespace
}  // namespace treefix::bench
