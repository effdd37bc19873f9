// treefix-bench rooting: connected components (ECL-CC alone and with Afforest's sampling);
// rooted spanning forests by connectivity + Euler-tour rooting, by path reversal (PR-RST) and by
// BFS trees on high-diameter (grid, strip, path), low-diameter (Kronecker) and real graphs
// (--graph FILE), with the depth of each tree; list ranking
// (Wyllie against the ruling set); rooting an unrooted forest; and the device Euler tour of a
// parent array against the host builder. --downstream feeds each method's rooted tree to rootfix
// (levels and euler) on the same graph: the study Sahu and Donur announce (their trees' depth
// against what a level-synchronous algorithm downstream pays for it).
//
// Times: `wall` is host time around the call with the queue finished (every kernel, the
// Boost.Compute sorts, transfers named in the table, and the host round trips of the iterative
// phases); `kernel` is the sum of our profiled kernels (OpenCL events; the sorts are not in it).
// Inputs are uploaded before timing unless the row says "host in/out". Medians over --repeats
// runs after one warm-up run (the first, which builds the programs, is not counted).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>

#include "bench.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/graph/rooting.hpp"
#include "treefix/graph/spanning_forest.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/treefix/euler_tour.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::bench {
namespace {

struct RootingBenchOptions : GraphInputs {
  CommonOptions common{"", "", 5, 1};
  std::size_t strip_width = 16, path = std::size_t{1} << 20;
  std::size_t list = std::size_t{1} << 25, forest = std::size_t{1} << 24,
              tour = std::size_t{1} << 22;
  bool path_bfs = false, downstream = false;
  std::string parts = "cc,rst,listrank,root,tour";
  std::string cc_samples = "auto,0,1,2";  // connectivity_samples knob values ("auto": default)
  std::string pr_levels = "1";            // pr_levels_per_launch knob values: one pr row each
};

using Clock = std::chrono::steady_clock;

std::string fixed(double x) { return cell(x, 2); }

Table make_table() {
  return Table(
      {"part", "input", "method", "vertices", "edges", "kernel_ms", "wall_ms", "depth", "note"});
}

// Median wall and kernel time of the timed runs of f(profile) after the warm-up runs; `phases`
// receives the median milliseconds of each profiled phase ("connectivity=1.2 listrank=0.8 ...")
// and the number of profiled commands per phase of the last run (rounds of iterative phases).
template <class F>
std::pair<double, double> measure(Runtime& rt, Runs runs, const char* kernel_phases, F&& f,
                                  std::string* phases = nullptr) {
  std::vector<double> wall, kernel;
  std::vector<std::pair<std::string, std::vector<double>>> per_phase;
  std::vector<std::string> last_launches;  // commands per phase in the last run
  for (std::size_t i = 0; i < runs.total(); ++i) {
    Profile profile;
    rt.queue().finish();
    auto start = Clock::now();
    f(profile);
    rt.queue().finish();
    double w = ms_since(start);
    if (!runs.timed(i)) continue;
    wall.push_back(w);
    double k = 0;
    for (auto& phase : profile.phases()) {
      double ms = profile.milliseconds(phase);
      if (std::string(kernel_phases).find("|" + phase + "|") != std::string::npos) k += ms;
      auto it = std::find_if(per_phase.begin(), per_phase.end(),
                             [&](auto& p) { return p.first == phase; });
      if (it == per_phase.end()) it = per_phase.insert(per_phase.end(), {phase, {}});
      it->second.push_back(ms);
    }
    kernel.push_back(k);
    last_launches.clear();
    for (auto& phase : profile.phases())
      last_launches.push_back(phase + "=" + std::to_string(profile.launches(phase)));
  }
  if (phases) {
    phases->clear();
    for (auto& [phase, sample] : per_phase)
      *phases += (phases->empty() ? "" : " ") + phase + "=" + fixed(median(sample));
    *phases += " launches:";
    for (auto& phase : last_launches) *phases += " " + phase;
  }
  return {median(wall), median(kernel)};
}

Csr csr_from_parent(const ParentArray& parent) {
  const std::size_t n = parent.size();
  Csr g;
  g.row_offset.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v)
    if (parent[v] >= 0) {
      ++g.row_offset[v + 1];
      ++g.row_offset[parent[v] + 1];
    }
  for (std::size_t v = 0; v < n; ++v) g.row_offset[v + 1] += g.row_offset[v];
  g.column.resize(g.row_offset[n]);
  std::vector<std::int64_t> fill(g.row_offset.begin(), g.row_offset.end() - 1);
  for (std::size_t v = 0; v < n; ++v)
    if (parent[v] >= 0) {
      g.column[fill[v]++] = parent[v];
      g.column[fill[parent[v]]++] = static_cast<vertex_t>(v);
    }
  return g;
}

