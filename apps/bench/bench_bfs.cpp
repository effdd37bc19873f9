// treefix-bench bfs: BFS traversal rate on Kronecker and grid graphs, and the level-synchronous
// treefix against the sequential CPU reference on stars, caterpillars and BFS spanning trees.
//
// Real graphs (--graph FILE, repeatable) get the same traversal rows as the generated ones;
// --small-frontiers 0,512,... repeats the traversal part with other single-group thresholds.
//
// Traversal rate follows Graph500: edges/s = (undirected edges of the reached component) / time,
// the component's edges being half the arcs of its vertices. Two times are reported: `kernel`,
// the sum of the profiled kernels, and `wall`, host time of the whole search (kernels, the
// launches, and one read of the search state per batch of launches), each a median over
// `repeats` searches from different sources after `warmup` searches.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>

#include "bench.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/levels.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::bench {
namespace {

struct BfsBenchOptions : GraphInputs {
  CommonOptions common{"", "", 5, 1};
  std::size_t tree_vertices = std::size_t{1} << 22;
  bool skip_trees = false;
  std::string small_frontiers;  // bfs_small_frontier knob values to compare ("" = default)
  std::string group_counts;     // BfsOptions::groups values to compare ("" = default)
};

using Clock = std::chrono::steady_clock;

// One graph's traversal rows: the graph on the device, its sources, and the sequential BFS from
// each source (computed once, shared by every variant).
struct TraversalInput {
  std::string name;
  const Csr* graph;
  DeviceGraph device;
  std::vector<vertex_t> sources;
  std::vector<std::vector<vertex_t>> reference_depth;
  std::vector<double> cpu_ms;
};

TraversalInput traversal_input(Runtime& rt, const std::string& name, const Csr& g, Runs runs) {
  TraversalInput in{name, &g, DeviceGraph(rt, g), {}, {}, {}};
  std::mt19937_64 rng(42);
  while (in.sources.size() < runs.total()) {  // Graph500: sources with at least one edge
    vertex_t s = static_cast<vertex_t>(rng() % g.vertices());
    if (g.degree(s) > 0) in.sources.push_back(s);
  }
  for (std::size_t i = runs.warmup; i < in.sources.size(); ++i) {
    auto cpu_start = Clock::now();
    in.reference_depth.push_back(bfs_reference(g, in.sources[i]).depth);
    in.cpu_ms.push_back(ms_since(cpu_start));
  }
  return in;
}

struct TraversalVariant {
  bool beamer;
  std::size_t small, groups;  // bfs_small_frontier knob, BfsOptions::groups (0: default)
};

void bench_traversal(Runtime& rt, const TraversalInput& in, Runs runs, TraversalVariant variant,
                     Table& table) {
  const Csr& g = *in.graph;
  const std::size_t saved_small = rt.tuning().value("bfs_small_frontier");
  rt.tuning().set("bfs_small_frontier", variant.small);
  std::vector<double> kernel_ms, wall_ms, rate;
  std::size_t levels = 0, launches = 0, bottom_up = 0;
  for (std::size_t i = 0; i < in.sources.size(); ++i) {
    Profile profile;
    BfsOptions options;
    options.profile = &profile;
    options.direction_optimizing = variant.beamer;
    options.groups = variant.groups;
    auto start = Clock::now();
    DeviceBfs r = bfs(rt, in.device, {in.sources[i]}, options);
    rt.queue().finish();
    double wall = ms_since(start);
    if (!runs.timed(i)) continue;  // warm-up: program build and first-touch
    // edges of the reached component, from the host CSR and the device depths
    auto depth = r.depth.download(rt);
    if (depth != in.reference_depth[i - runs.warmup])
      throw Error("bfs bench: device depths differ from the reference on " + in.name);
    double arcs = 0;
    for (std::size_t v = 0; v < depth.size(); ++v)
      if (depth[v] >= 0) arcs += static_cast<double>(g.degree(static_cast<vertex_t>(v)));
    kernel_ms.push_back(profile.milliseconds("bfs"));
    wall_ms.push_back(wall);
    rate.push_back(arcs / 2 / (wall * 1e-3));
    levels = r.levels();
    launches = r.kernel_launches;
    bottom_up = r.bottom_up_levels;
  }
  rt.tuning().set("bfs_small_frontier", saved_small);
  table.add({in.name, variant.beamer ? "direction-optimising" : "top-down",
             std::to_string(variant.small), variant.groups ? std::to_string(variant.groups) : "all",
             std::to_string(g.vertices()), std::to_string(g.edges()), std::to_string(levels),
             std::to_string(bottom_up), std::to_string(launches), cell(median(kernel_ms)),
             cell(median(wall_ms)), cell(median(rate) * 1e-9, 4), cell(median(in.cpu_ms))});
  std::cerr << "  done " << in.name << (variant.beamer ? " (direction-optimising)" : "") << "\n";
}

// Kernels enqueued, transfers excluded.
std::size_t kernel_launches(const Profile& profile) {
  std::size_t count = 0;
  for (auto& phase : profile.phases())
    if (phase != "upload" && phase != "download") count += profile.launches(phase);
  return count;
}

template <class T>
void check(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  for (std::size_t v = 0; v < want.size(); ++v)
    if (std::abs(static_cast<double>(got[v]) - static_cast<double>(want[v])) >
        1e-3 * (1 + std::abs(static_cast<double>(want[v]))))
      throw Error("bench: wrong result of " + what + " at vertex " + std::to_string(v) + ": " +
                  std::to_string(got[v]) + " instead of " + std::to_string(want[v]));
}

template <class T>
void bench_tree(Runtime& rt, const std::string& name, const ParentArray& parent, Runs runs,
                Table& table) {
  const std::size_t n = parent.size();
  auto build_start = Clock::now();
  LevelStructure levels(rt, parent);
  rt.queue().finish();
  double build_ms = ms_since(build_start);
  auto host_build_start = Clock::now();
  LevelStructure host_built(rt, parent, nullptr, LevelStructure::Build::host);
  rt.queue().finish();
  double host_build_ms = ms_since(host_build_start);
  std::mt19937_64 rng(7);
  std::vector<T> w(n);
  // Small integers, so that float sums are exact and every algorithm can be checked exactly
  // (the Euler method's prefix over the whole tour loses float precision on big trees).
  for (auto& x : w) x = static_cast<T>(rng() % 4);
  auto dw = DeviceArray<T>::upload(rt, w);
  DeviceArray<T> dr(rt, n);
  auto order = top_down_order(parent);
  DeviceTree euler_tree(rt, parent);
  for (Op op : {Op::sum, Op::max}) {
    for (int leaf = 0; leaf < 2; ++leaf) {
      std::vector<double> kernel_ms, wall_ms, cpu_ms, euler_kernel_ms, euler_wall_ms;
      std::size_t euler_launches = 0;
      LevelsStats stats;
      for (std::size_t i = 0; i < runs.total(); ++i) {
        Profile profile;
        LevelsStats run;
        auto start = Clock::now();
        if (leaf)
          levels_leaffix(rt, levels, dw, dr, op, false, &profile, &run);
        else
          levels_rootfix(rt, levels, dw, dr, op, false, &profile, &run);
        rt.queue().finish();
        double wall = ms_since(start);
        auto cpu_start = Clock::now();
        auto ref = leaf ? reference::leaffix(parent, order, w, op, false)
                        : reference::rootfix(parent, order, w, op, false);
        double cpu = ms_since(cpu_start);
        if (i == 0) check(dr.download(rt), ref, name + " levels");
        if (has_inverse(op)) {  // the Euler-tour method, for the operators it supports
          Profile euler_profile;
          TreefixOptions options;
          options.op = op;
          options.algorithm = Algorithm::euler;
          options.profile = &euler_profile;
          auto euler_start = Clock::now();
          if (leaf)
            leaffix(rt, euler_tree, dw, dr, options);
          else
            rootfix(rt, euler_tree, dw, dr, options);
          rt.queue().finish();
          if (i == 0) check(dr.download(rt), ref, name + " euler");
          if (runs.timed(i)) {
            euler_wall_ms.push_back(ms_since(euler_start));
            euler_kernel_ms.push_back(euler_profile.total_milliseconds() -
                                      euler_profile.milliseconds("upload") -
                                      euler_profile.milliseconds("download"));
            euler_launches = kernel_launches(euler_profile);
          }
        }
        if (!runs.timed(i)) continue;  // warm-up

        kernel_ms.push_back(profile.milliseconds("levels"));
        wall_ms.push_back(wall);
        cpu_ms.push_back(cpu);
        stats = run;
      }
      const bool euler = has_inverse(op);
      const bool pick_levels = levels_preferred(levels.sweep_cost_in_launches(), n, op);
      const double auto_wall = pick_levels ? median(wall_ms)
                               : euler     ? median(euler_wall_ms)
                                           : median(cpu_ms);
      table.add({name, std::to_string(n), std::to_string(levels.levels()),
                 to_string(leaf ? Fix::leaf : Fix::root), to_string(op),
                 std::to_string(stats.kernel_launches), cell(build_ms), cell(host_build_ms),
                 cell(median(kernel_ms)), cell(median(wall_ms)),
                 euler ? std::to_string(euler_launches) : "-",
                 euler ? cell(median(euler_kernel_ms)) : "-",
                 euler ? cell(median(euler_wall_ms)) : "-",
                 pick_levels ? "levels"
                 : euler     ? "euler"
                             : "sequential",
                 cell(auto_wall), cell(median(cpu_ms))});
    }
  }
  std::cerr << "  done " << name << "\n";
}

void run(Session& session, const BfsBenchOptions& o) {
  Runtime& rt = session.runtime;
  const Runs runs = session.runs;
  std::cout << "# treefix-bench bfs: " << rt.description().summary() << "\n\n";

  Table traversal({"graph", "bfs", "small_frontier", "groups", "vertices", "arcs", "levels",
                   "bottom_up", "launches", "kernel_ms", "wall_ms", "GTEPS(wall)", "cpu_ms"});
  std::cerr << "generating graphs\n";
  std::vector<std::pair<std::string, Csr>> graphs;
  graphs.emplace_back("kronecker-" + std::to_string(o.scale),
                      generate::kronecker(o.scale, o.edge_factor, 1));
  graphs.emplace_back("grid-" + std::to_string(o.grid_side) + "x" + std::to_string(o.grid_side),
                      generate::grid2d(o.grid_side, o.grid_side));
  for (const auto& path : o.graphs) {
    std::cerr << "reading " << path << "\n";
    graphs.emplace_back(path.substr(path.find_last_of('/') + 1), read_graph(path));
  }
  std::vector<std::size_t> smalls, group_counts;
  for (const auto& value : split(o.small_frontiers)) smalls.push_back(std::stoul(value));
  if (smalls.empty()) smalls.push_back(rt.tuning().value("bfs_small_frontier"));
  for (const auto& value : split(o.group_counts)) group_counts.push_back(std::stoul(value));
  if (group_counts.empty()) group_counts.push_back(0);
  for (const auto& [name, g] : graphs) {
    const TraversalInput input = traversal_input(rt, name, g, runs);
    for (std::size_t groups : group_counts)
      for (std::size_t small : smalls)
        for (bool beamer : {false, true})
          bench_traversal(rt, input, runs, {beamer, small, groups}, traversal);
  }
  std::cout << "BFS traversal (median of " << runs.repeats << " sources)\n";
  traversal.print(std::cout);

  Table trees({"tree", "vertices", "levels", "sweep", "op", "levels_launches", "prepare_bfs_ms",
               "prepare_host_ms", "levels_kernel_ms", "levels_wall_ms", "euler_launches",
               "euler_kernel_ms", "euler_wall_ms", "auto_picks", "auto_wall_ms", "sequential_ms"});
  if (!o.skip_trees) {
    const std::size_t n = o.tree_vertices;
    bench_tree<float>(rt, "star", generate::star(n), runs, trees);
    bench_tree<float>(rt, "caterpillar-sqrt",
                      generate::caterpillar(n, static_cast<std::size_t>(std::sqrt(double(n)))),
                      runs, trees);
    bench_tree<float>(rt, "path", generate::path(std::min<std::size_t>(n, 1 << 14)), runs, trees);
    vertex_t hub = 0;  // span the giant component: root the tree at the highest-degree vertex
    const Csr& kron = graphs[0].second;
    const Csr& grid = graphs[1].second;
    for (vertex_t v = 0; v < static_cast<vertex_t>(kron.vertices()); ++v)
      if (kron.degree(v) > kron.degree(hub)) hub = v;
    bench_tree<float>(rt, "bfs-kronecker", generate::bfs_spanning_tree(kron, hub), runs, trees);
    bench_tree<float>(rt, "bfs-grid", generate::bfs_spanning_tree(grid, 0), runs, trees);
    std::cout
        << "\nlevel-synchronous treefix, float (median of " << runs.repeats
        << "; launches per call; auto_picks = levels_preferred(sweep_cost_in_launches, n, op))\n";
    trees.print(std::cout);
  }
  std::cout.flush();
  session.write_csv({&traversal, &trees});
}

void add_options(CLI::App* suite, BfsBenchOptions& o) {
  add_graph_options(suite, o, "traversal rate");
  add_setting(suite, "--tree-vertices", o.tree_vertices, "vertices of the star and caterpillar");
  suite->add_flag("--skip-trees", o.skip_trees, "only the BFS traversal part");
  suite->add_option("--small-frontiers", o.small_frontiers,
                    "comma list of bfs_small_frontier knob values to compare (default: the "
                    "device's)");
  suite->add_option("--groups", o.group_counts,
                    "comma list of work-group counts per level launch to compare (0: enough to "
                    "fill the device, the default)");
}

TREEFIX_BENCH("bfs", "BFS traversal rate (Kronecker, grid) and the levels treefix", run,
              add_options);

}  // namespace
}  // namespace treefix::bench
