// treefix-bench tune: sweeps the fields of Tuning (treefix/core/tuning.hpp) on the current device,
// one field at a time with the others at the device's resolved values, each against the workload
// it governs; times are OpenCL profiling events of that workload's kernels, medians after
// warm-up:
//   work_group_size, scan_items_4, single_pass_scan   inclusive scan of n floats
//   scan_items_8                                      inclusive scan of n doubles (or longs)
//   list_rank_stride                                  ruling-set ranking of a shuffled list of n
//   lockstep_width                                    lockstep correlation on sorted points
// Prints every (field, value) row and the best Tuning: the row to copy into default_tuning().
#include <algorithm>
#include <iostream>
#include <limits>
#include <memory>
#include <numeric>
#include <random>

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

// One field's candidates: a name, how to set a value, and the workload's time under the Tuning.
struct Sweep {
  const char* field;
  std::vector<std::size_t> values;
  std::function<void(Tuning&, std::size_t)> set;
  std::function<double(Runtime&)> time_ms;  // one timed run of the workload
};

// The setter of a Tuning field from a swept value (bool fields: nonzero is true).
template <class T>
std::function<void(Tuning&, std::size_t)> setter(T Tuning::*field) {
  return [field](Tuning& t, std::size_t v) { t.*field = static_cast<T>(v); };
}

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

  const auto scan_4 = scan_ms(ValueType::float32), scan_8 = scan_ms(ValueType::float64);
  const std::vector<Sweep> sweeps = {
      {"work_group_size", {64, 128, 256, 512, 1024}, setter(&Tuning::work_group_size), scan_4},
      {"scan_items_4", {4, 8, 12, 16, 24}, setter(&Tuning::scan_items_4), scan_4},
      {"single_pass_scan", {0, 1}, setter(&Tuning::single_pass_scan), scan_4},
      {"scan_items_8", {2, 4, 6, 8, 12}, setter(&Tuning::scan_items_8), scan_8},
      {"list_rank_stride",
       {8, 16, 32, 64, 128, 256},
       setter(&Tuning::list_rank_stride),
       list_rank_ms},
      {"lockstep_width", {16, 32, 64, 128}, setter(&Tuning::lockstep_width), lockstep_ms},
  };

  Table table({"field", "value", "median_ms", "best"});
  Tuning best = resolved;
  for (const Sweep& sweep : sweeps) {
    std::vector<double> times;
    for (std::size_t value : sweep.values) {
      rt.tuning() = resolved;
      sweep.set(rt.tuning(), value);
      double ms = std::numeric_limits<double>::infinity();
      try {
        ms = median_ms(session.runs, [&] { return sweep.time_ms(rt); });
      } catch (const Error& e) {  // a value the device cannot take (local memory, work-group size)
        std::cerr << "  " << sweep.field << " = " << value << ": " << e.what() << "\n";
      }
      times.push_back(ms);
      std::cerr << "  " << sweep.field << " = " << value << ": " << ms << " ms\n";
    }
    const std::size_t at = std::min_element(times.begin(), times.end()) - times.begin();
    sweep.set(best, sweep.values[at]);
    for (std::size_t i = 0; i < times.size(); ++i)
      table.add(
          {sweep.field, std::to_string(sweep.values[i]), cell(times[i], 4), i == at ? "*" : ""});
  }
  rt.tuning() = resolved;
  table.print(std::cout);
  std::cout << "# best tuning on this device: " << best.summary()
            << "\n# single_pass_scan is also a correctness choice: keep it off where running "
               "work-groups are not known to progress (treefix/core/tuning.hpp)\n";
  session.write_csv({&table});
}

void add_options(CLI::App* suite, Args& o) {
  add_setting(suite, "--log-n", o.log_n, "elements of the scan and list workloads, log2")
      ->check(CLI::Range(10, 28));
  add_setting(suite, "--points", o.points, "points of the lockstep correlation workload")
      ->check(CLI::Range(1000, 100000000));
}

TREEFIX_BENCH("tune", "Sweep the per-device Tuning fields and print the best row", run,
              add_options);

}  // namespace
}  // namespace treefix::bench