// A spanning-forest check (every parent edge is a graph edge, no cycle; the tests check more).
void check_forest(const Csr& g, const ParentArray& parent, const std::string& what) {
  validate_parent_array(parent);
  std::size_t roots = 0;
  for (std::size_t v = 0; v < parent.size(); ++v) {
    if (parent[v] < 0) {
      ++roots;
      continue;
    }
    auto b = g.column.begin() + g.row_offset[v], e = g.column.begin() + g.row_offset[v + 1];
    if (std::find(b, e, parent[v]) == e)
      throw Error("rooting bench: " + what + ": a parent edge is not a graph edge");
  }
  if (roots == 0 && !parent.empty()) throw Error("rooting bench: " + what + ": no root");
}

const char* kKernelPhases = "|connectivity|cc-forest|tour|listrank|parent|check|bfs|path-reversal|";

// A rooted tree fed to rootfix (float, weights 1: every vertex gets its depth + 1, checked) with
// the levels and the euler algorithm: `build` the DeviceTree once (and levels' level structure),
// `kernel` one call's kernels on it, `wall` the host call a user makes (upload, validate, prepare,
// compute, download), medians.
void bench_downstream(Runtime& rt, const std::string& name, const Csr& g, const std::string& method,
                      const ParentArray& parent, const RootingBenchOptions& o, Table& table) {
  const std::size_t n = parent.size();
  const std::vector<float> ones(n, 1.0f);
  std::vector<float> expected(n);
  const auto depth = depths(parent);
  for (std::size_t v = 0; v < n; ++v) expected[v] = float(depth[v] + 1);
  const auto weights = DeviceArray<float>::upload(rt, ones);
  for (Algorithm algorithm : {Algorithm::levels, Algorithm::euler}) {
    TreefixOptions options;
    options.algorithm = algorithm;
    std::vector<float> got;
    const auto [wall, unused] = measure(rt, o.common.runs(), kKernelPhases, [&](Profile&) {
      got = rootfix(rt, parent, ones, options);
    });
    if (got != expected)
      throw Error("rooting bench: rootfix on the " + method + " tree of " + name + " is wrong");
    std::vector<double> build, kernel;
    const Runs runs = o.common.runs();
    for (std::size_t i = 0; i < runs.total(); ++i) {
      std::shared_ptr<DeviceTree> tree;
      const double built = host_ms([&] {
        tree = std::make_shared<DeviceTree>(rt, parent);
        if (algorithm == Algorithm::levels) tree->levels();
        rt.queue().finish();
      });
      DeviceArray<float> result(rt, n);
      Profile profile;
      options.profile = &profile;
      rootfix(rt, *tree, weights, result, options);
      rt.queue().finish();
      options.profile = nullptr;
      if (!runs.timed(i)) continue;
      build.push_back(built);
      kernel.push_back(profile.total_milliseconds());
    }
    table.add({"downstream", name, method + " -> rootfix " + to_string(algorithm),
               std::to_string(n), std::to_string(g.edges() / 2), fixed(median(kernel)), fixed(wall),
               std::to_string(tree_shape(parent).depth),
               "float, accurate; kernel: one call on a prepared tree; wall: the host call; build "
               "(DeviceTree" +
                   std::string(algorithm == Algorithm::levels ? " + level structure" : "") +
                   ") ms: " + fixed(median(build))});
  }
}

