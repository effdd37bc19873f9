// treefix-bench points: spatial trees and queries on point files (real scans: uneven surface
// samples, quantised depth full of ties) and on uniform points. Per point set:
//   vp-build    the vp-tree on one host thread and on all of them (wall clock, medians)
//   kd-build    the kd-tree as the library builds it
//   knn-kd, knn-vp, correlate   the device queries with the points as queries: the wall clock
//               of the library call (upload, sort, kernel, download), the kernel and transfer
//               times from OpenCL profiling events, and the total with the tree's build
// Medians over --repeats runs after --warmup runs. The correlation radius is chosen per set so
// that a ball holds about --neighbours points (bisection on a sample of the points).
// --dump-dir writes the sets, radii and our correlation counts for bench/ckdtree_peer.py.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <numeric>
#include <random>

#include "bench.hpp"
#include "point_sets.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::bench {
namespace {

struct PointsArgs : PointQueries {
  CommonOptions common{"", "", 5, 1};
  std::vector<std::string> files;
  std::size_t uniform = 1000000;
  Variant variant = Variant::automatic;
  PointFormat format = PointFormat::automatic;
};

struct PointSetCase {
  std::string name;
  PointSet points;
};

// The file name without directories and extensions, in the characters a dump name allows.
std::string set_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  name = name.substr(0, name.find('.'));
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return name.empty() ? "points" : name;
}

// A radius whose ball holds about `neighbours` points on average (the point itself included),
// by bisection on the mean count of up to 4096 sample points.
double radius_for(Runtime& rt, const KdTree& kd, const PointSet& points, double neighbours) {
  std::vector<std::int32_t> pick;
  const std::size_t step = std::max<std::size_t>(1, points.n / 4096);
  for (std::size_t i = 0; i < points.n; i += step) pick.push_back(std::int32_t(i));
  const PointSet sample = points.permuted(pick);
  double diagonal = 0;
  for (int k = 0; k < points.dim; ++k) {
    const auto [lo, hi] = std::minmax_element(points.coord.begin() + k * points.n,
                                              points.coord.begin() + (k + 1) * points.n);
    diagonal += double(*hi - *lo) * double(*hi - *lo);
  }
  double lo = 0, hi = std::sqrt(diagonal);
  for (int step_count = 0; step_count < 40; ++step_count) {
    const double mid = 0.5 * (lo + hi);
    const auto counts = correlation_counts(rt, kd, sample, mid);
    const double mean = std::accumulate(counts.begin(), counts.end(), 0.0) / double(counts.size());
    (mean < neighbours ? lo : hi) = mid;
  }
  return hi;
}

