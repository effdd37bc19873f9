// treefix-bench ropes: the rope-stack traversals of Goldfarb, Jo and Kulkarni's evaluation
// (Barnes-Hut, point correlation, kNN, NN, and NN on a vantage-point tree) in every variant,
// sorted and unsorted, against a multi-threaded CPU run of the same traversal on the same host.
// Reports, as the paper's tables 1 and 2 do, the average nodes visited per point and the work
// expansion of lockstep (per warp, mean and standard deviation); timings are OpenCL profiling
// events (traversal kernel and transfers apart), medians over repeats after one warm-up run.
//   apps         nbody (BH), correlate (PC), knn-kd (kNN, -k neighbours), nn (k = 1 on the
//                kd-tree), nn-vp (k = 1 on the vp-tree: the paper's VP), knn-vp (-k on it)
//   --body-sets  plummer (the paper's Plummer input), random (its Random: equal masses, uniform
//                positions and velocities)
//   --displaced  fractions: Barnes-Hut on each body set in Morton order with that fraction of
//                positions moved elsewhere, run in that order (the library does not sort), lockstep
//                and independent: where the automatic variant's sampled sortedness test
//                (treefix/spatial/ropes.hpp, neighbour_spread) must draw its line
// Every row also says what the automatic variant chose for those items on this device
// (auto_chose) and the sampled spread ratio of the order they ran in (spread_ratio: neighbours'
// spread over the spread anywhere; sorted at 0.1 or below).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

