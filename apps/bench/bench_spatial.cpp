// treefix-bench spatial: spatial trees built on the device, phase by phase (profiling events:
// frame, codes, sort, build, summary, traverse, integrate, upload, download), next to the CPU.
// Tables (--tables):
//   sort       2^20 (--sort-sizes) key/index pairs: our radix sort (30-bit uint keys; 63-bit ulong
//              keys as two passes over the halves) against Boost.Compute's sort_by_key
//   build      kd-tree and octree builds per phase against the host builds (CPU references)
//   nbody      a full Barnes-Hut time step per phase against the 16-thread CPU step
//   knn        k = 8 end to end (upload, build, query, download) against the CPU
//   correlate  the same for correlation counts at about 85 points per ball
//   auto       every variant and sort on device-built trees: which is fastest, what auto takes
// --dump-dir writes the query point sets with our correlation counts (point_sets.hpp: .npy and
// points_manifest.csv), so that bench/ckdtree_peer.py runs SciPy's cKDTree on the same points.
#include "bench_spatial.hpp"
#include "point_sets.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <thread>

#include "treefix/core/parallel.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/primitives/sort.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::bench::spatial {

const std::vector<std::string> kBuildPhases = {"frame", "codes", "sort", "build", "summary"};

double phase_ms(const Profile& p, const std::string& phase) { return p.milliseconds(phase); }