void run_set(Runtime& rt, const PointsArgs& a, const PointSetCase& set, Table& rows,
             PointsDump& dump) {
  const Runs runs = a.common.runs();
  const std::size_t n = set.points.n;
  const std::string threads = std::to_string(host_threads());
  // A row; a query time < 0 means none (a build row): its cells stay empty.
  auto add = [&](const std::string& task, const std::string& variant, const std::string& used,
                 double build, double query, double kernel, double transfer,
                 const std::string& note) {
    auto maybe = [](double ms) { return ms < 0 ? std::string() : cell(ms); };
    rows.add({set.name, std::to_string(n), task, variant, used, cell(build), maybe(query),
              maybe(kernel), maybe(transfer), cell(build + std::max(query, 0.0)), note});
  };
  // Builds.
  const double vp_one = median_host_ms(runs, [&] { build_vp_tree(set.points, a.leaf, false); });
  const double vp_all = median_host_ms(runs, [&] { build_vp_tree(set.points, a.leaf, true); });
  const double kd_ms = median_host_ms(runs, [&] { build_kd_tree(set.points, a.leaf); });
  const KdTree kd = build_kd_tree(set.points, a.leaf);
  const VpTree vp = build_vp_tree(set.points, a.leaf);
  add("vp-build", "host", "1", vp_one, -1, -1, -1, "height " + std::to_string(vp.height));
  add("vp-build", "host", threads, vp_all, -1, -1, -1,
      "speedup " + cell(vp_one / std::max(vp_all, 1e-9), 1));
  add("kd-build", "library", "", kd_ms, -1, -1, -1, "height " + std::to_string(kd.height));
  std::cerr << "  " << set.name << ": builds done\n";
  // Queries: the points themselves.
  auto measure = [&](const std::string& task, double build_ms, const std::string& note,
                     const std::function<void(const QueryOptions&)>& query) {
    std::vector<double> wall, kernel, transfer;
    Variant chosen = a.variant;
    for (std::size_t r = 0; r < runs.total(); ++r) {
      Profile p;
      QueryOptions o;
      o.variant = a.variant;
      o.profile = &p;
      o.chosen = &chosen;
      const double ms = host_ms([&] { query(o); });
      if (!runs.timed(r)) continue;
      wall.push_back(ms);
      kernel.push_back(p.milliseconds("traverse"));
      transfer.push_back(p.milliseconds("upload") + p.milliseconds("download"));
    }
    add(task, to_string(chosen), "", build_ms, median(wall), median(kernel), median(transfer),
        note);
    std::cerr << "  " << set.name << ": " << task << " done\n";
  };
  const int k = int(std::min<std::size_t>(std::size_t(a.k), std::max<std::size_t>(n, 1)));
  measure("knn-kd", kd_ms, "k " + std::to_string(k),
          [&](const QueryOptions& o) { knn(rt, kd, set.points, k, o); });
  measure("knn-vp", vp_all, "k " + std::to_string(k),
          [&](const QueryOptions& o) { knn(rt, vp, set.points, k, o); });
  const double radius = radius_for(rt, kd, set.points, a.neighbours);
  const auto counts = correlation_counts(rt, kd, set.points, radius);
  const double mean = std::accumulate(counts.begin(), counts.end(), 0.0) / double(n);
  measure("correlate", kd_ms, "r " + general(radius) + ", mean " + cell(mean, 1),
          [&](const QueryOptions& o) { correlation_counts(rt, kd, set.points, radius, o); });
  dump.add(set.name, set.points, radius, k, &counts);
}

void run_points(Session& session, const PointsArgs& a) {
  if (a.k < 1 || a.k > max_knn_k) throw InputError("-k must be in 1.." + std::to_string(max_knn_k));
  if (!(a.neighbours >= 1)) throw InputError("--neighbours must be >= 1");
  std::vector<PointSetCase> sets;
  for (const auto& file : a.files) {
    PointSetCase set{set_name(file), read_points(file, a.format)};
    if (set.points.n < 2) throw InputError(file + ": fewer than 2 points to measure");
    sets.push_back(std::move(set));
  }
  if (a.uniform > 0)
    sets.push_back({"uniform_" + std::to_string(a.uniform), uniform_points(a.uniform, 2)});
  Runtime& rt = session.runtime;
  std::cout << "# " << rt.description().summary() << "\n# host threads " << host_threads()
            << "; leaf size " << a.leaf << "\n";
  Table rows({"set", "n", "task", "variant", "threads", "build_ms", "query_ms", "kernel_ms",
              "transfer_ms", "total_ms", "note"});
  PointsDump dump(a.dump_dir);
  for (const auto& set : sets) run_set(rt, a, set, rows, dump);
  session.report({&rows});
}

void add_options(CLI::App* suite, PointsArgs& o) {
  suite->add_option("--points", o.files,
                    "point file (text 'n d', .xyz rows, .npy (n, d)); may be repeated");
  cli::add_enum_option(suite, "--input-format", o.format,
                       "format of the point files (auto: by extension)");
  add_setting(suite, "--uniform", o.uniform, "also uniform points in the unit cube (0: none)");
  add_point_query_options(suite, o);
  cli::add_enum_option(suite, "--variant", o.variant, "traversal variant of the queries");
}

TREEFIX_BENCH("points", "vp-tree build (1 vs all host threads), kNN and correlation on point files",
              run_points, add_options);

}  // namespace
}  // namespace treefix::bench
