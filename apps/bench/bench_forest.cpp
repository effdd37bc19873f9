// treefix-bench forest: tree similarity of one reference against N random semantic trees (the
// thesis' test data: height <= 4, up to 3 children, small label alphabets), both definitions,
// as the thesis measured it: the device against one and all host threads on the same forest.
// Device times are OpenCL profiling events (upload, kernel, download); CPU times host wall
// clocks of similarity_cpu on 1 and --threads threads. Medians over --repeats after --warmup.
// The thesis' run-time speedup: one CPU thread's similarity over the construction of the linear
// forest from the parsed trees (construct_ms, host wall clock, median) plus the device's upload,
// kernel and download (speedup_runtime). Construction from files is `forest-pipeline`;
// traversals are `forest-traversal`.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "bench.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/similarity.hpp"

namespace treefix::bench {
namespace {

struct ForestOptions {
  CommonOptions common{"", "", 5, 1};
  std::vector<std::size_t> tree_counts = {1000, 3000, 10000, 30000, 100000};
  std::vector<std::string> definitions = {"weighted", "thesis"};
  unsigned threads = 0;
  std::uint64_t seed = 1;
  SemanticTreeShape shape;
};

void run_forest(Session& session, const ForestOptions& o) {
  const Runs runs = session.runs;
  const unsigned threads = thread_count(o.threads);
  std::cout << "# forest: tree similarity, one reference against N trees; "
            << "medians of " << runs.repeats << " after " << runs.warmup
            << " warm-up; CPU threads: 1 and " << threads << "\n";
  Table table({"definition", "trees", "nodes", "upload_ms", "device_ms", "download_ms", "cpu1_ms",
               "cpuN_ms", "threads", "speedup_cpu1", "speedup_cpuN", "speedup_cpu1_transfers",
               "max_abs_diff", "construct_ms", "speedup_runtime"});
  for (std::size_t count : o.tree_counts) {
    const auto trees = random_semantic_trees(count, o.seed, o.shape);
    const auto reference_tree = random_semantic_trees(1, o.seed + 1000003, o.shape);
    Interner interner;
    const SemanticForest ref = build_semantic_forest(reference_tree, interner);
    const SemanticForest forest = build_semantic_forest(trees, interner);
    std::vector<double> construct;  // the same build, labels interned afresh each time
    for (std::size_t run = 0; run < runs.total(); ++run) {
      Interner fresh;
      build_semantic_forest(reference_tree, fresh);
      const double ms = host_ms([&] { build_semantic_forest(trees, fresh); });
      if (runs.timed(run)) construct.push_back(ms);
    }
    const double construct_ms = median(construct);
    for (const std::string& name : o.definitions) {
      SimilarityParameters p;
      p.definition = parse<SimilarityDefinition>(name);
      double max_difference = 0;
      std::vector<double> upload, device, download, cpu1, cpu_n;
      for (std::size_t run = 0; run < runs.total(); ++run) {
        Profile profile;
        const auto on_device = similarity_device(session.runtime, ref, forest, p, &profile);
        std::vector<double> single, multi;
        const double t1 = host_ms([&] { single = similarity_cpu(ref, forest, p, 1); });
        const double tn = host_ms([&] { multi = similarity_cpu(ref, forest, p, threads); });
        if (!runs.timed(run)) continue;
        for (std::size_t i = 0; i < count; ++i)
          max_difference = std::max({max_difference, std::fabs(on_device[i] - single[i]),
                                     std::fabs(multi[i] - single[i])});
        upload.push_back(profile.milliseconds("upload"));
        device.push_back(profile.milliseconds("similarity"));
        download.push_back(profile.milliseconds("download"));
        cpu1.push_back(t1);
        cpu_n.push_back(tn);
      }
      if (max_difference > 1e-5)
        throw Error("forest bench: device and CPU differ by " + std::to_string(max_difference));
      const double dev = median(device), transfers = median(upload) + dev + median(download);
      char difference[32];
      std::snprintf(difference, sizeof difference, "%.2e", max_difference);
      table.add({name, std::to_string(count), std::to_string(forest.size()),
                 cell(median(upload), 4), cell(dev, 4), cell(median(download), 4),
                 cell(median(cpu1), 4), cell(median(cpu_n), 4), std::to_string(threads),
                 general(median(cpu1) / dev, 4), general(median(cpu_n) / dev, 4),
                 general(median(cpu1) / transfers, 4), difference, cell(construct_ms, 4),
                 general(median(cpu1) / (construct_ms + transfers), 4)});
    }
  }
  session.report({&table});
}

void add_options(CLI::App* suite, ForestOptions& o) {
  add_setting(suite, "--trees", o.tree_counts, "Tree counts (comma-separated)")->delimiter(',');
  add_setting(suite, "--definitions", o.definitions,
              "Similarity definitions (comma-separated: weighted,thesis)")
      ->delimiter(',');
  add_threads_option(suite, o.threads);
  add_seed_option(suite, o.seed);
  add_setting(suite, "--max-height", o.shape.max_height, "Tree height limit");
  add_setting(suite, "--max-children", o.shape.max_children, "Children per node limit");
  add_setting(suite, "--arc-labels", o.shape.arc_labels, "Arc label alphabet size");
  add_setting(suite, "--node-labels", o.shape.node_labels, "Node label alphabet size (non-roots)");
  add_setting(suite, "--root-labels", o.shape.root_labels, "Root label alphabet size");
}

TREEFIX_BENCH(
    "forest",
    "Linear forests: tree similarity of N trees to one reference, device against 1 and N CPU "
    "threads (both definitions)",
    run_forest, add_options);

}  // namespace
}  // namespace treefix::bench
