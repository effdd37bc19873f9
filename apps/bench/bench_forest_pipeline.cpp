// treefix-bench forest-pipeline: RuleML files on disk to sorted similarities, end to end, four
// ways on the same files: the device path (files read on all host threads, their bytes sent up
// once and parsed into the forest on the device, similarity kernel, results sorted); the device
// path as it was before (files parsed with pugixml on all host threads, the forest uploaded); and
// the same on the CPU with one thread and with all threads. What the `treefix similarity`
// command does, less printing.
//
// Host parse (gpu-host-parse, cpu1, cpuN): each run lists the directory while reading and parsing
// the files (pugixml, one document per thread) and writing the linear forest while walking each
// DOM (parse; list_ms is the part of it the listing took, overlapped), sorts the names, gathers
// the per-chunk arrays (construct). Device parse (gpu): parse_ms is the reading of the files'
// bytes (the listing overlapped), names_ms the names' sort, then bytes_upload_ms and
// device_parse_ms (the scan, links, labels and weights kernels, with their check) in place of
// construct. Then the similarities (device: upload, kernel, download from OpenCL profiling
// events, and the wall time of the whole step) and the ranking (sort: millionths, a two-pass
// radix sort). Every phase of a path runs on that path's threads: cpu1 does all of them on one
// thread, the reader's sort and gather included (read_ruleml_forest's `threads`).
// Wall clocks, medians over --repeats after --warmup runs (the first run builds the kernel and
// warms the page cache: the files were just written, so every timed run reads them from memory).
// The Runtime is created once, outside the timings, as a server would.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "bench.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/forest/device_forest.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/similarity.hpp"

