// treefix-bench tune: sweeps every tuning row that names sweep values (treefix/core/tuning.hpp)
// on the current device, one row at a time with the others at the device's resolved values, each
// against the workload its row names; times are OpenCL profiling events of that workload's
// kernels, medians after warm-up. The workloads:
//   scan-4-byte   inclusive scan of n floats
//   scan-8-byte   inclusive scan of n doubles (or longs)
//   list-rank     ruling-set ranking of a shuffled list of n
//   lockstep      lockstep correlation on sorted points
// Prints every (knob, value) row and the best tuning: the values to write into the rows'
// defaults for this device (TuningRow::measured_on).
#include <algorithm>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <string>

#include "bench.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/primitives/scan.hpp"
#include "treefix/spatial/neighbours.hpp"

namespace treefix::bench {
namespace {

struct Args {
  CommonOptions common{"", "", 5, 2};
  int log_n = 24;
  std::size_t points = 200000;
};

void run(Session& session, const Args& args) {
  Runtime& rt = session.runtime;
  const std::size_t n = std::size_t(1) << args.log_n;
  const Tuning resolved = rt.tuning();
  std::cout << "# resolved tuning: " << resolved.summary() << "\n";

  // Workloads, built once.
  auto floats = DeviceArray<float>::upload(rt, std::vector<float>(n, 1.0f));
  DeviceArray<float> float_out(rt, n);
  const bool fp64 = rt.description().fp64;
  auto list = DeviceArray<std::int32_t>::upload(rt, list_successors(n, true, 5));
  DeviceArray<std::int32_t> rank(rt, n);
  PointSet points(args.points, 3);
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (auto& c : points.coord) c = unit(rng);
  const KdTree kd = build_kd_tree(points, 8);
  const PointSet queries = points.permuted(morton_order(points));

  auto scan_ms = [&](ValueType type) {
    return [&, type](Runtime& r) {
      Profile p;
      if (type == ValueType::float32) {
        scan(r, type, Op::sum, ScanKind::inclusive, floats.buffer(), float_out.buffer(), n, &p);
      } else {  // 8-byte values over the same bytes reinterpreted: half as many
        scan(r, fp64 ? ValueType::float64 : ValueType::int64, Op::sum, ScanKind::inclusive,
             floats.buffer(), float_out.buffer(), n / 2, &p);
      }
      return p.milliseconds("scan");
    };
  };
  auto list_rank_ms = [&](Runtime& r) {
    Profile p;
    ListRankOptions options;
    options.profile = &p;
    list_rank(r, list.buffer(), rank.buffer(), n, options);
    return p.milliseconds("listrank");
  };
  auto lockstep_ms = [&](Runtime& r) {
    Profile p;
    QueryOptions options;
    options.variant = Variant::lockstep;
    options.sort = SortMode::off;  // already in Morton order
    options.profile = &p;
    correlation_counts(r, kd, queries, 0.02, options);
    return p.milliseconds("traverse");
  };

  // The workloads a row's sweep may name: one timed run each.
  const std::map<std::string, std::function<double(Runtime&)>> workloads = {
      {"scan-4-byte", scan_ms(ValueType::float32)},
      {"scan-8-byte", scan_ms(ValueType::float64)},
      {"list-rank", list_rank_ms},
      {"lockstep", lockstep_ms},
  };

  Table table({"knob", "value", "median_ms", "best"});
  Tuning best = resolved;
  for (const TuningRow& row : tuning_rows()) {
    if (row.sweep.empty()) continue;
    const auto workload = workloads.find(row.workload);
    if (workload == workloads.end()) {
      std::cerr << "  " << row.name << ": no workload '" << row.workload << "' here, not swept\n";
      continue;
    }
    std::vector<double> times;
    for (std::size_t value : row.sweep) {
      rt.tuning() = resolved;
      double ms = std::numeric_limits<double>::infinity();
      try {
        rt.tuning().set(row.name, value);
        ms = median_ms(session.runs, [&] { return workload->second(rt); });
      } catch (const Error& e) {  // a value the device cannot take (local memory, work-group size)
        std::cerr << "  " << row.name << " = " << value << ": " << e.what() << "\n";
      }
      times.push_back(ms);
      std::cerr << "  " << row.name << " = " << row.format(value) << ": " << ms << " ms\n";
    }
    const std::size_t at = std::min_element(times.begin(), times.end()) - times.begin();
    best.set(row.name, row.sweep[at]);
    for (std::size_t i = 0; i < times.size(); ++i)
      table.add({row.name, row.format(row.sweep[i]), cell(times[i], 4), i == at ? "*" : ""});
  }
  rt.tuning() = resolved;
  table.print(std::cout);
  std::cout << "# best tuning on this device: " << best.summary()
            << "\n# single_pass_scan is also a correctness choice: keep it off where running "
               "work-groups are not known to progress (lib/primitives/scan_tuning.cpp)\n";
  session.write_csv({&table});
}

void add_options(CLI::App* suite, Args& o) {
  add_setting(suite, "--log-n", o.log_n, "elements of the scan and list workloads, log2")
      ->check(CLI::Range(10, 28));
  add_setting(suite, "--points", o.points, "points of the lockstep correlation workload")
      ->check(CLI::Range(1000, 100000000));
}

TREEFIX_BENCH("tune", "Sweep the tuning rows that name sweep values and print the best values", run,
              add_options);

}  // namespace
}  // namespace treefix::bench