void bench_rst(Runtime& rt, const std::string& name, const Csr& g, const RootingBenchOptions& o,
               bool with_bfs, Table& table) {
  struct Variant {
    std::string label;
    RstMethod method;
    ListRankMethod ranking;
    std::size_t pr_levels = 0;  // the pr_levels_per_launch knob (0: the device's)
  };
  std::vector<Variant> variants = {
      {"euler+ruling-set", RstMethod::euler, ListRankMethod::ruling_set},
      {"euler+wyllie", RstMethod::euler, ListRankMethod::wyllie}};
  for (const auto& value : split(o.pr_levels)) {
    const std::size_t levels = std::stoul(value);
    variants.push_back({levels == 1 ? "pr" : "pr, " + value + " levels a launch",
                        RstMethod::path_reversal, ListRankMethod::ruling_set, levels});
  }
  if (with_bfs) variants.push_back({"bfs", RstMethod::bfs, ListRankMethod::ruling_set});
  variants.push_back({"auto", RstMethod::automatic, ListRankMethod::ruling_set});
  std::vector<std::pair<std::string, ParentArray>> downstream_trees;
  for (auto& v : variants) {
    RstOptions options;
    options.method = v.method;
    options.list_rank.method = v.ranking;
    RstMethod chosen = v.method;
    options.chosen = &chosen;
    const Tuning saved = rt.tuning();
    if (v.pr_levels) rt.tuning().set("pr_levels_per_launch", v.pr_levels);
    ParentArray parent;
    std::string phases;
    // BFS on the path: one level per vertex; one run (programs are built by then), no warm-up.
    Runs runs = o.common.runs();
    if (v.method == RstMethod::bfs && name.rfind("path", 0) == 0)
      runs = {0, 1};  // one level per vertex: one run
    auto [wall, kernel] = measure(
        rt, runs, kKernelPhases,
        [&](Profile& profile) {
          options.profile = &profile;
          parent = rooted_spanning_forest(rt, g, options);
        },
        &phases);
    rt.tuning() = saved;
    check_forest(g, parent, name + " " + v.label);
    // Downstream, once per method's tree (list ranking and jump counts do not change it).
    const bool first_of_method =
        &*std::find_if(variants.begin(), variants.end(),
                       [&](const Variant& u) { return u.method == v.method; }) == &v;
    if (o.downstream && first_of_method && v.method != RstMethod::automatic)
      downstream_trees.emplace_back(v.label, parent);
    table.add({"rst", name, v.label, std::to_string(g.vertices()), std::to_string(g.edges() / 2),
               fixed(kernel), fixed(wall), std::to_string(tree_shape(parent).depth),
               (v.method == RstMethod::automatic ? "chose " + std::string(to_string(chosen)) + "; "
                                                 : std::string()) +
                   "host in/out; ms: " + phases});
  }
  for (const auto& [method, parent] : downstream_trees)
    bench_downstream(rt, name, g, method, parent, o, table);
}

// Connected components alone (device graph in, labels on the device), one row per sampling
// setting; every setting's labels must agree, and be consistent along every arc.
void bench_cc(Runtime& rt, const std::string& name, const Csr& g, const RootingBenchOptions& o,
              Table& table) {
  DeviceGraph device(rt, g);
  const Tuning saved = rt.tuning();
  std::vector<vertex_t> first_labels;
  for (const auto& value : split(o.cc_samples)) {
    rt.tuning() = saved;    // "auto": the device's setting, sampling only dense graphs
    if (value != "auto") {  // this many samples, whatever the degree
      rt.tuning().set("connectivity_samples", std::stoul(value));
      rt.tuning().set("connectivity_sample_degree", 0);
    }
    Components cc;
    std::string phases;
    auto [wall, kernel] = measure(
        rt, o.common.runs(), kKernelPhases,
        [&](Profile& profile) { cc = connected_components(rt, device, &profile); }, &phases);
    auto label = cc.label.download(rt);
    if (first_labels.empty()) {
      for (std::size_t v = 0; v < g.vertices(); ++v) {
        bool root_ok = label[v] <= static_cast<vertex_t>(v) && label[label[v]] == label[v];
        for (auto a = g.row_offset[v]; root_ok && a < g.row_offset[v + 1]; ++a)
          root_ok = label[g.column[a]] == label[v];
        if (!root_ok) throw Error("rooting bench: inconsistent labels on " + name);
      }
      first_labels = label;
    } else if (label != first_labels) {
      throw Error("rooting bench: connectivity settings disagree on " + name);
    }
    table.add({"cc", name, "samples=" + value, std::to_string(g.vertices()),
               std::to_string(g.edges() / 2), fixed(kernel), fixed(wall), "-",
               "device in/out, " + std::to_string(cc.count) + " components; ms: " + phases});
  }
  rt.tuning() = saved;
}