namespace treefix::bench {
namespace {

namespace fs = std::filesystem;

struct PipelineOptions {
  CommonOptions common{"", "", 3, 1};
  std::vector<std::size_t> tree_counts = {100000};
  std::string directory;
  std::string definition = "weighted";
  unsigned threads = 0;
  std::uint64_t seed = 1;
  bool keep = false;
  SemanticTreeShape shape;
};

struct PipelineRun {
  double list = 0, parse = 0, names = 0, construct = 0, bytes_upload = 0, device_parse = 0,
         upload = 0, device = 0, download = 0, similarity = 0, sort = 0, total = 0;
  bool parsed_on_device = false;
  RuleMLReadTimes read;
  std::size_t nodes = 0;
  std::vector<std::uint32_t> millionths;
  std::vector<std::size_t> order;
};

using Clock = std::chrono::steady_clock;

// One pass from files to ranking. runtime: null for the CPU paths; device_parse: the forest
// read on the device.
PipelineRun run_pipeline(Runtime* runtime, bool device_parse, const std::string& reference_file,
                         const std::string& directory, unsigned threads,
                         const SimilarityParameters& p) {
  PipelineRun r;
  const Clock::time_point start = Clock::now();
  Interner interner;
  Clock::time_point t = Clock::now();
  const NamedSemanticForest reference = read_ruleml_forest(reference_file, interner, 1);
  if (device_parse) {
    DeviceForestTimes times;
    const DeviceSemanticForest trees =
        read_ruleml_forest_on_device(*runtime, directory, threads, &times);
    r.list = times.list_ms;
    r.parse = times.read_ms;
    r.names = times.names_ms;
    r.bytes_upload = times.upload_ms;
    r.device_parse = times.parse_ms;
    r.construct = times.host_reader_ms;  // 0 unless the device gave up
    r.read.read_thread_ms = times.read_thread_ms;
    r.nodes = trees.nodes;
    r.parsed_on_device = trees.parsed_on_device;
    t = Clock::now();
    Profile profile;
    r.millionths =
        to_millionths(similarity_device(*runtime, reference.forest, interner, trees, p, &profile));
    r.upload = profile.milliseconds("upload");
    r.device = profile.milliseconds("similarity");
    r.download = profile.milliseconds("download");
  } else {
    const NamedSemanticForest trees = read_ruleml_forest(directory, interner, threads, &r.read);
    r.list = r.read.list_ms;
    r.parse = ms_since(t) - r.read.sort_ms - r.read.merge_ms;
    r.names = r.read.sort_ms;
    r.construct = r.read.merge_ms;
    r.nodes = trees.forest.size();
    t = Clock::now();
    if (runtime) {
      Profile profile;
      r.millionths =
          to_millionths(similarity_device(*runtime, reference.forest, trees.forest, p, &profile));
      r.upload = profile.milliseconds("upload");
      r.device = profile.milliseconds("similarity");
      r.download = profile.milliseconds("download");
    } else {
      r.millionths = to_millionths(similarity_cpu(reference.forest, trees.forest, p, threads));
    }
  }
  r.similarity = ms_since(t);
  t = Clock::now();
  r.order = rank_by_millionths(r.millionths);
  r.sort = ms_since(t);
  r.total = ms_since(start);
  return r;
}

void write_files(const std::string& directory, const std::string& reference_file, std::size_t count,
                 const PipelineOptions& o) {
  fs::remove_all(directory);
  fs::create_directories(directory);
  const auto trees = random_semantic_trees(count, o.seed, o.shape);
  {
    std::ofstream out(reference_file);
    write_ruleml(out, random_semantic_trees(1, o.seed + 1000003, o.shape)[0]);
  }
  const Ranges ranges(count, host_threads() * 4);
  parallel_for(ranges.count, [&](std::size_t k) {
    char name[32];
    for (std::size_t i = ranges.begin(k); i < ranges.end(k); ++i) {
      std::snprintf(name, sizeof name, "tree_%06zu.xml", i);  // 15 characters: no allocation
      std::ofstream out(fs::path(directory) / name);
      write_ruleml(out, trees[i]);
      if (!out) throw Error("forest-pipeline: cannot write " + directory + "/" + name);
    }
  });
}

void run_pipeline_suite(Session& session, const PipelineOptions& o) {
  const Runs runs = session.runs;
  const unsigned threads = thread_count(o.threads);
  SimilarityParameters p;
  p.definition = parse<SimilarityDefinition>(o.definition);
  const fs::path base = o.directory.empty() ? fs::temp_directory_path() / "treefix-forest-pipeline"
                                            : fs::path(o.directory);
  std::cout << "# forest-pipeline: RuleML files to sorted similarities (" << o.definition
            << "); medians of " << runs.repeats << " after " << runs.warmup
            << " warm-up; host threads " << threads << "; files under " << base.string() << "\n";
  Table table({"pipeline",         "threads",         "trees",           "nodes",
               "parsed_on_device", "list_ms",         "parse_ms",        "names_ms",
               "construct_ms",     "bytes_upload_ms", "device_parse_ms", "upload_ms",
               "device_ms",        "download_ms",     "similarity_ms",   "sort_ms",
               "total_ms",         "read_thread_ms",  "xml_thread_ms",   "walk_thread_ms",
               "speedup_vs_cpu1"});
  Table targets({"trees", "comparison", "speedup", "target", "met"});
  for (std::size_t count : o.tree_counts) {
    const std::string directory = (base / ("trees-" + std::to_string(count))).string();
    const std::string reference_file = (base / "reference.xml").string();
    const double write_ms = host_ms([&] { write_files(directory, reference_file, count, o); });
    std::cout << "# " << count << " files written in " << cell(write_ms, 1) << " ms\n";
    struct Path {
      const char* name;
      Runtime* runtime;
      bool device_parse;
      unsigned threads;
      std::vector<PipelineRun> timed;
    };
    std::vector<Path> paths = {{"gpu", &session.runtime, true, threads, {}},
                               {"cpu1", nullptr, false, 1, {}},
                               {"cpuN", nullptr, false, threads, {}},
                               {"gpu-host-parse", &session.runtime, false, threads, {}}};
    std::uint32_t largest_difference = 0;
    for (std::size_t run = 0; run < runs.total(); ++run) {
      for (Path& path : paths) {
        PipelineRun r = run_pipeline(path.runtime, path.device_parse, reference_file, directory,
                                     path.threads, p);
        if (runs.timed(run)) path.timed.push_back(std::move(r));
      }
      if (!runs.timed(run)) continue;
      // The CPU paths agree exactly; the device (float) within a millionth.
      const PipelineRun &gpu = paths[0].timed.back(), &cpu1 = paths[1].timed.back(),
                        &cpu_n = paths[2].timed.back(), &gpu_host = paths[3].timed.back();
      if (cpu1.order != cpu_n.order || cpu1.millionths != cpu_n.millionths)
        throw Error("forest-pipeline: 1 and " + std::to_string(threads) + " threads disagree");
      if (gpu.millionths != gpu_host.millionths)
        throw Error("forest-pipeline: the forests read on the device and on the host disagree");
      for (std::size_t i = 0; i < count; ++i)
        largest_difference =
            std::max(largest_difference, std::max(gpu.millionths[i], cpu1.millionths[i]) -
                                             std::min(gpu.millionths[i], cpu1.millionths[i]));
    }
    if (largest_difference > 2)
      throw Error("forest-pipeline: device and CPU similarities differ by " +
                  std::to_string(largest_difference) + " millionths");
    auto med = [](const std::vector<PipelineRun>& rs, double PipelineRun::*field) {
      std::vector<double> values;
      for (auto& r : rs) values.push_back(r.*field);
      return median(values);
    };
    auto med_read = [](const std::vector<PipelineRun>& rs, double RuleMLReadTimes::*field) {
      std::vector<double> values;
      for (auto& r : rs) values.push_back(r.read.*field);
      return median(values);
    };
    const double cpu1_total = med(paths[1].timed, &PipelineRun::total);
    for (const Path& path : paths) {
      const auto& rs = path.timed;
      table.add({path.name,
                 std::to_string(path.threads),
                 std::to_string(count),
                 std::to_string(rs.front().nodes),
                 rs.front().parsed_on_device ? "yes" : "no",
                 cell(med(rs, &PipelineRun::list), 3),
                 cell(med(rs, &PipelineRun::parse), 3),
                 cell(med(rs, &PipelineRun::names), 3),
                 cell(med(rs, &PipelineRun::construct), 3),
                 cell(med(rs, &PipelineRun::bytes_upload), 3),
                 cell(med(rs, &PipelineRun::device_parse), 3),
                 cell(med(rs, &PipelineRun::upload), 4),
                 cell(med(rs, &PipelineRun::device), 4),
                 cell(med(rs, &PipelineRun::download), 4),
                 cell(med(rs, &PipelineRun::similarity), 3),
                 cell(med(rs, &PipelineRun::sort), 3),
                 cell(med(rs, &PipelineRun::total), 3),
                 cell(med_read(rs, &RuleMLReadTimes::read_thread_ms), 1),
                 cell(med_read(rs, &RuleMLReadTimes::xml_thread_ms), 1),
                 cell(med_read(rs, &RuleMLReadTimes::walk_thread_ms), 1),
                 general(cpu1_total / med(rs, &PipelineRun::total), 4)});
    }
    const double gpu_total = med(paths[0].timed, &PipelineRun::total);
    const double cpu_n_total = med(paths[2].timed, &PipelineRun::total);
    const double vs1 = cpu1_total / gpu_total, vs_n = cpu_n_total / gpu_total;
    targets.add(
        {std::to_string(count), "gpu vs cpu1", general(vs1, 4), ">= 10", vs1 >= 10 ? "yes" : "no"});
    targets.add({std::to_string(count), "gpu vs cpu" + std::to_string(threads), general(vs_n, 4),
                 ">= 2", vs_n >= 2 ? "yes" : "no"});
    if (!o.keep) fs::remove_all(directory);
  }
  session.report({&table, &targets});
}

void add_options(CLI::App* suite, PipelineOptions& o) {
  add_setting(suite, "--trees", o.tree_counts, "Tree counts (comma-separated)")->delimiter(',');
  suite->add_option("--dir", o.directory,
                    "Where to write the files (default: the temporary directory)");
  add_setting(suite, "--definition", o.definition, "Similarity definition (weighted, thesis)");
  add_threads_option(suite, o.threads);
  add_seed_option(suite, o.seed);
  suite->add_flag("--keep", o.keep, "Keep the written files");
}

TREEFIX_BENCH("forest-pipeline",
              "RuleML files on disk to sorted similarities: device path against "
              "1 and N CPU threads, phase by phase",
              run_pipeline_suite, add_options);

}  // namespace
}  // namespace treefix::bench
