// treefix-bench pipeline: the whole path of `treefix rootfix`, from files to files, in-process
// (treefix_files, the function the command runs), on stars, caterpillars, random and
// random-shuffled trees of 2^min..2^max vertices, text and .npy, every algorithm including auto.
// One row per (shape, n, format, algorithm) with the median wall time of every phase: read,
// upload, validate, prepare, compute, download, write, and their total. The suite keeps one
// Runtime, so the device setup (context, programs) of a process is not in these rows: the CLI
// rows of bench/run_pipeline.sh measure it, process start to exit.
//
// Beside it, written next to --csv (FILE-kernels.csv, FILE-host-call.csv, FILE-transfers.csv):
//   kernels    the fused Euler rootfix's device time (profiling events: permutations + scan) per
//              tour layout (vertex ids, pre-order with one-gather or two-pass permutations:
//              the two_pass_permutation_from knob) and scan tile (items per work-item);
//   host-call  rootfix(runtime, parent, weights) on a tree it has not seen: wall time and phases;
//   transfers  host -> device and back, pageable against pinned staging, into a reused and a
//              fresh buffer, GB/s.
// Weights are -1, 0, 1, so every algorithm's float result is exact and checked against the
// sequential one (.npy rows).
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>

#include "bench.hpp"
#include "cli_options.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/pipeline.hpp"

