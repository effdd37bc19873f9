#pragma once
// The benchmark driver `treefix-bench SUITE [options]`. Each suite lives in its own file and
// registers itself with TREEFIX_BENCH. Timings come from OpenCL profiling events (compute and
// transfers separately), after warm-up runs, as medians over repeats; results go to CSV.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace treefix::bench {

using SuiteSetup = std::function<void(CLI::App& app)>;

struct SuiteRegistry {
  static std::vector<std::pair<std::string, SuiteSetup>>& all();
};

struct SuiteRegistration {
  SuiteRegistration(const char* name, SuiteSetup setup) {
    SuiteRegistry::all().emplace_back(name, std::move(setup));
  }
};

// Median of a sample (the sample is copied).
double median(std::vector<double> sample);
// Wall-clock milliseconds of f() on the host (for host-only work; device work uses Profile).
double host_ms(const std::function<void()>& f);
// The non-empty items of a comma-separated list.
std::vector<std::string> split(const std::string& list);

}  // namespace treefix::bench

#define TREEFIX_BENCH_CONCAT2(a, b) a##b
#define TREEFIX_BENCH_CONCAT(a, b) TREEFIX_BENCH_CONCAT2(a, b)
#define TREEFIX_BENCH(name, setup)                                  \
  static const ::treefix::bench::SuiteRegistration TREEFIX_BENCH_CONCAT( \
      treefix_bench_registration_, __LINE__)(name, setup)
