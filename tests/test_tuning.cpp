// The tuning rows: every declared row resolves on every device class, the values by device that
// were measured stay as they are, the environment overrides a row or is refused with the variable,
// what it takes and the value, and the listing of `treefix devices --tuning` shows every row.
#include <doctest/doctest.h>

#include <cstdlib>
#include <set>
#include <string>

#include "fixture.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/tuning.hpp"
#include "treefix/forest/device_forest.hpp"

using namespace treefix;

namespace {

DeviceDescription device(bool gpu, const std::string& vendor, std::size_t max_work_group) {
  DeviceDescription d;
  d.is_gpu = gpu;
  d.is_cpu = !gpu;
  d.vendor = vendor;
  d.platform_name = vendor + " platform";
  d.max_work_group_size = max_work_group;
  return d;
}

// resolve_tuning under `name`=`value` (restored afterwards, also when it throws).
Tuning resolve_with(const char* name, const char* value, const DeviceDescription& d) {
  setenv(name, value, 1);
  try {
    Tuning t = resolve_tuning(d, Environment::read());
    unsetenv(name);
    return t;
  } catch (...) {
    unsetenv(name);
    throw;
  }
}

}  // namespace

TEST_CASE("tuning: every row is well formed and resolves on every device class") {
  const std::vector<TuningRow>& rows = tuning_rows();
  REQUIRE(rows.size() >= 30);
  std::set<std::string> names, variables;
  for (const TuningRow& row : rows) {
    CAPTURE(row.name);
    CHECK(names.insert(row.name).second);
    CHECK_FALSE(row.module.empty());
    CHECK_FALSE(row.help.empty());
    CHECK(row.least <= row.most);
    if (!row.environment.empty()) {
      CHECK(row.environment.rfind("TREEFIX_", 0) == 0);
      CHECK(variables.insert(row.environment).second);
    }
    for (std::size_t value : row.sweep) CHECK((value >= row.least && value <= row.most));
    if (!row.sweep.empty()) CHECK_FALSE(row.workload.empty());
  }
  for (const DeviceDescription& d :
       {device(false, "pocl", 4096), device(true, "Advanced Micro Devices", 256),
        device(true, "NVIDIA Corporation", 1024)}) {
    CAPTURE(d.vendor);
    const Tuning t = resolve_tuning(d, Environment{});
    for (const TuningRow& row : rows) {
      CAPTURE(row.name);
      const std::size_t value = t.value(row.name);
      CHECK(value >= row.least);
      CHECK(value <= row.most);
      CHECK(value == (row.fit ? row.fit(row.default_on(d), d) : row.default_on(d)));
    }
  }
  // The shared runtime's values are its device's (no override is set in the test run), but for
  // the row the fixture sets (tests/fixture.hpp: automatic_on_host off, so that `auto` exercises
  // the device's algorithms everywhere).
  Runtime& rt = test::runtime();
  for (const TuningRow& row : rows) {
    CAPTURE(row.name);
    if (row.name == "automatic_on_host") continue;
    if (!row.environment.empty() && std::getenv(row.environment.c_str())) continue;
    const std::size_t value = row.default_on(rt.description());
    CHECK(rt.tuning().value(row.name) == (row.fit ? row.fit(value, rt.description()) : value));
  }
}

TEST_CASE("tuning: the defaults by device class and measured device") {
  const Tuning cpu = resolve_tuning(device(false, "pocl", 4096), Environment{});
  const Tuning gpu = resolve_tuning(device(true, "Advanced Micro Devices", 256), Environment{});
  const Tuning nvidia = resolve_tuning(device(true, "NVIDIA Corporation", 1024), Environment{});
  CHECK(cpu.value("scan_items_4") == 16);
  CHECK(gpu.value("scan_items_4") == 12);
  CHECK(nvidia.value("scan_items_4") == 8);
  CHECK(gpu.value("scan_items_8") == 6);
  CHECK(gpu.value("scan_items_16") == 3);
  CHECK(cpu.value("list_rank_stride") == 256);
  CHECK(gpu.value("list_rank_stride") == 32);
  CHECK(nvidia.value("single_pass_scan") == 1);
  CHECK(gpu.value("single_pass_scan") == 0);
  CHECK(nvidia.value("pinned_transfers") == 1);
  CHECK(gpu.value("pinned_transfers") == 0);
  CHECK(cpu.value("bfs_small_frontier") == 256);
  CHECK(gpu.value("bfs_small_frontier") == 16384);
  CHECK(nvidia.value("bfs_small_frontier") == 512);
  CHECK(cpu.value("bfs_small_arcs") == 4096);
  CHECK(nvidia.value("bfs_small_arcs") == 65536);
  CHECK(nvidia.value("bfs_grid_barrier") == 1);
  CHECK(gpu.value("bfs_grid_barrier") == 0);
  CHECK(cpu.value("min_groups_per_unit") == 4);
  CHECK(gpu.value("resident_items_per_unit") == 2048);
  CHECK(cpu.value("lockstep_when_coherent") == 0);
  CHECK(gpu.value("lockstep_when_coherent") == 1);
  CHECK(cpu.value("ruleml_device_parse_threads") == 0);
  CHECK(gpu.value("ruleml_device_parse_threads") == 8);
  CHECK(gpu.value("work_group_size") == 256);
}

