#pragma once
// The benchmark driver `treefix-bench SUITE [options]`. Each suite lives in its own file and
// registers itself with TREEFIX_BENCH. Timings come from OpenCL profiling events (compute and
// transfers separately), after warm-up runs, as medians over repeats; results go to CSV.
//
// What every suite shares lives here: the common options (--device, --repeats, --warmup, --csv),
// the Session a suite runs in (the device's Runtime, the run's identity: device, driver, date),
// Table, which prints aligned columns and writes CSV whose every row starts with device, driver
// and date, and the timing helpers. Option groups that several suites take are in
// suite_options.hpp.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "cli_options.hpp"
#include "subcommands.hpp"
#include "suite_options.hpp"
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

// Where and when a run happened.
struct RunInfo {
  std::string device, platform, driver, date;  // date: "YYYY-MM-DD HH:MM UTC"
  static RunInfo of(const Runtime& runtime);
  // "# device: ... | platform: ... | driver: ... | date: ..." for the top of a suite's output.
  std::string header() const;
};

class Table;

// What a suite runs in: the Runtime on --device, the run's identity (printed as the first line
// of the output when the session opens, unless `announce` is false: the other ranks of an MPI
// run), the run counts and the --csv path.
struct Session {
  explicit Session(const CommonOptions& common, bool announce = true);
  Runtime runtime;
  RunInfo info;
  Runs runs;
  std::string csv;
  // Writes the non-empty tables to --csv (nothing without it), a blank line between.
  void write_csv(const std::vector<const Table*>& tables) const;
  // Prints the non-empty tables to standard output, a blank line between.
  void print(const std::vector<const Table*>& tables) const;
  // print, then write_csv.
  void report(const std::vector<const Table*>& tables) const;
};

// How a suite joins treefix-bench (TREEFIX_BENCH below): its options live in an Args (the
// CommonOptions in args.common, added first, then add_options adds the suite's own); when chosen,
// it runs run(session, args) in a session opened on those options.
template <class Args>
cli::SubcommandSetup suite_setup(const char* name, const char* description,
                                 void (*run)(Session&, const Args&),
                                 void (*add_options)(CLI::App*, Args&), bool timed = true) {
  return [=](CLI::App& app) {
    auto args = std::make_shared<Args>();
    CLI::App* suite = app.add_subcommand(name, description);
    suite->callback([args, run] {
      Session session(args->common);
      run(session, *args);
    });
    add_common_options(suite, args->common, timed);
    add_options(suite, *args);
  };
}

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
// The median of once()'s milliseconds over the timed runs (`runs.total()` calls in all).
double median_ms(const Runs& runs, const std::function<double()>& once);
// The median wall milliseconds of f() on the host over the timed runs.
double median_host_ms(const Runs& runs, const std::function<void()>& f);
// The depth of a forest (edges on its longest root path) and two branching factors: children per
// vertex that has any (`branching`), and vertices per level, n / depth (`vertices_per_level`,
// n when the depth is 0), which is what the seed paper's Table I calls the branching of its BFS
// spanning trees. `level_sizes[d]` counts the vertices at depth d (its Fig. 6).
struct TreeShape {
  std::size_t depth = 0;
  double branching = 0;
  double vertices_per_level = 0;
  std::vector<std::size_t> level_sizes;
};
TreeShape tree_shape(const ParentArray& parent);

// The successor links of one list of n elements (-1 after the last), the elements in memory
// order or, when `shuffled`, in an order shuffled by `seed` (the list-ranking workloads).
std::vector<std::int32_t> list_successors(std::size_t n, bool shuffled, std::uint64_t seed);

// Wall-clock milliseconds of f() on the host (for host-only work; device work uses Profile).
double host_ms(const std::function<void()>& f);
// Wall-clock milliseconds since `start` (std::chrono::steady_clock::now() then).
double ms_since(std::chrono::steady_clock::time_point start);
// The non-empty items of a comma-separated list.
std::vector<std::string> split(const std::string& list);
// Whether `item` is one of the items of the comma-separated `list` (--parts, --tables, --apps).
bool listed(const std::string& list, const std::string& item);

}  // namespace treefix::bench

// TREEFIX_BENCH("name", "description", run, add_options[, timed]) at namespace scope of a suite
// file (suite_setup's arguments).
#define TREEFIX_BENCH(name, ...)                                    \
  TREEFIX_REGISTER_SUBCOMMAND(::treefix::bench::BenchProgram, name, \
                              ::treefix::bench::suite_setup(name, __VA_ARGS__))
