// treefix-bench paper: the performance experiment of Defour & Marin, redone. For every shape and
// size, every algorithm computes the same treefix (sum) of the same weights:
//   sequential   the CPU reference, one core (treefix::reference over a precomputed BFS order)
//   cpu-euler    multi-threaded CPU, Euler tour + blocked parallel scan (treefix::cpu_parallel)
//   cpu-levels   multi-threaded CPU, level-synchronous over BFS positions
//   bfs          device, the seed's parallel method (Algorithm 1, treefix/bfs_treefix.hpp): a
//                queue-based breadth-first search over the CSR on every call, nothing kept
//   levels       device, our level-synchronous sweeps (Algorithm::levels) over a level structure
//                built once per tree
//   euler        device, Euler tour (Algorithm::euler, the library's default form: fused)
//   euler-three  device, Euler tour as three kernels Write / Scan / Read, as in the paper
//   euler-accurate  device, Euler tour with the accurate precision (what accuracy costs)
// Device times are OpenCL profiling events: compute = every kernel of one call, upload = the
// tree's device representation + the weights, download = the result. CPU times are host wall
// clocks of the pass alone. Two columns say what is done once per tree, before the calls:
//   prepare_ms  host work: the BFS order (sequential), the CPU plan (cpu-*), the CSR (bfs: the
//               seed's input, built on the host and uploaded as its data transfer)
//   build_ms    the device structure kept across calls, wall clock: the DeviceTree (the parent
//               array uploaded and validated, child lists, Euler tour) for the euler forms, that
//               and the level structure for levels; bfs keeps nothing (0)
// Medians over --repeats runs after --warmup runs; an algorithm slower than --budget-s seconds per
// size gets fewer repeats (column runs), and one whose single run exceeded --max-run-s is skipped
// at larger sizes of that shape (status skipped-too-slow). Unavailable algorithms (InputError
// from the library) get status "unavailable".
//
// The CSV's depth and branching columns describe each tree (branching: children per internal
// vertex; vertices_per_level: n / depth, the seed's Table I "branching"). --level-histogram FILE
// writes the number of vertices at every depth (the seed's Fig. 6) of each graph's tree and of
// each synthetic shape's largest tree (trees of more than 2^16 levels are left out: a path of
// 2^24 vertices has 2^24 levels of one vertex, which the depth column already says).
//
// Shapes of one size each: graph:FILE (the BFS spanning tree of a real graph, as the seed's
// Table I) and table1:NAME (a tree of the size and depth of one of Table I's ten trees, NAME
// af_shell9 ... nlpkkt200, or table1 for all ten; its levels are equally wide and its vertex ids
// shuffled: the matrices themselves are not at hand).
//
// --dump-dir D writes, per shape and size, the tour positions, weights and expected result as raw
// little-endian files for bench/cupy_treefix.py (same trees, same weights), and D/index.csv.
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <thread>

#include "bench.hpp"
#include "cli_options.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/treefix/bfs_treefix.hpp"
#include "treefix/treefix/cpu_parallel.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/tree_io.hpp"
#include "treefix/treefix/treefix.hpp"