TEST_CASE("tuning: the environment overrides a row, fitted to the device, or is refused") {
  const DeviceDescription gpu = device(true, "Advanced Micro Devices", 512);
  CHECK(resolve_with("TREEFIX_BFS_SMALL_ARCS", " 1234 ", gpu).value("bfs_small_arcs") == 1234);
  CHECK(resolve_with("TREEFIX_SCAN", "single-pass", gpu).value("single_pass_scan") == 1);
  CHECK(resolve_with("TREEFIX_CC_SAMPLES", "0", gpu).value("connectivity_samples") == 0);
  // rounded down to a power of two and to the device's largest group
  CHECK(resolve_with("TREEFIX_WG_SIZE", "1000", gpu).value("work_group_size") == 512);
  CHECK(resolve_with("TREEFIX_WG_SIZE", "200", gpu).value("work_group_size") == 128);
  CHECK(resolve_with("TREEFIX_LOCKSTEP_WIDTH", "4096", gpu).value("lockstep_width") == 512);
  CHECK_THROWS_WITH_AS(resolve_with("TREEFIX_LIST_RANK_STRIDE", "12x", gpu),
                       doctest::Contains("environment variable TREEFIX_LIST_RANK_STRIDE='12x': "
                                         "expected a positive integer of at most 1048576"),
                       InputError);
  CHECK_THROWS_WITH_AS(resolve_with("TREEFIX_CC_SAMPLES", "65", gpu),
                       doctest::Contains("TREEFIX_CC_SAMPLES='65': expected a positive integer "
                                         "of at most 64, or 0"),
                       InputError);
  CHECK_THROWS_WITH_AS(resolve_with("TREEFIX_BFS_GRID_BARRIER", "yes", gpu),
                       doctest::Contains("TREEFIX_BFS_GRID_BARRIER='yes': expected on or off"),
                       InputError);
  CHECK_THROWS_AS(resolve_with("TREEFIX_WG_SIZE", "99999999999999999999999", gpu), InputError);
}

TEST_CASE("tuning: set by name checks the name and the range") {
  test::ScopedTuning tuning;
  tuning->set("bfs_small_frontier", 3);
  CHECK(tuning->value("bfs_small_frontier") == 3);
  CHECK_THROWS_WITH_AS(tuning->set("bfs_small_frontier", 0),
                       doctest::Contains("bfs_small_frontier = 0: expected a positive integer"),
                       InputError);
  CHECK_THROWS_WITH_AS(tuning->set("no_such_knob", 1),
                       doctest::Contains("unknown tuning knob 'no_such_knob'"), InputError);
  CHECK_THROWS_AS(tuning->value("no_such_knob"), InputError);
  CHECK(tuning->value("bfs_small_frontier") == 3);
}

TEST_CASE("tuning: the summary and `devices --tuning` listing show every row") {
  Runtime& rt = test::runtime();
  const std::string listing = tuning_listing(rt.tuning(), rt.description());
  const std::string summary = rt.tuning().summary();
  for (const TuningRow& row : tuning_rows()) {
    CAPTURE(row.name);
    CHECK(listing.find(row.module + std::string(12 - row.module.size(), ' ') + row.name) !=
          std::string::npos);
    CHECK(listing.find(row.help) != std::string::npos);
    if (!row.environment.empty()) CHECK(listing.find(row.environment) != std::string::npos);
    CHECK(summary.find(row.name + " ") != std::string::npos);
  }
}

TEST_CASE("tuning: the forest's row decides where RuleML files are parsed by default") {
  Runtime& rt = test::runtime();
  test::ScopedTuning tuning;
  tuning->set("ruleml_device_parse_threads", 0);
  CHECK_FALSE(ruleml_device_parse_pays(rt));
  tuning->set("ruleml_device_parse_threads", host_threads());
  CHECK(ruleml_device_parse_pays(rt));
  tuning->set("ruleml_device_parse_threads", host_threads() - 1);
  CHECK_FALSE(ruleml_device_parse_pays(rt));
}