namespace {

// The radius holding about `neighbours` points: the median distance to the neighbours-th nearest
// point over 256 sampled points (brute force).
double radius_for(const PointSet& p, double neighbours) {
  const std::size_t samples = std::min<std::size_t>(256, p.n);
  const std::size_t rank = std::min<std::size_t>(p.n - 1, std::size_t(neighbours) - 1);
  std::vector<double> r(samples);
  parallel_for_ranges(samples, kRopeItemsPerPiece, 0, [&](std::size_t begin, std::size_t end) {
    std::vector<float> d(p.n);
    for (std::size_t s = begin; s < end; ++s) {
      const std::size_t i = s * (p.n / samples);
      for (std::size_t j = 0; j < p.n; ++j) d[j] = squared_distance(p, i, p, j);
      std::nth_element(d.begin(), d.begin() + rank, d.end());
      r[s] = std::sqrt(double(d[rank]));
    }
  });
  std::nth_element(r.begin(), r.begin() + samples / 2, r.end());
  return r[samples / 2];
}

// The query sets, with our correlation counts, for bench/ckdtree_peer.py; the Plummer bodies as
// an (n, 7) .npy for the CLI.
void dump(Runtime& rt, const Args& a, const std::vector<NamedPoints>& sets) {
  PointsDump dump(a.dump_dir);
  if (!dump.enabled()) return;
  for (const auto& s : sets) {
    DeviceKdTree tree = build_kd_tree(rt, DevicePoints::upload(rt, s.points), {a.leaf});
    DeviceArray<std::uint32_t> counts(rt, s.points.n, "counts");
    correlation_counts(rt, tree, nullptr, s.radius, counts);
    const std::vector<std::uint32_t> host_counts = counts.download(rt);
    dump.add(s.name, s.points, s.radius, a.k, &host_counts);
  }
  if (a.dump_bodies) {
    const Bodies plummer = generate::plummer(a.bodies, 1);
    PointSet rows(plummer.size(), 7);  // mass x y z vx vy vz
    for (std::size_t i = 0; i < plummer.size(); ++i) {
      rows.at(i, 0) = plummer.mass[i];
      for (int k = 0; k < 3; ++k) {
        rows.at(i, 1 + k) = plummer.position.at(i, k);
        rows.at(i, 4 + k) = plummer.velocity.at(i, k);
      }
    }
    write_output(a.dump_dir + "/bodies_plummer.npy",
                 [&](std::ostream& out) { write_points_npy(out, rows); });
  }
  std::cout << "# points written to " << a.dump_dir << " (points_manifest.csv)\n";
}

// Keys of `bits` random bits with identity values, sorted `repeats` times after warm-up.
template <class Key>
void sort_rows(Runtime& rt, const Args& a, std::size_t n, unsigned bits, Table& rows) {
  std::mt19937_64 rng(n + bits);
  std::vector<Key> keys(n);
  auto keys_device = DeviceArray<Key>(rt, n, "keys");
  auto values = DeviceArray<cl_int>(rt, n, "values");
  const std::size_t saved_items = rt.tuning().value("radix_sort_items");
  for (const std::string impl : {"radix-4", "radix-8", "radix-16", "boost"}) {
    if (impl != "boost") rt.tuning().set("radix_sort_items", std::stoul(impl.substr(6)));
    std::vector<double> wall, device;
    const Runs runs = a.common.runs();
    for (std::size_t r = 0; r < runs.total(); ++r) {
      for (auto& k : keys) k = static_cast<Key>(rng() & ((bits >= 64 ? 0 : (1ull << bits)) - 1));
      keys_device.write(rt, keys);
      rt.queue().finish();
      Profile p;
      const double ms = host_ms([&] {
        if (impl == "boost")
          sort_by_key<Key>(rt, keys_device.buffer(), values.buffer(), n, true);
        else if (sizeof(Key) == 8)
          radix_sort_by_key64(rt, keys_device.buffer(), values.buffer(), n, bits, true, &p);
        else
          radix_sort_by_key(rt, keys_device.buffer(), values.buffer(), n, bits, true, &p);
        rt.queue().finish();
      });
      if (!runs.timed(r)) continue;
      wall.push_back(ms);
      device.push_back(phase_ms(p, "sort"));
    }
    const double w = median(wall);
    rows.add({impl, std::to_string(n), std::to_string(bits),
              impl == "boost" ? "" : cell(median(device), 4), cell(w, 4), cell(n / (1e3 * w), 1)});
  }
  rt.tuning().set("radix_sort_items", saved_items);
}

// Per-phase medians of `build(profile)` (which finishes the queue), plus the wall time.
template <class Build>
std::vector<std::string> build_cells(Runtime& rt, const Args& a, Build build) {
  std::map<std::string, std::vector<double>> t;
  const Runs runs = a.common.runs();
  for (std::size_t r = 0; r < runs.total(); ++r) {
    Profile p;
    rt.queue().finish();
    const double wall = host_ms([&] { build(&p); });
    if (!runs.timed(r)) continue;
    double total = 0;
    for (const auto& phase : kBuildPhases) {
      t[phase].push_back(phase_ms(p, phase));
      total += phase_ms(p, phase);
    }
    t["device"].push_back(total);
    t["wall"].push_back(wall);
  }
  std::vector<std::string> cells;
  for (const auto& phase : kBuildPhases) cells.push_back(cell(median(t[phase]), 4));
  cells.push_back(cell(median(t["device"]), 3));
  cells.push_back(cell(median(t["wall"]), 3));
  return cells;
}

void build_table(Runtime& rt, const Args& a, const std::vector<NamedPoints>& sets, Table& rows) {
  std::vector<NamedPoints> all = sets;
  if (a.bodies > 0) all.push_back({"plummer", generate::plummer(a.bodies, 1).position, 0});
  for (const auto& s : all) {
    const std::size_t n = s.points.n;
    DevicePoints points = DevicePoints::upload(rt, s.points);
    std::vector<float> masses(n, 1.0f / float(n));
    auto mass = DeviceArray<float>::upload(rt, masses);
    std::size_t nodes = 0;
    int height = 0;
    auto kd = build_cells(rt, a, [&](Profile* p) {
      DeviceKdTree t = build_kd_tree(rt, points, {a.leaf, p});
      rt.queue().finish();
      nodes = t.shape.nodes, height = t.shape.height;
    });
    const double cpu_kd = host_ms([&] { build_kd_tree(s.points, a.leaf); });
    std::vector<std::string> row = {"kd-tree", s.name, std::to_string(n)};
    row.insert(row.end(), kd.begin(), kd.end());
    row.insert(row.end(), {cell(cpu_kd, 1), cell(cpu_kd / std::stod(kd.back()), 1),
                           std::to_string(nodes), std::to_string(height)});
    rows.add(row);
    DeviceArray<std::int32_t> count;
    auto oct = build_cells(rt, a, [&](Profile* p) {
      DeviceOctree t = build_octree(rt, points, mass, {a.leaf, p});
      rt.queue().finish();
      count = t.node_count;
    });
    const double cpu_oct = host_ms([&] { build_octree(s.points, masses, a.leaf); });
    row = {"octree", s.name, std::to_string(n)};
    row.insert(row.end(), oct.begin(), oct.end());
    row.insert(row.end(), {cell(cpu_oct, 1), cell(cpu_oct / std::stod(oct.back()), 1),
                           std::to_string(read_value<cl_int>(rt, count.buffer())),
                           std::to_string(device_octree_height) + " (bound)"});
    rows.add(row);
    std::cerr << "  built " << s.name << "\n";
  }
}

// Every variant and sort of one traversal, `run(variant, sort, profile)`; and what auto takes.
template <class Run>
void auto_rows(const std::string& app, const std::string& set, std::size_t n, const Args& a,
               Run run, Table& rows) {
  std::vector<std::vector<std::string>> found;
  double best = INFINITY;
  std::string best_key, auto_key;
  auto [auto_variant, auto_sorted] = run(Variant::automatic, SortMode::automatic, nullptr);
  auto_key = std::string(to_string(auto_variant)) + (auto_sorted ? "/sorted" : "/unsorted");
  for (SortMode sort : {SortMode::on, SortMode::off})
    for (Variant v : {Variant::lockstep, Variant::independent, Variant::recursive}) {
      std::vector<double> t;
      const Runs runs = a.common.runs();
      for (std::size_t r = 0; r < runs.total(); ++r) {
        Profile p;
        run(v, sort, &p);
        if (runs.timed(r)) t.push_back(phase_ms(p, "traverse"));
      }
      const double ms = median(t);
      const std::string key =
          std::string(to_string(v)) + (sort == SortMode::on ? "/sorted" : "/unsorted");
      if (ms < best) best = ms, best_key = key;
      found.push_back({app, set, std::to_string(n), key, cell(ms, 4)});
    }
  for (auto& r : found) {
    r.push_back(r[3] == auto_key ? "auto" : "");
    r.push_back(r[3] == best_key ? "fastest" : "");
    rows.add(r);
  }
  std::cerr << "  auto " << app << " " << set << ": auto " << auto_key << ", fastest " << best_key
            << "\n";
}

void nbody_auto_rows(Runtime& rt, const Args& a, Table& rows) {
  Bodies plummer = generate::plummer(a.bodies, 1);
  auto bodies = DeviceBodies::upload(rt, plummer);
  DeviceOctree octree =
      build_octree(rt, DevicePoints{plummer.size(), 3, bodies.position}, bodies.mass, {a.leaf});
  DeviceArray<float> acc(rt, 3 * plummer.size(), "accelerations");
  auto_rows(
      "nbody", "plummer", plummer.size(), a,
      [&](Variant v, SortMode s, Profile* p) {
        GravityOptions o;
        o.theta = a.theta, o.variant = v, o.sort = s, o.profile = p;
        Variant chosen;
        o.chosen = &chosen;
        accelerations(rt, octree, acc, o);
        rt.queue().finish();
        return std::make_pair(chosen, choose_sort(s, plummer.size()));
      },
      rows);
}

void auto_table(Runtime& rt, const Args& a, const std::vector<NamedPoints>& sets, Table& rows) {
  if (a.bodies > 0) nbody_auto_rows(rt, a, rows);
  for (const auto& set : sets) {
    DeviceKdTree tree = build_kd_tree(rt, DevicePoints::upload(rt, set.points), {a.leaf});
    const std::size_t n = set.points.n;
    DeviceArray<std::uint32_t> counts(rt, n, "counts");
    DeviceArray<std::int32_t> index(rt, n * a.k, "index");
    DeviceArray<float> d2(rt, n * a.k, "d2");
    auto query = [&](bool is_knn) {
      return [&, is_knn](Variant v, SortMode s, Profile* p) {
        QueryOptions o;
        Variant chosen;
        bool sorted = false;
        o.variant = v, o.sort = s, o.profile = p, o.chosen = &chosen, o.sorted = &sorted;
        if (is_knn)
          knn(rt, tree, nullptr, a.k, index, d2, o);
        else
          correlation_counts(rt, tree, nullptr, set.radius, counts, o);
        rt.queue().finish();
        return std::make_pair(chosen, sorted);
      };
    };
    auto_rows("correlate", set.name, n, a, query(false), rows);
    auto_rows("knn", set.name, n, a, query(true), rows);
  }
}

void run_spatial(Session& session, const Args& a) {
  Runtime& rt = session.runtime;
  std::cout << "# " << rt.description().summary() << "\n# " << rt.tuning().summary()
            << "\n# CPU baseline: " << thread_count(a.threads) << " threads\n";
  auto wants = [&](const char* t) { return listed(a.tables, t); };
  Table sorts({"sort", "n", "key_bits", "device_ms", "wall_ms", "Mpairs_per_s"});
  Table builds({"tree", "points", "n", "frame_ms", "codes_ms", "sort_ms", "build_ms", "summary_ms",
                "device_ms", "wall_ms", "cpu_ms", "speedup_vs_cpu", "nodes", "height"});
  Table steps({"app", "n", "theta", "rel_rms_error", "frame_ms", "codes_ms", "sort_ms", "build_ms",
               "summary_ms", "body_sort_ms", "traverse_ms", "integrate_ms", "device_ms",
               "step_wall_ms", "cpu_step_ms", "speedup_vs_cpu"});
  Table queries({"app", "points", "n", "k_or_radius", "variant", "upload_ms", "build_ms",
                 "query_ms", "download_ms", "device_ms", "end_to_end_wall_ms", "cpu_build_ms",
                 "cpu_query_ms", "speedup_vs_cpu"});
  Table autos({"app", "points", "n", "variant_sort", "traverse_ms", "auto", "fastest"});
  const std::vector<NamedPoints> sets = query_sets(a);
  dump(rt, a, sets);
  if (wants("sort"))
    for (const std::string& size : split(a.sort_sizes)) {
      const std::size_t n = std::stoul(size);
      sort_rows<cl_uint>(rt, a, n, 30, sorts);
      sort_rows<cl_ulong>(rt, a, n, 63, sorts);
    }
  if (wants("build")) build_table(rt, a, sets, builds);
  if (wants("nbody") && a.bodies > 0) nbody_table(rt, a, steps);
  if (wants("knn") || wants("correlate")) query_table(rt, a, sets, queries);
  if (wants("auto")) auto_table(rt, a, sets, autos);
  session.report({&sorts, &builds, &steps, &queries, &autos});
}

void add_options(CLI::App* suite, Args& o) {
  add_spatial_options(suite, o);
  add_setting(suite, "--sort-sizes", o.sort_sizes, "comma list of sort sizes");
  add_selection(suite, "--tables", o.tables);
  suite->add_option("--real", o.real, "a point file of a real scan to add (text, .xyz or .npy)");
  suite->add_flag("--dump-bodies", o.dump_bodies,
                  "with --dump-dir: also the Plummer bodies as bodies_plummer.npy (n, 7)");
  add_setting(suite, "--steps", o.steps, "timed Barnes-Hut steps");
}

}  // namespace

std::vector<NamedPoints> query_sets(const Args& a) {
  std::vector<NamedPoints> sets;
  if (a.points > 0) sets.push_back({"uniform", uniform_points(a.points, 2), 0});
  if (!a.real.empty()) {
    PointSet p = read_points(a.real);
    if (p.dim != 3) throw InputError(a.real + ": the spatial suite takes 3-d points");
    sets.push_back({std::filesystem::path(a.real).stem().string(), p, 0});
  }
  for (auto& s : sets) s.radius = radius_for(s.points, a.neighbours);
  return sets;
}

TREEFIX_BENCH("spatial",
              "device-built spatial trees: sorts, builds, Barnes-Hut steps, kNN and "
              "correlation end to end, the auto table",
              run_spatial, add_options);

}  // namespace treefix::bench::spatial
