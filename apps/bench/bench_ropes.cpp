// treefix-bench ropes: the rope-stack traversals (Barnes-Hut, correlation, kNN on kd- and
// vp-trees) in every variant, sorted and unsorted, against a multi-threaded CPU run of the same
// traversal on the same host. Reports, as the paper's tables 1 and 2 do, the average nodes
// visited per point and the work expansion of lockstep; timings are OpenCL profiling events
// (traversal kernel and transfers apart), medians over repeats after one warm-up run.
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
#include "treefix/core/runtime.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix::bench {
namespace {

struct RopesArgs {
  CommonOptions common{"", "", 5, 1};
  std::size_t bodies = 1000000, points = 200000;
  int k = 8, cpu_repeats = 3, leaf = 8;
  unsigned threads = 0;
  double theta = 0.5, neighbours = 16;
  std::string apps = "nbody,correlate,knn-kd,knn-vp";
  std::string dump_dir;
};

Table make_table() {
  return Table({"app", "n", "variant", "sorted", "kernel_ms", "transfer_ms", "visits_per_point",
                "work_expansion", "cpu_ms", "speedup_vs_cpu"});
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs `gpu(profile, stats)` per variant and sort mode, and `cpu(sorted)` on the host threads.
template <class Gpu, class Cpu>
void measure(const std::string& app, std::size_t n, const RopesArgs& a, Gpu gpu, Cpu cpu,
             Table& rows) {
  for (bool sorted : {true, false}) {
    std::vector<double> cpu_times;
    for (int r = 0; r < a.cpu_repeats; ++r) {
      auto t0 = std::chrono::steady_clock::now();
      cpu(sorted);
      cpu_times.push_back(1e3 * seconds_since(t0));
    }
    double cpu_ms = median(cpu_times);
    for (Variant v : {Variant::lockstep, Variant::independent, Variant::recursive}) {
      TraversalStats stats;
      gpu(v, sorted, nullptr, &stats);  // statistics (and the kernel build: the first warm-up)
      std::vector<double> kernel, transfer;
      const Runs runs = a.common.runs();
      for (std::size_t r = 1; r < runs.total(); ++r) {
        Profile p;
        gpu(v, sorted, &p, nullptr);
        if (!runs.timed(r)) continue;
        kernel.push_back(p.milliseconds("traverse"));
        transfer.push_back(p.milliseconds("upload") + p.milliseconds("download"));
      }
      const double kernel_ms = median(kernel);
      rows.add({app, std::to_string(n), to_string(v), sorted ? "1" : "0", cell(kernel_ms),
                cell(median(transfer)), cell(stats.mean_visits(), 1), cell(stats.work_expansion()),
                cell(cpu_ms), cell(cpu_ms / kernel_ms, 2)});
      std::cerr << "  done " << app << " " << to_string(v) << (sorted ? " sorted" : "") << "\n";
    }
  }
}

// --dump-dir: the query points, radius, k and our correlation counts for bench/ckdtree_peer.py.
void dump_points(Runtime& rt, const RopesArgs& a, const KdTree& kd, const PointSet& points,
                 double radius) {
  if (a.dump_dir.empty()) return;
  const auto counts = correlation_counts(rt, kd, points, radius);
  PointsDump(a.dump_dir)
      .add("ropes_uniform_" + std::to_string(points.n), points, radius, a.k, &counts);
}

void run_ropes(const RopesArgs& a) {
  Runtime rt(a.common.device);
  const RunInfo info = RunInfo::of(rt);
  unsigned threads = a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  std::cout << info.header() << "\n# " << rt.description().summary()
            << "\n# CPU baseline: " << threads << " threads\n";
  Table rows = make_table();
  auto wants = [&](const char* app) {
    return ("," + a.apps + ",").find(std::string(",") + app + ",") != std::string::npos;
  };

  if (wants("nbody") && a.bodies > 0) {
    auto bodies = generate::plummer(a.bodies, 1);
    auto t0 = std::chrono::steady_clock::now();
    Octree tree = build_octree(bodies.position, bodies.mass, a.leaf);
    std::printf(
        "# nbody: %zu Plummer bodies, octree of %zu nodes, height %d, built in %.1f ms (host)\n",
        a.bodies, tree.nodes(), tree.height, 1e3 * seconds_since(t0));
    GravityOptions o;
    o.theta = a.theta;
    o.leaf_size = a.leaf;
    // accuracy on a sample of bodies against the direct sum
    {
      o.variant = Variant::independent;
      auto acc = accelerations(rt, tree, o);
      double err = 0, norm = 0;
      const std::size_t samples = std::min<std::size_t>(256, a.bodies);
      for (std::size_t s = 0; s < samples; ++s) {
        std::size_t i = s * (a.bodies / samples);
        double ex[3] = {0, 0, 0};
        for (std::size_t j = 0; j < a.bodies; ++j) {
          if (j == i) continue;
          double dx[3], r2 = o.eps * o.eps;
          for (int k = 0; k < 3; ++k) {
            dx[k] = double(bodies.position.at(j, k)) - bodies.position.at(i, k);
            r2 += dx[k] * dx[k];
          }
          double w = bodies.mass[j] / (r2 * std::sqrt(r2));
          for (int k = 0; k < 3; ++k) ex[k] += w * dx[k];
        }
        for (int k = 0; k < 3; ++k) {
          err += (acc[3 * i + k] - ex[k]) * (acc[3 * i + k] - ex[k]);
          norm += ex[k] * ex[k];
        }
      }
      std::printf("# nbody: theta %.2f, relative RMS error vs direct sum on %zu bodies: %.2e\n",
                  a.theta, samples, std::sqrt(err / norm));
    }
    measure(
        "nbody", a.bodies, a,
        [&](Variant v, bool sorted, Profile* p, TraversalStats* s) {
          GravityOptions g = o;
          g.variant = v;
          g.sort = sorted ? SortMode::on : SortMode::off;
          g.profile = p;
          g.stats = s;
          accelerations(rt, tree, g);
        },
        [&](bool) { reference::accelerations_tree(tree, a.theta, o.eps, threads); }, rows);
  }

  if ((wants("correlate") || wants("knn-kd") || wants("knn-vp")) && a.points > 0) {
    PointSet points = uniform_points(a.points, 2);
    PointSet sorted_points = points.permuted(morton_order(points));
    // radius holding `neighbours` points on average in the unit cube
    double radius = std::cbrt(3 * a.neighbours / (4 * 3.14159265358979 * double(a.points)));
    auto t0 = std::chrono::steady_clock::now();
    KdTree kd = build_kd_tree(points, a.leaf);
    double kd_ms = 1e3 * seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    VpTree vp = build_vp_tree(points, a.leaf);
    double vp_ms = 1e3 * seconds_since(t0);
    std::printf(
        "# points: %zu uniform in the unit cube; kd-tree height %d (%.1f ms), vp-tree height %d "
        "(%.1f ms); radius %.5f; k %d\n",
        a.points, kd.height, kd_ms, vp.height, vp_ms, radius, a.k);
    dump_points(rt, a, kd, points, radius);
    auto options = [](Variant v, bool sorted, Profile* p, TraversalStats* s) {
      QueryOptions q;
      q.variant = v;
      q.sort = sorted ? SortMode::on : SortMode::off;
      q.profile = p;
      q.stats = s;
      return q;
    };
    if (wants("correlate"))
      measure(
          "correlate", a.points, a,
          [&](Variant v, bool sorted, Profile* p, TraversalStats* s) {
            correlation_counts(rt, kd, points, radius, options(v, sorted, p, s));
          },
          [&](bool sorted) {
            reference::correlation_tree(kd, sorted ? sorted_points : points, radius, threads);
          },
          rows);
    if (wants("knn-kd"))
      measure(
          "knn-kd", a.points, a,
          [&](Variant v, bool sorted, Profile* p, TraversalStats* s) {
            knn(rt, kd, points, a.k, options(v, sorted, p, s));
          },
          [&](bool sorted) {
            reference::knn_tree(kd, sorted ? sorted_points : points, a.k, threads);
          },
          rows);
    if (wants("knn-vp"))
      measure(
          "knn-vp", a.points, a,
          [&](Variant v, bool sorted, Profile* p, TraversalStats* s) {
            knn(rt, vp, points, a.k, options(v, sorted, p, s));
          },
          [&](bool sorted) {
            reference::knn_tree(vp, sorted ? sorted_points : points, a.k, threads);
          },
          rows);
  }

  rows.print(std::cout);
  write_csv(a.common.csv, info, {&rows});
}

void setup_ropes(CLI::App& app) {
  auto a = std::make_shared<RopesArgs>();
  auto* c =
      add_suite(app, "ropes", "rope-stack traversals: Barnes-Hut, correlation, kNN", a, run_ropes);
  c->add_option("--bodies", a->bodies, "Plummer bodies for Barnes-Hut (default 1000000)");
  c->add_option("--points", a->points, "uniform points for correlation and kNN (default 200000)");
  c->add_option("--apps", a->apps, "comma list of nbody,correlate,knn-kd,knn-vp");
  c->add_option("-k", a->k, "neighbours for kNN (default 8)");
  c->add_option("--theta", a->theta, "Barnes-Hut opening angle (default 0.5)");
  c->add_option("--neighbours", a->neighbours,
                "mean points within the correlation radius (default 16)");
  c->add_option("--leaf", a->leaf, "tree leaf size (default 8)");
  c->add_option("--cpu-repeats", a->cpu_repeats, "timed CPU runs (default 3)");
  c->add_option("--threads", a->threads, "CPU threads (default: all cores)");
  c->add_option("--dump-dir", a->dump_dir,
                "write the points, radius and counts here for bench/ckdtree_peer.py");
}

TREEFIX_BENCH("ropes", setup_ropes);

}  // namespace
}  // namespace treefix::bench
