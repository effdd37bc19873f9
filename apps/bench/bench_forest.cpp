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
#include "treefix/forest/forest.hpp"
#include "treefix/forest/forest_io.hpp"
#include "treefix/forest/traversal.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"

namespace treefix::bench {
namespace {

struct ForestOptions {
  std::vector<std::size_t> tree_counts = {1000, 10000, 100000};
  std::size_t repeats = 5, warmup = 1;
  unsigned threads = 0;
  std::uint64_t seed = 1;
  std::string csv, device;
  SemanticTreeShape shape;
};


struct Row {
  std::size_t trees = 0, nodes = 0;
  double construct = 0, upload = 0, device = 0, download = 0, cpu1 = 0, cpu_n = 0;
  double preorder = 0, postorder = 0, max_difference = 0;
};

void run_forest(const ForestOptions& o) {
  Runtime runtime(o.device);
  const unsigned threads = o.threads ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  const auto& d = runtime.description();
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::cout << "suite forest: weighted tree similarity, one reference against N trees\n"
            << "device: " << d.summary() << "\ndriver: " << d.driver_version << "\ndate: " << date
            << "\nrepeats: " << o.repeats << " (medians), warm-up runs: " << o.warmup
            << ", CPU threads: " << threads << "\n\n";

  std::vector<Row> rows;
  for (std::size_t count : o.tree_counts) {
    auto trees = random_semantic_trees(count, o.seed, o.shape);
    auto reference_tree = random_semantic_trees(1, o.seed + 1000003, o.shape);
    Row row;
    row.trees = count;
    std::vector<double> construct, upload, device, download, cpu1, cpu_n, pre, post;
    for (std::size_t run = 0; run < o.warmup + o.repeats; ++run) {
      const bool measured = run >= o.warmup;
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
      row.nodes = forest.size();
      for (std::size_t i = 0; i < count; ++i)
        row.max_difference = std::max({row.max_difference, std::fabs(on_device[i] - single[i]),
                                       std::fabs(multi[i] - single[i])});
      construct.push_back(build);
      upload.push_back(profile.milliseconds("upload"));
      device.push_back(profile.milliseconds("similarity"));
      download.push_back(profile.milliseconds("download"));
      cpu1.push_back(t1);
      cpu_n.push_back(tn);
      pre.push_back(pre_ms);
      post.push_back(post_ms);
    }
    row.construct = median(construct);
    row.upload = median(upload);
    row.device = median(device);
    row.download = median(download);
    row.cpu1 = median(cpu1);
    row.cpu_n = median(cpu_n);
    row.preorder = median(pre);
    row.postorder = median(post);
    rows.push_back(row);
  }

  const char* header[] = {"trees",  "nodes",     "construct_ms", "upload_ms",   "device_ms",
                          "download_ms", "cpu1_ms", "cpuN_ms",   "preorder_ms", "postorder_ms",
                          "max_abs_diff"};
  for (auto h : header) std::cout << std::setw(13) << h;
  std::cout << "\n";
  auto print = [](std::ostream& out, const Row& r, bool csv) {
    auto field = [&](double v, int precision) {
      if (csv) out << "," << std::setprecision(precision) << v;
      else out << std::setw(13) << std::fixed << std::setprecision(precision) << v;
    };
    if (csv) out << r.trees << "," << r.nodes;
    else out << std::setw(13) << r.trees << std::setw(13) << r.nodes;
    for (double v : {r.construct, r.upload, r.device, r.download, r.cpu1, r.cpu_n, r.preorder, r.postorder})
      field(v, csv ? 6 : 4);
    out << (csv ? "," : "  ") << std::scientific << std::setprecision(2) << r.max_difference
        << std::defaultfloat << "\n";
  };
  for (auto& r : rows) print(std::cout, r, false);
  if (!o.csv.empty())
    write_output(o.csv, [&](std::ostream& out) {
      out << "# device: " << d.summary() << "; driver: " << d.driver_version << "; date: " << date
          << "; threads: " << threads << "\n";
      for (std::size_t i = 0; i < std::size(header); ++i) out << (i ? "," : "") << header[i];
      out << "\n";
      for (auto& r : rows) print(out, r, true);
    });
}

void setup_forest(CLI::App& app) {
  auto o = std::make_shared<ForestOptions>();
  auto* suite = app.add_subcommand("forest", "Linear forests: tree similarity of N trees to one reference");
  suite->add_option("--trees", o->tree_counts, "Tree counts (comma-separated, default 1000,10000,100000)")
      ->delimiter(',');
  suite->add_option("--repeats", o->repeats, "Measured runs per size (median reported)")
      ->check(CLI::PositiveNumber);
  suite->add_option("--warmup", o->warmup, "Unmeasured runs first");
  suite->add_option("--threads", o->threads, "CPU threads of the multi-thread run (default: all cores)");
  suite->add_option("--seed", o->seed, "Random seed");
  suite->add_option("--max-height", o->shape.max_height, "Tree height limit (default 4)");
  suite->add_option("--max-children", o->shape.max_children, "Children per node limit (default 3)");
  suite->add_option("--arc-labels", o->shape.arc_labels, "Arc label alphabet size (default 5)");
  suite->add_option("--csv", o->csv, "Write the table as CSV");
  suite->add_option("--device", o->device, "OpenCL device (as treefix --device)");
  suite->callback([o] { run_forest(*o); });
}

TREEFIX_BENCH("forest", setup_forest);

}  // namespace
}  // namespace treefix::bench
