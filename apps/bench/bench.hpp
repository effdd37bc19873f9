#pragma once
// The benchmark driver `treefix-bench SUITE [options]`. Each suite lives in its own file and
// registers itself with TREEFIX_BENCH. Timings come from OpenCL profiling events (compute and
// transfers separately), after warm-up runs, as medians over repeats; results go to CSV.
//
// What every suite shares lives here: the common options (--device, --repeats, --warmup, --csv),
// the run's identity (device, driver, date), and Table, which prints aligned columns and writes
// CSV whose every row starts with device, driver and date.
#include <CLI/CLI.hpp>

#include <fstream>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "subcommands.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix::bench {

struct BenchProgram;  // the tag of treefix-bench's suites (subcommands.hpp)

// How many runs: `warmup` untimed, then `repeats` timed (run i is timed when i >= warmup).
struct Runs {
  std::size_t warmup = 1, repeats = 5;
  std::size_t total() const { return warmup + repeats; }
  bool timed(std::size_t i) const { return i >= warmup; }
};

// Options of every suite; a suite sets its defaults before adding them.
struct CommonOptions {
  std::string device, csv;
  int repeats = 5, warmup = 1;
  Runs runs() const {
    return {static_cast<std::size_t>(warmup), static_cast<std::size_t>(repeats)};
  }
};
// --device and --csv; with `timed`, also --repeats and --warmup.
void add_common_options(CLI::App* suite, CommonOptions& options, bool timed = true);

// A suite whose options live in `args` (its CommonOptions in args->common), running run(*args).
template <class Args>
CLI::App* add_suite(CLI::App& app, const std::string& name, const std::string& description,
                    const std::shared_ptr<Args>& args, void (*run)(const Args&),
                    bool timed = true) {
  CLI::App* suite = cli::add_command(app, name, description, args, run);
  add_common_options(suite, args->common, timed);
  return suite;
}

// Where and when a run happened.
struct RunInfo {
  std::string device, platform, driver, date;  // date: "YYYY-MM-DD HH:MM UTC"
  static RunInfo of(const Runtime& runtime);
  // "# device: ... | platform: ... | driver: ... | date: ..." for the top of a suite's output.
  std::string header() const;
};

// Rows of text cells under named columns.
class Table {
 public:
  explicit Table(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  void add(std::vector<std::string> cells);  // one cell per column (InputError otherwise)
  bool empty() const { return rows_.empty(); }
  void print(std::ostream& out) const;  // right-aligned columns
  // Header "device,driver,date,<columns>", then the rows with the run's identity in front.
  void write_csv(std::ostream& out, const RunInfo& run) const;
  // For long suites: write the CSV to `path` now (nothing when empty) and append every later
  // row as it is added, flushed, so that the rows measured so far survive an interrupted run.
  void stream_csv(const std::string& path, const RunInfo& run);

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
  std::shared_ptr<std::ofstream> stream_;
  std::string stream_prefix_;
};

// Writes the tables to `path` (nothing when empty), one after the other, a blank line between.
void write_csv(const std::string& path, const RunInfo& run,
               const std::vector<const Table*>& tables);

// A number as a table cell: fixed with `digits` decimals; or (general) `significant` digits in
// the shorter of fixed and scientific notation (%g).
std::string cell(double value, int digits = 3);
std::string general(double value, int significant = 6);

// Median of a sample (the sample is copied).
double median(std::vector<double> sample);
// The depth of a forest (edges on its longest root path) and its branching factor (children per
// vertex that has any), as the seed paper's Table I reports them for BFS spanning trees.
struct TreeShape {
  std::size_t depth = 0;
  double branching = 0;
};
TreeShape tree_shape(const ParentArray& parent);

// Wall-clock milliseconds of f() on the host (for host-only work; device work uses Profile).
double host_ms(const std::function<void()>& f);
// The non-empty items of a comma-separated list.
std::vector<std::string> split(const std::string& list);

}  // namespace treefix::bench

// TREEFIX_BENCH("name", setup_function) at namespace scope of a suite file.
#define TREEFIX_BENCH(name, setup) \
  TREEFIX_REGISTER_SUBCOMMAND(::treefix::bench::BenchProgram, name, setup)