namespace treefix::bench {
namespace {

struct Args : TreeSizes {
  CommonOptions common{"", "", 10, 2};
  unsigned threads = 0;
  double budget_s = 20, max_run_s = 10;
  std::string algorithms = "sequential,cpu-euler,cpu-levels,levels,euler";
  std::string dump_dir, level_histogram;
  ValueType type = ValueType::float32;
};

// Real graphs enter as shapes "graph:FILE" (any format read_graph takes): the tree is the BFS
// spanning tree from vertex 0, unreached vertices roots of their own (the seed paper's Table I
// runs treefix on BFS trees of SuiteSparse graphs, and reports their depth and branching factor,
// as the depth and branching columns do for every shape). --min-log/--max-log do not apply.
ParentArray graph_spanning_tree(const std::string& path) {
  return generate::bfs_spanning_tree(read_graph(path), 0);
}

bool is_graph(const std::string& shape) { return shape.rfind("graph:", 0) == 0; }
bool is_table1(const std::string& shape) { return shape.rfind("table1:", 0) == 0; }
// Shapes of one size (--min-log/--max-log do not apply).
bool one_size(const std::string& shape) { return is_graph(shape) || is_table1(shape); }

// Defour & Marin's Table I: the BFS spanning trees of ten SuiteSparse matrices, vertices and depth.
struct Table1Tree {
  const char* name;
  std::size_t vertices, depth;
};
constexpr Table1Tree kTable1[] = {{"af_shell9", 504855, 490},   {"audikw1", 943695, 236},
                                  {"ldoor", 952203, 784},       {"af_shell10", 1508065, 1098},
                                  {"G3_circuit", 1585478, 705}, {"kkt_power", 2063494, 36},
                                  {"nlpkkt120", 3542400, 123},  {"cage15", 5154859, 81},
                                  {"nlpkkt160", 8345600, 163},  {"nlpkkt200", 16240000, 203}};

// A tree of Table I's size and depth: depth + 1 levels, the root alone on the first and the other
// vertices spread evenly over the rest, each vertex's parent drawn uniformly from the level above;
// ids shuffled (a matrix's row ids do not follow its BFS levels).
ParentArray table1_tree(const std::string& name) {
  for (const Table1Tree& t : kTable1) {
    if (name != t.name) continue;
    ParentArray parent(t.vertices, -1);
    std::mt19937_64 rng(t.vertices);
    std::size_t above_first = 0, above_count = 1, next = 1;
    for (std::size_t level = 1; level <= t.depth; ++level) {
      const std::size_t count = (t.vertices - 1) * level / t.depth - (next - 1);
      for (std::size_t i = 0; i < count; ++i)
        parent[next + i] = static_cast<vertex_t>(above_first + rng() % above_count);
      above_first = next;
      above_count = count;
      next += count;
    }
    return generate::shuffle_labels(parent, t.depth);
  }
  std::string names;
  for (const Table1Tree& t : kTable1) names += (names.empty() ? "" : ", ") + std::string(t.name);
  throw InputError("unknown Table I tree '" + name + "' (" + names + ")");
}

// "table1" stands for the ten trees of Table I.
std::vector<std::string> expand_shapes(const std::vector<std::string>& shapes) {
  std::vector<std::string> all;
  for (const auto& shape : shapes) {
    if (shape != "table1") {
      all.push_back(shape);
      continue;
    }
    for (const Table1Tree& t : kTable1) all.push_back(std::string("table1:") + t.name);
  }
  return all;
}

ParentArray make(const std::string& shape, std::size_t n) {
  if (is_graph(shape)) return graph_spanning_tree(shape.substr(6));
  if (is_table1(shape)) return table1_tree(shape.substr(7));
  return generate::tree(shape, n);
}

template <class T>
void dump_raw(const std::string& path, const std::vector<T>& values) {
  write_output(path, [&](std::ostream& out) {
    out.write(reinterpret_cast<const char*>(values.data()),
              static_cast<std::streamsize>(values.size() * sizeof(T)));
  });
}

bool is_device_algorithm(const std::string& a) {
  return a == "bfs" || a == "levels" || a == "euler" || a == "euler-three" || a == "euler-accurate";
}

TreefixOptions device_options(const std::string& algorithm) {
  TreefixOptions options;
  options.op = Op::sum;
  options.algorithm = algorithm == "levels" ? Algorithm::levels
                      : algorithm == "bfs"  ? Algorithm::bfs
                                            : Algorithm::euler;
  if (algorithm == "euler-three") options.euler_kernels = EulerKernels::three;
  // the paper's methods in the weight type; euler-accurate is the library's default precision
  options.precision = algorithm == "euler-accurate" ? Precision::accurate : Precision::fast;
  return options;
}

struct Timing {
  std::vector<double> compute, upload, download;
  double prepare = 0, build = 0;
  int runs = 0;
  std::string status = "ok";
};

// Host and device forms of one tree, built and measured once per size and shared by the
// algorithms that use the same form (the host Euler tour of 2^24 vertices takes seconds).
struct TreeForms {
  std::shared_ptr<cpu_parallel::Plan> plan;  // cpu-euler, cpu-levels
  double plan_ms = 0;
  std::shared_ptr<DeviceTree> euler_tree;  // euler, euler-three, euler-accurate
  double euler_build_ms = 0, euler_upload_ms = 0;
};

// Times one algorithm on one tree; the first run is checked against the sequential result
// (Error on a difference; the weights keep every value exact, floats included).
template <class T>
Timing time_algorithm(Runtime& rt, const Args& args, const std::string& algorithm,
                      const ParentArray& parent, const std::vector<T>& w, bool root,
                      const std::vector<T>& reference_result, const std::string& label,
                      TreeForms& forms) {
  Timing t;
  const std::size_t n = parent.size();
  auto check = [&](const std::vector<T>& got) {
    for (std::size_t i = 0; i < n; ++i) {
      if (got[i] != reference_result[i])
        throw Error(algorithm + " differs from the sequential reference at vertex " +
                    std::to_string(i) + " (" + label + ")");
    }
  };
  // Runs once, returns its wall time (ms); fills compute/upload/download when `record`.
  std::function<double(bool, bool)> once;
  std::shared_ptr<cpu_parallel::Plan> plan;
  std::vector<vertex_t> order;
  std::shared_ptr<DeviceTree> tree;
  double tree_upload_ms = 0;
  if (algorithm == "sequential" || algorithm == "cpu-euler" || algorithm == "cpu-levels") {
    if (algorithm == "sequential")
      t.prepare = host_ms([&] { order = top_down_order(parent); });
    else {
      if (!forms.plan)
        forms.plan_ms = host_ms(
            [&] { forms.plan = std::make_shared<cpu_parallel::Plan>(parent, args.threads); });
      plan = forms.plan;
      t.prepare = forms.plan_ms;
    }
    const auto method =
        algorithm == "cpu-euler" ? cpu_parallel::Method::euler : cpu_parallel::Method::levels;
    once = [&, method](bool record, bool verify) {
      std::vector<T> r;
      double ms = host_ms([&] {
        if (!plan)
          r = root ? reference::rootfix(parent, order, w, Op::sum, false)
                   : reference::leaffix(parent, order, w, Op::sum, false);
        else
          r = root ? cpu_parallel::rootfix(*plan, w, Op::sum, false, method)
                   : cpu_parallel::leaffix(*plan, w, Op::sum, false, method);
      });
      if (verify) check(r);
      if (record) {
        t.compute.push_back(ms);
        t.upload.push_back(0);
        t.download.push_back(0);
      }
      return ms;
    };
  } else if (algorithm == "bfs") {
    // The seed's setup: the CSR built on the host and uploaded once (its data transfer), then
    // every call searches it afresh.
    auto csr = std::make_shared<DeviceChildLists>();
    Profile uploads;
    const double csr_ms = host_ms([&] {
      *csr = upload_child_lists(rt, parent, &uploads);
      rt.queue().finish();
    });
    tree_upload_ms = uploads.milliseconds("upload");
    t.prepare = std::max(0.0, csr_ms - tree_upload_ms);
    const TreefixOptions options = device_options(algorithm);
    once = [&, csr, options](bool record, bool verify) {
      Profile profile;
      const double ms = host_ms([&] {
        auto weights = DeviceArray<T>::upload(rt, w, &profile);
        DeviceArray<T> result(rt, n);
        if (root)
          bfs_rootfix(rt, *csr, weights, result, options.op, options.exclusive, &profile, nullptr,
                      options.precision);
        else
          bfs_leaffix(rt, *csr, weights, result, options.op, options.exclusive, &profile, nullptr,
                      options.precision);
        auto r = result.download(rt, &profile);
        if (verify) check(r);
      });
      if (record) {
        const double up = profile.milliseconds("upload"), down = profile.milliseconds("download");
        t.compute.push_back(profile.total_milliseconds() - up - down);
        t.upload.push_back(up + tree_upload_ms);
        t.download.push_back(down);
      }
      return ms;
    };
  } else if (is_device_algorithm(algorithm)) {
    TreefixOptions options = device_options(algorithm);
    // The tree's device form, built once and kept: the DeviceTree (shared by the Euler-tour
    // forms), and for levels its level structure too. Wall clock, the queue finished.
    const bool euler_family = algorithm != "levels";
    if (euler_family && forms.euler_tree) {
      tree = forms.euler_tree;
      tree_upload_ms = forms.euler_upload_ms;
      t.build = forms.euler_build_ms;
    } else {
      // A first tree of a size class may compile programs (sized scans): then it is built again.
      for (int attempt = 0; attempt < 2; ++attempt) {
        const std::size_t built = rt.programs_built();
        Profile uploads;
        DeviceTreeOptions build;
        build.profile = &uploads;
        t.build = host_ms([&] {
          tree = std::make_shared<DeviceTree>(rt, parent, build);
          rt.queue().finish();
        });
        tree_upload_ms = uploads.milliseconds("upload");
        if (rt.programs_built() == built) break;
      }
      if (euler_family) {
        forms.euler_tree = tree;
        forms.euler_upload_ms = tree_upload_ms;
        forms.euler_build_ms = t.build;
      }
    }
    if (!euler_family) {
      const std::size_t built = rt.programs_built();
      double levels_ms = host_ms([&] {
        tree->levels();
        rt.queue().finish();
      });
      if (rt.programs_built() != built) {  // compiled: build the structure again on a fresh tree
        auto again = std::make_shared<DeviceTree>(rt, parent);
        levels_ms = host_ms([&] {
          again->levels();
          rt.queue().finish();
        });
        tree = again;
      }
      t.build += levels_ms;
    }
    once = [&, options](bool record, bool verify) mutable {
      Profile profile;
      options.profile = &profile;
      const double ms = host_ms([&] {
        auto weights = DeviceArray<T>::upload(rt, w, &profile);
        DeviceArray<T> result(rt, n);
        if (root)
          rootfix(rt, *tree, weights, result, options);
        else
          leaffix(rt, *tree, weights, result, options);
        auto r = result.download(rt, &profile);
        if (verify) check(r);
      });
      if (record) {
        const double up = profile.milliseconds("upload"), down = profile.milliseconds("download");
        t.compute.push_back(profile.total_milliseconds() - up - down);
        t.upload.push_back(up + tree_upload_ms);
        t.download.push_back(down);
      }
      return ms;
    };
  } else {
    throw InputError(
        "unknown algorithm '" + algorithm +
        "' (sequential, cpu-euler, cpu-levels, bfs, levels, euler, euler-three, euler-accurate)");
  }
  const double first_ms = once(false, true);
  // Fewer runs for slow algorithms: warm-up and repeats both fit the budget.
  const int fit = static_cast<int>(args.budget_s * 1000 / std::max(first_ms, 1e-3));
  const int warmup = std::min(args.common.warmup - 1, std::max(0, fit - 1));
  const int repeats = std::max(1, std::min(args.common.repeats, fit - warmup));
  for (int i = 0; i < warmup; ++i) once(false, false);
  for (int i = 0; i < repeats; ++i) once(true, false);
  t.runs = repeats;
  return t;
}

template <class T>
void run(Session& session, const Args& args) {
  if (args.min_log < 0 || args.max_log > 30 || args.min_log > args.max_log)
    throw InputError("sizes 2^" + std::to_string(args.min_log) + "..2^" +
                     std::to_string(args.max_log) + " out of range (0..30)");
  const auto fixes = split(args.fix);
  for (const auto& fix : fixes) {
    try {
      parse_fix(fix);
    } catch (const InputError& e) {
      throw InputError(std::string("--fix: ") + e.what());
    }
  }
  if (fixes.empty()) throw InputError("--fix is empty");
  if (args.common.warmup < 1)
    throw InputError("--warmup must be at least 1 (the first run checks the result)");
  Runtime& rt = session.runtime;
  const unsigned threads = thread_count(args.threads);
  const auto shapes = expand_shapes(split(args.shapes));
  const auto algorithms = split(args.algorithms);
  for (const auto& shape : shapes) {  // refuse a misspelt shape before hours of measurements
    if (is_table1(shape) && std::none_of(std::begin(kTable1), std::end(kTable1),
                                         [&](auto& t) { return shape.substr(7) == t.name; }))
      table1_tree(shape.substr(7));  // throws, naming the ten
    if (!one_size(shape)) make(shape, 1);
  }
  std::cout << "# host threads: " << threads << "; " << args.fix << " (sum), type "
            << to_string(args.type) << ", medians of up to " << args.common.repeats
            << " runs after warm-up; times in ms\n";
  Table table({"host_threads", "shape", "n", "type", "fix", "algorithm", "compute_ms", "upload_ms",
               "download_ms", "prepare_ms", "build_ms", "depth", "branching", "vertices_per_level",
               "runs", "status"});
  table.stream_csv(session.csv, session.info);
  std::ofstream index;
  if (!args.dump_dir.empty()) {
    std::filesystem::create_directories(args.dump_dir);
    index.open(args.dump_dir + "/index.csv");
    if (!index) throw InputError("cannot write " + args.dump_dir + "/index.csv ");
    index << "shape,n,type,fix,open_file,close_file,weights_file,expected_file\n";
  }
  std::ofstream levels;
  if (!args.level_histogram.empty()) {
    levels.open(args.level_histogram);
    if (!levels) throw InputError("cannot write " + args.level_histogram);
    levels << "shape,n,depth,vertices\n";
  }
  // Build the device programs before timing anything (prepare_ms must not include compilation).
  for (const auto& algorithm : algorithms)
    for (const auto& fix : fixes) {
      if (!is_device_algorithm(algorithm)) continue;
      const bool root = parse_fix(fix) == Fix::root;
      try {
        const ParentArray tiny = generate::random_recursive(1000, 1);
        TreefixOptions options = device_options(algorithm);
        const std::vector<T> w(tiny.size(), T(1));
        if (root)
          rootfix(rt, tiny, w, options);
        else
          leaffix(rt, tiny, w, options);
      } catch (const InputError&) {  // unavailable: reported per size below
      }
    }
  std::size_t steps = 0, step = 0;
  for (const auto& shape : shapes)
    steps += one_size(shape) ? 1 : std::size_t(args.max_log - args.min_log + 1);
  steps *= algorithms.size() * fixes.size();
  for (const auto& shape : shapes) {
    // per (fix, algorithm): index f * algorithms.size() + a
    std::vector<bool> too_slow(algorithms.size() * fixes.size(), false), unavailable(too_slow);
    const int last = one_size(shape) ? args.min_log : args.max_log;
    for (int lg = args.min_log; lg <= last; ++lg) {
      ParentArray parent = make(shape, std::size_t(1) << lg);
      const std::size_t n = parent.size();
      const TreeShape tree = tree_shape(parent);
      if (levels.is_open() && lg == last) {
        constexpr std::size_t max_levels = std::size_t(1) << 16;
        if (tree.level_sizes.size() <= max_levels) {
          for (std::size_t d = 0; d < tree.level_sizes.size(); ++d)
            levels << shape << ',' << n << ',' << d << ',' << tree.level_sizes[d] << '\n';
          levels.flush();
        } else {
          std::cerr << "\n[paper] level histogram: " << shape << " n=" << n << " has "
                    << tree.level_sizes.size() << " levels (more than " << max_levels
                    << "), left out\n";
        }
      }
      std::vector<T> w(n);
      // integers -6..6 that cancel over every 13 consecutive ids: treefix values stay small, so
      // float results are exact whatever the summation order and every algorithm is checkable
      for (std::size_t i = 0; i < n; ++i)
        w[i] = static_cast<T>(static_cast<int>((i * 7919) % 13) - 6);
      std::string stem;
      auto base = [](const std::string& path) { return path.substr(path.find_last_of('/') + 1); };
      if (index.is_open()) {
        const std::string name = is_graph(shape)    ? "graph" + std::to_string(lg)
                                 : is_table1(shape) ? shape.substr(7)
                                                    : shape;
        stem = args.dump_dir + "/" + name + "_" + std::to_string(n);
        EulerTour tour = build_euler_tour(parent);
        if (2 * n > static_cast<std::size_t>(INT32_MAX))
          throw InputError("--dump-dir writes int32 positions: tree too large");
        dump_raw(stem + ".open.i32",
                 std::vector<std::int32_t>(tour.open_pos.begin(), tour.open_pos.end()));
        dump_raw(stem + ".close.i32",
                 std::vector<std::int32_t>(tour.close_pos.begin(), tour.close_pos.end()));
        dump_raw(stem + ".weights.bin", w);
      }
      TreeForms forms;  // shared by both fixes
      for (std::size_t f = 0; f < fixes.size(); ++f) {
        const std::string& fix = fixes[f];
        const bool root = parse_fix(fix) == Fix::root;
        const auto expected =
            root ? reference::rootfix(parent, w, Op::sum) : reference::leaffix(parent, w, Op::sum);
        const std::string label = fix + ", " + shape + ", n=" + std::to_string(n);
        if (index.is_open()) {
          dump_raw(stem + "." + fix + ".expected.bin", expected);
          index << shape << ',' << n << ',' << to_string(args.type) << ',' << fix << ','
                << base(stem) << ".open.i32," << base(stem) << ".close.i32," << base(stem)
                << ".weights.bin," << base(stem) << "." << fix << ".expected.bin\n";
          index.flush();
        }
        for (std::size_t a = 0; a < algorithms.size(); ++a, ++step) {
          const std::size_t slot = f * algorithms.size() + a;
          std::cerr << "\r[paper] " << std::setw(3) << (100 * step / steps) << "%  " << label
                    << "  " << algorithms[a] << "            " << std::flush;
          Timing t;
          if (unavailable[slot]) {
            t.status = "unavailable";
          } else if (too_slow[slot]) {
            t.status = "skipped-too-slow";
          } else {
            try {
              t = time_algorithm<T>(rt, args, algorithms[a], parent, w, root, expected, label,
                                    forms);
            } catch (const InputError& e) {
              if (!is_device_algorithm(algorithms[a])) throw;
              t.status = "unavailable";
              unavailable[slot] = true;  // same answer at every size: ask once per shape
            } catch (const Error& e) {   // a wrong result or a device failure: say so, go on
              std::cerr << "\n[paper] " << algorithms[a] << " on " << label << ": " << e.what()
                        << "\n";
              t.status = dynamic_cast<const CapacityError*>(&e) ? "too-large" : "error";
            }
            if (t.status == "ok" && median(t.compute) > args.max_run_s * 1000)
              too_slow[slot] = true;
          }
          const bool ok = t.status == "ok";
          table.add({std::to_string(threads), shape, std::to_string(n), to_string(args.type), fix,
                     algorithms[a], ok ? general(median(t.compute)) : "",
                     ok ? general(median(t.upload)) : "", ok ? general(median(t.download)) : "",
                     ok ? general(t.prepare) : "", ok ? general(t.build) : "",
                     std::to_string(tree.depth), cell(tree.branching, 2),
                     cell(tree.vertices_per_level, 1), ok ? std::to_string(t.runs) : "0",
                     t.status});
        }
      }
    }
  }
  std::cerr << "\r[paper] done" << std::string(60, ' ') << "\n";
  table.print(std::cout);
}

void run_any_type(Session& session, const Args& args) {
  visit_value_type(args.type, [&](auto value) { run<decltype(value)>(session, args); });
}

void add_options(CLI::App* suite, Args& o) {
  add_tree_size_options(suite, o,
                        "star,caterpillar,path,random,random-shuffled,graph:FILE.mtx,table1[:NAME]",
                        "rootfix, leaffix, or both: rootfix,leaffix");
  add_selection(suite, "--algorithms", o.algorithms,
                "sequential,cpu-euler,cpu-levels,bfs,levels,euler,euler-three,euler-accurate");
  cli::add_enum_option(suite, "--type", o.type, "value type");
  add_threads_option(suite, o.threads);
  add_setting(suite, "--budget-s", o.budget_s,
              "seconds per algorithm and size; fewer repeats beyond");
  add_setting(suite, "--max-run-s", o.max_run_s,
              "skip larger sizes of a shape once one run took longer");
  suite->add_option(
      "--dump-dir", o.dump_dir,
      "write the trees (tour positions, weights, expected) for bench/cupy_treefix.py");
  suite->add_option("--level-histogram", o.level_histogram,
                    "write the vertices per depth of each shape's largest tree (CSV)");
}

TREEFIX_BENCH("paper",
              "Defour & Marin's experiment: CPU, multi-threaded CPU, the seed's bfs, levels, euler",
              run_any_type, add_options);

}  // namespace
}  // namespace treefix::bench