#include "bench.hpp"
#include "point_sets.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix::bench {
namespace {

struct RopesArgs : SpatialWorkload {
  RopesArgs() {
    points = 200000;
    neighbours = 16;
    cpu_repeats = 3;
  }
  CommonOptions common{"", "", 5, 1};
  std::string apps = "nbody,correlate,knn-kd,nn,nn-vp,knn-vp";
  std::string body_sets = "plummer";
  std::vector<double> displaced;  // fractions for the Barnes-Hut sortedness sweep
  int dims = 3;                   // dimensions of the query points (correlation, kNN)
  std::size_t clusters = 0;       // 0: uniform points; else Gaussian clusters (point_sets.hpp)
};

// Work expansion per warp (lockstep_width consecutive items, as the kernels group them): the
// nodes the warp's lanes were carried through over the nodes they needed. Lockstep: the group's
// pops (group_steps). Independent and recursive: every lane runs as long as the warp's longest
// traversal on SIMT hardware, so width x the longest over the sum. Mean and standard deviation
// over the warps.
std::pair<double, double> warp_expansion(const TraversalStats& stats, Variant variant,
                                         std::size_t width) {
  std::vector<double> per_warp;
  for (std::size_t first = 0; first < stats.visits.size(); first += width) {
    const std::size_t last = std::min(stats.visits.size(), first + width);
    double needed = 0, carried = 0, longest = 0;
    for (std::size_t i = first; i < last; ++i) {
      needed += stats.visits[i];
      carried += stats.group_steps[i];
      longest = std::max<double>(longest, stats.visits[i]);
    }
    if (variant != Variant::lockstep) carried = longest * double(last - first);
    if (needed > 0) per_warp.push_back(carried / needed);
  }
  if (per_warp.empty()) return {1.0, 0.0};
  double mean = 0, square = 0;
  for (double e : per_warp) mean += e;
  mean /= double(per_warp.size());
  for (double e : per_warp) square += (e - mean) * (e - mean);
  return {mean, std::sqrt(square / double(per_warp.size()))};
}

Table make_table() {
  return Table({"app", "n", "variant", "sorted", "kernel_ms", "transfer_ms", "visits_per_point",
                "work_expansion", "cpu_ms", "speedup_vs_cpu", "threads", "warp_expansion_mean",
                "warp_expansion_sd", "point_set", "spread_ratio", "auto_chose"});
}

// What one measurement runs: the sort modes (true: the library sorts the items), the variants,
// and whether the CPU baseline runs.
struct Plan {
  std::vector<bool> sort_modes = {true, false};
  std::vector<Variant> variants = {Variant::lockstep, Variant::independent, Variant::recursive};
  bool cpu = true;
};

// Runs `gpu(variant, sorted, profile, stats, chosen)` per variant and sort mode, and
// `cpu(sorted)` on the host threads; `spread(sorted)` is the sampled spread ratio of the order the
// items run in.
template <class Gpu, class Cpu, class Spread>
void measure(Runtime& rt, const std::string& app, std::size_t n, const RopesArgs& a,
             const std::string& point_set, Gpu gpu, Cpu cpu, Spread spread, Table& rows,
             const Plan& plan = {}) {
  const std::size_t width = lockstep_width(rt);
  for (bool sorted : plan.sort_modes) {
    std::vector<double> cpu_times;
    for (int r = 0; plan.cpu && r < a.cpu_repeats; ++r)
      cpu_times.push_back(host_ms([&] { cpu(sorted); }));
    const double cpu_ms = plan.cpu ? median(cpu_times) : 0;
    Variant chosen = Variant::automatic;
    gpu(Variant::automatic, sorted, nullptr, nullptr, &chosen);
    const double ratio = spread(sorted);
    for (Variant v : plan.variants) {
      TraversalStats stats;
      gpu(v, sorted, nullptr, &stats, nullptr);  // statistics (and the build: the first warm-up)
      std::vector<double> kernel, transfer;
      const Runs runs = a.common.runs();
      for (std::size_t r = 1; r < runs.total(); ++r) {
        Profile p;
        gpu(v, sorted, &p, nullptr, nullptr);
        if (!runs.timed(r)) continue;
        kernel.push_back(p.milliseconds("traverse"));
        transfer.push_back(p.milliseconds("upload") + p.milliseconds("download"));
      }
      const double kernel_ms = median(kernel);
      const auto [warp_mean, warp_sd] = warp_expansion(stats, v, width);
      rows.add({app, std::to_string(n), to_string(v), sorted ? "1" : "0", cell(kernel_ms),
                cell(median(transfer)), cell(stats.mean_visits(), 1), cell(stats.work_expansion()),
                plan.cpu ? cell(cpu_ms) : "", plan.cpu ? cell(cpu_ms / kernel_ms, 2) : "",
                std::to_string(thread_count(a.threads)), cell(warp_mean), cell(warp_sd), point_set,
                cell(ratio, 4), to_string(chosen)});
      std::cerr << "  done " << app << " " << to_string(v) << (sorted ? " sorted" : "") << "\n";
    }
  }
}

// --dump-dir: the query points, radius, k and our correlation counts for bench/ckdtree_peer.py.
void dump_points(Runtime& rt, const RopesArgs& a, const KdTree& kd, const PointSet& points,
                 const std::string& point_set, double radius) {
  if (a.dump_dir.empty()) return;
  const auto counts = correlation_counts(rt, kd, points, radius);
  PointsDump(a.dump_dir)
      .add("ropes_" + point_set + "_" + std::to_string(points.n), points, radius, a.k, &counts);
}

// The sampled spread ratio of items in this order (lockstep groups of the device's width).
double spread_ratio(Runtime& rt, const PointSet& items) {
  return neighbour_spread(items, lockstep_width(rt)).ratio();
}

// Barnes-Hut on one body set: sorted by the library and as generated; then, per --displaced
// fraction, in Morton order with that fraction moved, run in that order.
void measure_bodies(Runtime& rt, const RopesArgs& a, const std::string& set, const Bodies& bodies,
                    unsigned threads, Table& rows) {
  auto t0 = std::chrono::steady_clock::now();
  Octree tree = build_octree(bodies.position, bodies.mass, a.leaf);
  std::printf("# nbody: %zu %s bodies, octree of %zu nodes, height %d, built in %.1f ms (host)\n",
              bodies.size(), set.c_str(), tree.nodes(), tree.height, ms_since(t0));
  GravityOptions o;
  o.theta = a.theta;
  o.leaf_size = a.leaf;
  {  // accuracy on a sample of bodies against the direct sum
    o.variant = Variant::independent;
    const double error = sampled_error(bodies, accelerations(rt, tree, o), o.eps);
    std::printf("# nbody: theta %.2f, relative RMS error vs direct sum on %zu bodies: %.2e\n",
                a.theta, std::min<std::size_t>(256, bodies.size()), error);
  }
  auto gpu_on = [&](const Octree& octree) {
    return
        [&rt, &octree, o](Variant v, bool sorted, Profile* p, TraversalStats* s, Variant* chosen) {
          GravityOptions g = o;
          g.variant = v;
          g.sort = sorted ? SortMode::on : SortMode::off;
          g.profile = p;
          g.stats = s;
          g.chosen = chosen;
          accelerations(rt, octree, g);
        };
  };
  const PointSet in_tree_order = bodies.position.permuted(morton_order(bodies.position));
  measure(
      rt, "nbody", bodies.size(), a, set + "-3d", gpu_on(tree),
      [&](bool) { reference::accelerations_tree(tree, a.theta, o.eps, threads); },
      [&](bool sorted) { return spread_ratio(rt, sorted ? in_tree_order : bodies.position); },
      rows);
  for (double displaced : a.displaced) {
    const Bodies moved = partly_sorted(bodies, displaced, 7);
    const Octree moved_tree = build_octree(moved.position, moved.mass, a.leaf);
    char name[64];
    std::snprintf(name, sizeof name, "%s-3d-morton-displaced-%g", set.c_str(), displaced);
    Plan plan;
    plan.sort_modes = {false};
    plan.variants = {Variant::lockstep, Variant::independent};
    plan.cpu = false;
    measure(
        rt, "nbody", bodies.size(), a, name, gpu_on(moved_tree), [](bool) {},
        [&](bool) { return spread_ratio(rt, moved.position); }, rows, plan);
  }
}

void run_ropes(Session& session, const RopesArgs& a) {
  Runtime& rt = session.runtime;
  const unsigned threads = thread_count(a.threads);
  std::cout << "# " << rt.description().summary() << "\n# CPU baseline: " << threads
            << " threads\n";
  Table rows = make_table();
  auto wants = [&](const char* app) { return listed(a.apps, app); };
  for (const auto& set : split(a.body_sets))
    if (set != "plummer" && set != "random")
      throw InputError("--body-sets: plummer or random, not '" + set + "'");

  if (wants("nbody") && a.bodies > 0)
    for (const auto& set : split(a.body_sets))
      measure_bodies(rt, a, set,
                     set == "plummer" ? generate::plummer(a.bodies, 1) : random_bodies(a.bodies, 1),
                     threads, rows);

  const bool queries =
      wants("correlate") || wants("knn-kd") || wants("nn") || wants("nn-vp") || wants("knn-vp");
  if (queries && a.points > 0) {
    if (a.dims < 1 || a.dims > 16) throw InputError("--dims must be 1..16");
    PointSet points = a.clusters ? clustered_points(a.points, a.dims, a.clusters, 2)
                                 : uniform_points(a.points, 2, a.dims);
    const std::string point_set =
        (a.clusters ? "clustered-" : "uniform-") + std::to_string(a.dims) + "d";
    PointSet sorted_points = points.permuted(morton_order(points));
    // radius holding `neighbours` points on average: in the unit cube, the ball's volume; other
    // sets, measured on a sample
    double radius = a.dims == 3 && a.clusters == 0
                        ? std::cbrt(3 * a.neighbours / (4 * 3.14159265358979 * double(a.points)))
                        : radius_for_neighbours(points, a.neighbours);
    auto t0 = std::chrono::steady_clock::now();
    KdTree kd = build_kd_tree(points, a.leaf);
    double kd_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    VpTree vp = build_vp_tree(points, a.leaf);
    double vp_ms = ms_since(t0);
    std::printf(
        "# points: %zu %s; kd-tree height %d (%.1f ms), vp-tree height %d "
        "(%.1f ms); radius %.5f; k %d\n",
        a.points, point_set.c_str(), kd.height, kd_ms, vp.height, vp_ms, radius, a.k);
    dump_points(rt, a, kd, points, point_set, radius);
    auto options = [](Variant v, bool sorted, Profile* p, TraversalStats* s, Variant* chosen) {
      QueryOptions q;
      q.variant = v;
      q.sort = sorted ? SortMode::on : SortMode::off;
      q.profile = p;
      q.stats = s;
      q.chosen = chosen;
      return q;
    };
    const double sorted_ratio = spread_ratio(rt, sorted_points);
    const double unsorted_ratio = spread_ratio(rt, points);
    auto spread = [&](bool sorted) { return sorted ? sorted_ratio : unsorted_ratio; };
    if (wants("correlate"))
      measure(
          rt, "correlate", a.points, a, point_set,
          [&](Variant v, bool sorted, Profile* p, TraversalStats* s, Variant* chosen) {
            correlation_counts(rt, kd, points, radius, options(v, sorted, p, s, chosen));
          },
          [&](bool sorted) {
            reference::correlation_tree(kd, sorted ? sorted_points : points, radius, threads);
          },
          spread, rows);
    // k nearest neighbours on either tree.
    auto measure_knn = [&](const char* app, const auto& tree, int k) {
      measure(
          rt, app, a.points, a, point_set,
          [&](Variant v, bool sorted, Profile* p, TraversalStats* s, Variant* chosen) {
            knn(rt, tree, points, k, options(v, sorted, p, s, chosen));
          },
          [&](bool sorted) {
            reference::knn_tree(tree, sorted ? sorted_points : points, k, threads);
          },
          spread, rows);
    };
    if (wants("knn-kd")) measure_knn("knn-kd", kd, a.k);
    if (wants("nn")) measure_knn("nn", kd, 1);
    if (wants("nn-vp")) measure_knn("nn-vp", vp, 1);
    if (wants("knn-vp")) measure_knn("knn-vp", vp, a.k);
  }

  session.report({&rows});
}

void add_options(CLI::App* suite, RopesArgs& o) {
  add_spatial_options(suite, o);
  add_selection(suite, "--apps", o.apps);
  add_setting(suite, "--dims", o.dims, "dimensions of the query points (correlate, knn; 1..16)");
  add_setting(suite, "--clusters", o.clusters,
              "query points in this many Gaussian clusters (0: uniform)");
  add_setting(suite, "--body-sets", o.body_sets, "Barnes-Hut bodies: plummer, random or both");
  suite
      ->add_option("--displaced", o.displaced,
                   "Barnes-Hut in Morton order with these fractions of positions moved")
      ->delimiter(',');
}

TREEFIX_BENCH("ropes", "rope-stack traversals: Barnes-Hut, correlation, kNN, NN", run_ropes,
              add_options);

}  // namespace
}  // namespace treefix::bench