void run(Session& session, const RootingBenchOptions& o) {
  Runtime& rt = session.runtime;
  const Runs runs = session.runs;
  std::cout << "# treefix-bench rooting: " << rt.description().summary() << "\n# medians of "
            << runs.repeats << " runs after " << runs.warmup << " warm-up\n";
  Table table = make_table();

  auto wanted = [&](const char* part) { return listed(o.parts, part); };
  // 1. Connectivity and rooted spanning forests: high diameter (grid, strip, path), low diameter
  // (Kronecker) and the real graphs.
  std::vector<std::pair<std::string, Csr>> graphs;
  if (wanted("cc") || wanted("rst")) {
    graphs.emplace_back("grid " + std::to_string(o.grid_side) + "x" + std::to_string(o.grid_side),
                        generate::grid2d(o.grid_side, o.grid_side));
    std::size_t strip_length =
        std::max<std::size_t>(1, (o.grid_side * o.grid_side) / o.strip_width);
    graphs.emplace_back(
        "strip " + std::to_string(o.strip_width) + "x" + std::to_string(strip_length),
        generate::grid2d(o.strip_width, strip_length));
    graphs.emplace_back("kronecker scale " + std::to_string(o.scale),
                        generate::kronecker(o.scale, o.edge_factor, 1));
    for (const auto& path : o.graphs)
      graphs.emplace_back(path.substr(path.find_last_of('/') + 1), read_graph(path));
  }
  if (wanted("cc"))
    for (const auto& [name, g] : graphs) bench_cc(rt, name, g, o, table);
  if (wanted("rst")) {
    for (const auto& [name, g] : graphs) bench_rst(rt, name, g, o, true, table);
    bench_rst(rt, "path (shuffled ids)",
              csr_from_parent(generate::shuffle_labels(generate::path(o.path), 3)), o, o.path_bfs,
              table);
  }

  // 2. List ranking of one list of o.list elements, in memory order and shuffled.
  for (bool shuffled : {false, true}) {
    if (!wanted("listrank")) break;
    auto succ = DeviceArray<std::int32_t>::upload(rt, list_successors(o.list, shuffled, 5));
    DeviceArray<std::int32_t> rank(rt, o.list, "ranks");
    struct Variant {
      std::string label;
      ListRankMethod method;
      std::size_t stride;
    };
    for (Variant v : {Variant{"wyllie", ListRankMethod::wyllie, 0},
                      Variant{"ruling-set s=8", ListRankMethod::ruling_set, 8},
                      Variant{"ruling-set s=32", ListRankMethod::ruling_set, 32},
                      Variant{"ruling-set s=128", ListRankMethod::ruling_set, 128}}) {
      ListRankOptions options;
      options.method = v.method;
      options.stride = v.stride;
      auto [wall, kernel] = measure(rt, runs, kKernelPhases, [&](Profile& profile) {
        options.profile = &profile;
        list_rank(rt, succ.buffer(), rank.buffer(), o.list, options);
      });
      auto ranks = rank.download(rt);  // spot check: the last element of the list
      std::size_t tail =
          shuffled
              ? std::find(ranks.begin(), ranks.end(), static_cast<int>(o.list - 1)) - ranks.begin()
              : o.list - 1;
      if (tail >= o.list || ranks[tail] != static_cast<int>(o.list - 1))
        throw Error("rooting bench: wrong list ranks");
      table.add({"listrank", std::string(shuffled ? "list, shuffled" : "list, in order"), v.label,
                 std::to_string(o.list), "-", fixed(kernel), fixed(wall), "-", "device in/out"});
    }
  }

  // 3. Rooting an unrooted forest: a path of o.forest vertices, shuffled ids and edge order.
  if (wanted("root")) {
    auto parent = generate::shuffle_labels(generate::path(o.forest), 8);
    std::vector<vertex_t> source, target;
    for (std::size_t v = 0; v < parent.size(); ++v)
      if (parent[v] >= 0) {
        source.push_back(static_cast<vertex_t>(v));
        target.push_back(parent[v]);
      }
    auto ds = DeviceArray<vertex_t>::upload(rt, source),
         dt = DeviceArray<vertex_t>::upload(rt, target);
    vertex_t root =
        static_cast<vertex_t>(std::find(parent.begin(), parent.end(), -1) - parent.begin());
    for (auto method : {ListRankMethod::ruling_set, ListRankMethod::wyllie}) {
      RootingOptions options;
      options.roots = {root};
      options.list_rank.method = method;
      DeviceArray<vertex_t> result;
      std::string phases;
      auto [wall, kernel] = measure(
          rt, runs, kKernelPhases,
          [&](Profile& profile) {
            options.profile = &profile;
            result = root_forest(rt, o.forest, ds, dt, options);
          },
          &phases);
      if (result.download(rt) != parent)
        throw Error("rooting bench: root_forest differs from the generated path");
      table.add({"root", "path (shuffled ids)", std::string("euler+") + to_string(method),
                 std::to_string(o.forest), std::to_string(source.size()), fixed(kernel),
                 fixed(wall), "-", "device in/out, validation included; ms: " + phases});
    }
  }

  // 4. The vector tree representation: device (from a device parent array) against the host.
  if (wanted("tour"))
    for (auto& [name, shape_parent] : std::vector<std::pair<std::string, ParentArray>>{
             {"random recursive",
              generate::shuffle_labels(generate::random_recursive(o.tour, 4), 4)},
             {"path (shuffled ids)", generate::shuffle_labels(generate::path(o.tour), 6)}}) {
      const ParentArray& parent = shape_parent;  // C++17: lambdas cannot capture a binding
      auto device_parent = DeviceArray<vertex_t>::upload(rt, parent);
      EulerTour host;
      const double host_build_ms = median_host_ms(runs, [&] { host = build_euler_tour(parent); });
      table.add({"tour", name, "host build_euler_tour", std::to_string(o.tour), "-", "-",
                 fixed(host_build_ms), "-", "host only (upload of open/close not included)"});
      DeviceEulerTour tour;
      std::string phases;
      auto [wall, kernel] = measure(
          rt, runs, kKernelPhases,
          [&](Profile& profile) {
            tour = device_euler_tour(rt, device_parent.buffer(), parent.size(), {}, &profile);
          },
          &phases);
      std::vector<std::int32_t> open_pos(parent.size());
      rt.queue().enqueueReadBuffer(tour.open_pos(), CL_TRUE, 0, parent.size() * 4, open_pos.data());
      if (!std::equal(open_pos.begin(), open_pos.end(), host.open_pos.begin()))
        throw Error("rooting bench: device Euler tour differs from the host's");
      table.add({"tour", name, "device_euler_tour", std::to_string(o.tour), "-", fixed(kernel),
                 fixed(wall), "-", "device in/out; ms: " + phases});
    }

  session.report({&table});
}

