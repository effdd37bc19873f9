// treefix-bench forest: one reference tree against N random semantic trees (the thesis' test data:
// height <= 4, up to 3 children, small label alphabets). For each N: construction of the linear
// forest on the host (interning + breadth-first layout), upload, device similarity, download (all
// from OpenCL profiling events), CPU single-thread and multi-thread (std::thread) time, and the
// device pre-/post-order traversal of the same forest. Medians over --repeats after --warmup runs.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <thread>

#include "bench.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/forest/forest.hpp"
#include "treefix/forest/forest_io.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"
#include "treefix/forest/traversal.hpp"

namespace treefix::bench {
namespace {

struct ForestOptions {
  CommonOptions common{"", "", 5, 1};
  std::vector<std::size_t> tree_counts = {1000, 10000, 100000};
  unsigned threads = 0;
  std::uint64_t seed = 1;
  SemanticTreeShape shape;
};

void run_forest(const ForestOptions& o) {
  Runtime runtime(o.common.device);
  const RunInfo info = RunInfo::of(runtime);
  const Runs runs = o.common.runs();
  const unsigned threads =
      o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  std::cout << info.header() << "\n# forest: weighted tree similarity, one reference against N "
            << "trees; medians of " << runs.repeats << " after " << runs.warmup
            << " warm-up; CPU threads: " << threads << "\n";
  Table table({"trees", "nodes", "construct_ms", "upload_ms", "device_ms", "download_ms", "cpu1_ms",
               "cpuN_ms", "preorder_ms", "postorder_ms", "max_abs_diff"});
  for (std::size_t count : o.tree_counts) {
    auto trees = random_semantic_trees(count, o.seed, o.shape);
    auto reference_tree = random_semantic_trees(1, o.seed + 1000003, o.shape);
    std::size_t nodes = 0;
    double max_difference = 0;
    std::vector<double> construct, upload, device, download, cpu1, cpu_n, pre, post;
    for (std::size_t run = 0; run < runs.total(); ++run) {
      const bool measured = runs.timed(run);
      Interner interner;
      SemanticForest ref, forest;
      const double build = host_ms([&] {
        ref = build_semantic_forest(reference_tree, interner);
        forest = build_semantic_forest(trees, interner);
      });
      Profile profile;
      auto on_device = similarity_device(runtime, ref, forest, {}, &profile);
      std::vector<double> single, multi;
      const double t1 = host_ms([&] { single = similarity_cpu(ref, forest, {}, 1); });
      const double tn = host_ms([&] { multi = similarity_cpu(ref, forest, {}, threads); });
      Profile traversal;
      auto shape = DeviceForest::upload(runtime, forest.shape);
      traversal_order(runtime, shape, Traversal::preorder, &traversal);
      const double pre_ms = traversal.milliseconds("traverse");
      traversal.clear();
      traversal_order(runtime, shape, Traversal::postorder, &traversal);
      const double post_ms = traversal.milliseconds("traverse");
      if (!measured) continue;
      nodes = forest.size();
      for (std::size_t i = 0; i < count; ++i)
        max_difference = std::max(
            {max_difference, std::fabs(on_device[i] - single[i]), std::fabs(multi[i] - single[i])});
      construct.push_back(build);
      upload.push_back(profile.milliseconds("upload"));
      device.push_back(profile.milliseconds("similarity"));
      download.push_back(profile.milliseconds("download"));
      cpu1.push_back(t1);
      cpu_n.push_back(tn);
      pre.push_back(pre_ms);
      post.push_back(post_ms);
    }
    char difference[32];
    std::snprintf(difference, sizeof difference, "%.2e", max_difference);
    table.add({std::to_string(count), std::to_string(nodes), cell(median(construct), 4),
               cell(median(upload), 4), cell(median(device), 4), cell(median(download), 4),
               cell(median(cpu1), 4), cell(median(cpu_n), 4), cell(median(pre), 4),
               cell(median(post), 4), difference});
  }
  table.print(std::cout);
  write_csv(o.common.csv, info, {&table});
}

void setup_forest(CLI::App& app) {
  auto o = std::make_shared<ForestOptions>();
  auto* suite = add_suite(
      app, "forest", "Linear forests: tree similarity of N trees to one reference", o, run_forest);
  suite
      ->add_option("--trees", o->tree_counts,
                   "Tree counts (comma-separated, default 1000,10000,100000)")
      ->delimiter(',');
  suite->add_option("--threads", o->threads,
                    "CPU threads of the multi-thread run (default: all cores)");
  suite->add_option("--seed", o->seed, "Random seed");
  suite->add_option("--max-height", o->shape.max_height, "Tree height limit (default 4)");
  suite->add_option("--max-children", o->shape.max_children, "Children per node limit (default 3)");
  suite->add_option("--arc-labels", o->shape.arc_labels, "Arc label alphabet size (default 5)");
}

TREEFIX_BENCH("forest", setup_forest);

}  // namespace
}  // namespace treefix::bench
