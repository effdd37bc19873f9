// treefix-bench spatial, the application tables (bench_spatial.hpp): a full Barnes-Hut time step
// on the device per phase against the multi-threaded CPU step, and kNN / correlation end to end
// (upload, build, query, download) against the CPU build and query.
#include <cmath>
#include <iostream>

#include "bench_spatial.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix::bench::spatial {
namespace {

// The forces on the host: octree built on the host (one thread), the traversal on all threads.
std::vector<float> cpu_force(const Bodies& b, const GravityOptions& o, unsigned threads) {
  Octree tree = build_octree(b.position, b.mass, o.leaf_size);
  return reference::accelerations_tree(tree, o.theta, o.eps, threads);
}

// One leapfrog step on the host, as the device's: kick and drift with the last accelerations,
// build and force, kick.
void cpu_step(Bodies& b, std::vector<float>& acc, const GravityOptions& o, double dt,
              unsigned threads) {
  const std::size_t n = b.size();
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) {
      b.velocity.at(i, k) += float(0.5 * dt) * acc[3 * i + k];
      b.position.at(i, k) += float(dt) * b.velocity.at(i, k);
    }
  acc = cpu_force(b, o, threads);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) b.velocity.at(i, k) += float(0.5 * dt) * acc[3 * i + k];
}

}  // namespace

void nbody_table(Runtime& rt, const Args& a, Table& rows) {
  Bodies plummer = generate::plummer(a.bodies, 1);
  const std::size_t n = plummer.size();
  GravityOptions o;
  o.theta = a.theta;
  o.leaf_size = a.leaf;
  const double error = sampled_error(plummer, accelerations(rt, plummer, o), o.eps);
  const double dt = 0.001;
  DeviceBodies device = DeviceBodies::upload(rt, plummer);
  auto steps_ms = [&](int steps, Profile* p) {
    GravityOptions g = o;
    g.profile = p;
    return host_ms([&] {
      leapfrog(rt, device, StepOptions{steps, dt, 0, {}, {}}, g);
      rt.queue().finish();
    });
  };
  steps_ms(1, nullptr);  // warm-up: programs built
  const double one = steps_ms(1, nullptr);
  Profile p;
  const int timed = std::max(1, a.steps);
  const double many = steps_ms(1 + timed, &p);
  const double step_wall = (many - one) / timed;
  // 1 + timed steps ran 2 + timed force passes (one before the first kick) and 1 + timed
  // integrations: per step, one of each.
  std::vector<std::string> row = {"nbody", std::to_string(n), cell(a.theta, 2), general(error, 3)};
  double device_ms = 0;
  for (const char* phase :
       {"frame", "codes", "sort", "build", "summary", "body sort", "traverse", "integrate"}) {
    const double per_step =
        phase_ms(p, phase) / (std::string(phase) == "integrate" ? 1 + timed : 2 + timed);
    device_ms += per_step;
    row.push_back(cell(per_step, 4));
  }
  std::vector<double> cpu;
  Bodies b = plummer;
  std::vector<float> acc = cpu_force(b, o, thread_count(a.threads));
  for (int r = 0; r < a.cpu_repeats; ++r)
    cpu.push_back(host_ms([&] { cpu_step(b, acc, o, dt, thread_count(a.threads)); }));
  const double cpu_ms = median(cpu);
  row.insert(row.end(), {cell(device_ms, 3), cell(step_wall, 3), cell(cpu_ms, 1),
                         cell(cpu_ms / step_wall, 1)});
  rows.add(row);
  std::cerr << "  nbody step: " << cell(step_wall, 2) << " ms (CPU " << cell(cpu_ms, 0)
            << " ms), error " << general(error, 3) << "\n";
}

void query_table(Runtime& rt, const Args& a, const std::vector<NamedPoints>& sets, Table& rows) {
  for (const auto& set : sets)
    for (const char* app : {"knn", "correlate"}) {
      if (!listed(a.tables, app)) continue;
      const bool is_knn = std::string(app) == "knn";
      const std::size_t n = set.points.n;
      std::map<std::string, std::vector<double>> t;
      Variant chosen = Variant::automatic;
      const Runs runs = a.common.runs();
      for (std::size_t r = 0; r < runs.total(); ++r) {
        Profile p;
        rt.queue().finish();
        const double wall = host_ms([&] {
          DevicePoints points = DevicePoints::upload(rt, set.points, &p);
          DeviceKdTree tree = build_kd_tree(rt, points, {a.leaf, &p});
          QueryOptions o;
          o.profile = &p;
          o.chosen = &chosen;
          if (is_knn) {
            DeviceArray<std::int32_t> index(rt, n * a.k, "index");
            DeviceArray<float> d2(rt, n * a.k, "d2");
            knn(rt, tree, nullptr, a.k, index, d2, o);
            index.download(rt, &p);
            d2.download(rt, &p);
          } else {
            DeviceArray<std::uint32_t> counts(rt, n, "counts");
            correlation_counts(rt, tree, nullptr, set.radius, counts, o);
            counts.download(rt, &p);
          }
        });
        if (!runs.timed(r)) continue;
        double build = 0;
        for (const auto& phase : kBuildPhases) build += phase_ms(p, phase);
        const double query = phase_ms(p, "query sort") + phase_ms(p, "traverse");
        t["upload"].push_back(phase_ms(p, "upload"));
        t["build"].push_back(build);
        t["query"].push_back(query);
        t["download"].push_back(phase_ms(p, "download"));
        t["device"].push_back(build + query + phase_ms(p, "upload") + phase_ms(p, "download"));
        t["wall"].push_back(wall);
      }
      // CPU: the host kd-tree, then the same traversal on all host threads, queries in Morton
      // order (as the device runs them).
      std::vector<double> cpu_build, cpu_query;
      const PointSet sorted = set.points.permuted(morton_order(set.points));
      for (int r = 0; r < a.cpu_repeats; ++r) {
        KdTree tree;
        cpu_build.push_back(host_ms([&] { tree = build_kd_tree(set.points, a.leaf); }));
        cpu_query.push_back(host_ms([&] {
          if (is_knn)
            reference::knn_tree(tree, sorted, a.k, thread_count(a.threads));
          else
            reference::correlation_tree(tree, sorted, set.radius, thread_count(a.threads));
        }));
      }
      const double wall = median(t["wall"]), cpu = median(cpu_build) + median(cpu_query);
      rows.add({app, set.name, std::to_string(n),
                is_knn ? std::to_string(a.k) : general(set.radius, 6), to_string(chosen),
                cell(median(t["upload"]), 3), cell(median(t["build"]), 3),
                cell(median(t["query"]), 3), cell(median(t["download"]), 3),
                cell(median(t["device"]), 3), cell(wall, 3), cell(median(cpu_build), 1),
                cell(median(cpu_query), 1), cell(cpu / wall, 1)});
      std::cerr << "  " << app << " " << set.name << ": " << cell(wall, 2) << " ms end to end\n";
    }
}

}  // namespace treefix::bench::spatial