namespace treefix::bench {
namespace {

struct Args : TreeSizes {
  Args() {
    min_log = 20;
    shapes = "star,caterpillar,random,random-shuffled";
  }
  CommonOptions common{"", "", 3, 1};
  int log_step = 2;
  std::string formats = "text,npy";
  std::string algorithms = "auto,euler,levels,sequential";
  std::string tables = "pipeline,kernels,host-call,transfers";
  std::string dir = "/tmp/treefix-pipeline";
  std::size_t levels_max_depth = 1 << 16;  // deeper trees skip `levels` (a launch per level)
};

ParentArray make(const std::string& shape, std::size_t n) { return generate::tree(shape, n); }

// Depth of a generated shape, without a pass over it (levels is skipped on deep ones).
std::size_t depth_bound(const std::string& shape, std::size_t n) {
  if (shape == "star") return 1;
  if (shape == "caterpillar") return n / 2;
  return 64;  // random recursive: about e ln n
}

std::vector<float> weights_for(std::size_t n) {
  std::vector<float> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<float>(int((i * 2654435761u) % 3) - 1);
  return w;
}

std::string suffixed(const std::string& csv, const std::string& what) {
  if (csv.empty()) return {};
  const auto dot = csv.rfind(".csv");
  return (dot == std::string::npos ? csv : csv.substr(0, dot)) + "-" + what + ".csv";
}

const char* kPhases[] = {"read", "upload", "validate", "prepare", "compute", "download", "write"};

// The pipeline table: every (shape, n, format, algorithm).
void pipeline_rows(Runtime& rt, const Args& args, const std::string& shape, std::size_t n,
                   const ParentArray& parent, const std::vector<float>& w, Table& table) {
  const Runs runs = args.common.runs();
  for (const std::string& format : split(args.formats)) {
    if (format != "text" && format != "npy")
      throw InputError("unknown format '" + format + "' (text, npy)");
    const std::string ext = format == "npy" ? ".npy" : ".txt";
    const std::string base = args.dir + "/" + shape + "-" + std::to_string(n);
    FileTreefix request;
    request.tree = base + (format == "npy" ? "-tree.npy" : ".tree");
    request.weights = base + "-weights" + ext;
    write_tree_file(request.tree, parent);
    write_values_file(request.weights, w);
    request.leaffix = parse_fix(args.fix) == Fix::leaf;
    std::vector<float> expected;
    for (const std::string& algorithm : split(args.algorithms)) {
      request.options.algorithm = parse<Algorithm>(algorithm);
      request.output = base + "-" + algorithm + "-out" + ext;
      if (request.options.algorithm == Algorithm::levels &&
          depth_bound(shape, n) > args.levels_max_depth) {
        std::vector<std::string> row = {shape, std::to_string(n), format, algorithm};
        for (std::size_t i = 0; i < std::size(kPhases) + 1; ++i) row.push_back("-");
        row.push_back("0");
        row.push_back("skipped-deep");
        table.add(row);
        continue;
      }
      std::map<std::string, std::vector<double>> times;
      for (std::size_t i = 0; i < runs.total(); ++i) {
        PhaseTimes phases;
        treefix_files<float>(
            request, [&]() -> Runtime& { return rt; }, phases);
        if (i == 0 && format == "npy") {  // exact weights: every algorithm agrees exactly
          auto got = read_npy_values<float>(request.output);
          if (expected.empty()) expected = got;
          if (got != expected)
            throw Error(algorithm + " differs from " + split(args.algorithms)[0] + " (" + shape +
                        ", n=" + std::to_string(n) + ")");
        }
        if (!runs.timed(i)) continue;
        for (const char* phase : kPhases) times[phase].push_back(phases.milliseconds(phase));
        times["total"].push_back(phases.total_milliseconds() - phases.milliseconds("device setup"));
      }
      std::vector<std::string> row = {shape, std::to_string(n), format, algorithm};
      for (const char* phase : kPhases) row.push_back(cell(median(times[phase])));
      row.push_back(cell(median(times["total"])));
      row.push_back(std::to_string(runs.repeats));
      row.push_back("ok");
      table.add(row);
      std::cerr << "  " << shape << " 2^" << std::log2(double(n)) << " " << format << " "
                << algorithm << ": " << cell(median(times["total"]), 1) << " ms\n";
    }
    std::filesystem::remove(request.tree);
    std::filesystem::remove(request.weights);
  }
}

// The kernels table: the fused rootfix's device time per layout, permutation and scan tile.
void kernel_rows(Runtime& rt, const Args& args, const std::string& shape, std::size_t n,
                 const ParentArray& parent, const std::vector<float>& w, Table& table) {
  const Runs runs = args.common.runs();
  auto weights = DeviceArray<float>::upload(rt, w);
  DeviceArray<float> result(rt, n);
  const Tuning saved = rt.tuning();
  struct Variant {
    TourLayout layout;
    bool two_pass;
  };
  for (const Variant variant :
       {Variant{TourLayout::vertex_ids, false}, Variant{TourLayout::preorder, false},
        Variant{TourLayout::preorder, true}}) {
    DeviceTreeOptions prepare;
    prepare.layout = variant.layout;
    rt.tuning().set("two_pass_permutation_from",
                    variant.two_pass ? 1 : 0);  // planned with the tree
    DeviceTree tree(rt, parent, prepare);
    const bool preorder = tree.euler_tour().preorder_layout();
    const char* permutation = "none";
    if (preorder)
      permutation = tree.euler_tour().to_preorder().two_pass() ? "two-pass" : "one-gather";
    for (std::size_t items : {4, 6, 8, 12}) {
      rt.tuning().set("scan_items_4", items);
      std::vector<double> compute, scan, permute;
      for (std::size_t i = 0; i < runs.total(); ++i) {
        Profile profile;
        TreefixOptions options;
        options.algorithm = Algorithm::euler;
        options.profile = &profile;
        if (parse_fix(args.fix) == Fix::leaf)
          leaffix(rt, tree, weights, result, options);
        else
          rootfix(rt, tree, weights, result, options);
        rt.queue().finish();
        if (!runs.timed(i)) continue;
        compute.push_back(profile.total_milliseconds());
        scan.push_back(profile.milliseconds("scan"));
        permute.push_back(profile.milliseconds("permute") + profile.milliseconds("read"));
      }
      table.add({shape, std::to_string(n), to_string(variant.layout), permutation,
                 std::to_string(tree.euler_tour().far_steps()), std::to_string(items),
                 cell(median(scan)), cell(median(permute)), cell(median(compute)),
                 std::to_string(runs.repeats)});
    }
  }
  rt.tuning() = saved;
}

// The host-call table: rootfix(runtime, parent, weights) on a tree it has not seen.
void host_call_rows(Runtime& rt, const Args& args, const std::string& shape, std::size_t n,
                    const ParentArray& parent, const std::vector<float>& w, Table& table) {
  const Runs runs = args.common.runs();
  std::map<std::string, std::vector<double>> times;
  for (std::size_t i = 0; i < runs.total(); ++i) {
    PhaseTimes phases;
    TreefixOptions options;
    options.phases = &phases;
    const double wall = host_ms([&] {
      auto r = parse_fix(args.fix) == Fix::leaf ? leaffix(rt, parent, w, options)
                                                : rootfix(rt, parent, w, options);
    });
    if (!runs.timed(i)) continue;
    times["wall"].push_back(wall);
    for (const char* phase : {"upload", "validate", "prepare", "compute", "download"})
      times[phase].push_back(phases.milliseconds(phase));
  }
  table.add({shape, std::to_string(n), cell(median(times["upload"])),
             cell(median(times["validate"])), cell(median(times["prepare"])),
             cell(median(times["compute"])), cell(median(times["download"])),
             cell(median(times["wall"])), std::to_string(runs.repeats)});
}

// The transfers table: pageable against pinned staging, into a buffer used before ("reused") or
// allocated just before the upload, as a command's are ("fresh": its allocation is in up_ms).
void transfer_rows(Runtime& rt, const Args& args, Table& table) {
  const Runs runs = args.common.runs();
  for (std::size_t bytes : {std::size_t(64) << 20, std::size_t(256) << 20}) {
    std::vector<char> host(bytes, 1);
    cl::Buffer reused = rt.allocate(bytes, "transfer test");
    for (bool fresh : {false, true})
      for (auto staging : {detail::Staging::direct, detail::Staging::pinned}) {
        std::vector<double> up, down;
        for (std::size_t i = 0; i < runs.total(); ++i) {
          cl::Buffer device = reused;
          const double u = host_ms([&] {
            if (fresh) device = rt.allocate(bytes, "transfer test");
            detail::write_buffer(rt, device, host.data(), bytes, nullptr, 0, staging);
          });
          const double d = host_ms(
              [&] { detail::read_buffer(rt, device, host.data(), bytes, nullptr, 0, staging); });
          if (!runs.timed(i)) continue;
          up.push_back(u);
          down.push_back(d);
        }
        const char* name = staging == detail::Staging::pinned ? "pinned" : "pageable";
        const double mb = static_cast<double>(bytes) / 1e6;
        table.add(
            {std::to_string(bytes), name, fresh ? "fresh" : "reused", cell(median(up)),
             general(mb / median(up), 4), cell(median(down)), general(mb / median(down), 4),
             (rt.tuning().value("pinned_transfers") != 0) == (staging == detail::Staging::pinned)
                 ? "yes"
                 : "no"});
      }
  }
}

void run(Session& session, const Args& args) {
  Runtime& rt = session.runtime;
  const RunInfo& info = session.info;
  std::cout << "# treefix-bench pipeline: " << args.fix << ", float, weights -1/0/1; medians of "
            << args.common.repeats << " runs after " << args.common.warmup
            << " warm-up; times in ms; host threads " << host_threads() << "\n";
  std::filesystem::create_directories(args.dir);
  std::vector<std::string> columns = {"shape", "n", "format", "algorithm"};
  for (const char* phase : kPhases) columns.push_back(std::string(phase) + "_ms");
  columns.insert(columns.end(), {"total_ms", "runs", "status"});
  Table pipeline(columns);
  Table kernels({"shape", "n", "layout", "permutation", "far_steps", "scan_items", "scan_ms",
                 "permute_ms", "compute_ms", "runs"});
  Table host_call({"shape", "n", "upload_ms", "validate_ms", "prepare_ms", "compute_ms",
                   "download_ms", "wall_ms", "runs"});
  Table transfers(
      {"bytes", "staging", "buffer", "up_ms", "up_GBps", "down_ms", "down_GBps", "default"});
  auto wanted = [&](const char* t) { return listed(args.tables, t); };
  if (wanted("pipeline")) pipeline.stream_csv(args.common.csv, info);
  if (wanted("kernels")) kernels.stream_csv(suffixed(args.common.csv, "kernels"), info);
  if (wanted("host-call")) host_call.stream_csv(suffixed(args.common.csv, "host-call"), info);
  if (wanted("transfers")) transfers.stream_csv(suffixed(args.common.csv, "transfers"), info);
  if (wanted("transfers")) transfer_rows(rt, args, transfers);
  for (int lg = args.min_log; lg <= args.max_log; lg += std::max(1, args.log_step)) {
    const std::size_t n = std::size_t(1) << lg;
    const std::vector<float> w = weights_for(n);
    for (const std::string& shape : split(args.shapes)) {
      const ParentArray parent = make(shape, n);
      if (wanted("kernels")) kernel_rows(rt, args, shape, n, parent, w, kernels);
      if (wanted("host-call")) host_call_rows(rt, args, shape, n, parent, w, host_call);
      if (wanted("pipeline")) pipeline_rows(rt, args, shape, n, parent, w, pipeline);
    }
  }
  session.print({&pipeline, &kernels, &host_call, &transfers});
}

void add_options(CLI::App* suite, Args& o) {
  add_tree_size_options(suite, o, "star,caterpillar,random,random-shuffled");
  add_setting(suite, "--log-step", o.log_step, "size step, log2");
  add_selection(suite, "--formats", o.formats);
  add_selection(suite, "--algorithms", o.algorithms);
  add_selection(suite, "--tables", o.tables);
  add_setting(suite, "--dir", o.dir, "scratch folder for the input and output files");
  add_setting(suite, "--levels-max-depth", o.levels_max_depth,
              "skip levels on shapes deeper than this");
}

TREEFIX_BENCH("pipeline",
              "The treefix command's whole path, files to files, per phase (in-process)", run,
              add_options);

}  // namespace
}  // namespace treefix::bench