void add_options(CLI::App* suite, RootingBenchOptions& o) {
  add_graph_options(suite, o, "cc and rst rows");
  add_setting(suite, "--strip-width", o.strip_width,
              "width of the long strip grid (as many vertices as the square grid)");
  add_setting(suite, "--path", o.path, "vertices of the path graph");
  suite->add_flag("--path-bfs", o.path_bfs, "also BFS on the path (one level per vertex: slow)");
  suite->add_flag("--downstream", o.downstream,
                  "feed each method's rooted tree to rootfix (levels and euler): rows downstream");
  add_setting(suite, "--list", o.list, "elements of the ranked list");
  add_setting(suite, "--forest", o.forest, "vertices of the rooted path forest");
  add_setting(suite, "--tour", o.tour, "vertices of the Euler-tour trees");
  add_selection(suite, "--parts", o.parts);
  add_setting(suite, "--pr-levels", o.pr_levels,
              "PR-RST: jump-table levels per launch to compare (the pr_levels_per_launch knob)");
  add_setting(suite, "--cc-samples", o.cc_samples,
              "connectivity: connectivity_samples knob values to compare (auto: the device's "
              "default, which samples only graphs of 16+ arcs per vertex)");
}

TREEFIX_BENCH("rooting",
              "Rooted spanning forests (connectivity+Euler vs BFS), list ranking, Euler tours", run,
              add_options);

}  // namespace
}  // namespace treefix::bench
