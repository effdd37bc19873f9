#pragma once
// Tuning: every choice the library makes per device, as data. Each knob is one row, declared by
// the module that reads it, beside that code (lib/<module>/*_tuning.cpp): its name, environment
// variable, help, default by device class (CPU, GPU) and by device where measured (a vendor's
// GPUs), valid range and the values `treefix-bench tune` sweeps. Core holds only this mechanism.
//
// Runtime resolves every row once, when it is made: the first default that matches the device
// (a measured device's, then its class's), then the environment's override
// (treefix/core/environment.hpp), then fitted to what the device allows. Algorithms read
// runtime.tuning()[knob]; the environment parsing, Tuning::summary(), the tuner's sweeps and
// `treefix devices --tuning` all come from the rows, so adding a knob is one edit: its row.
//
// Models: CUB's per-algorithm tuning policies with a fallback chain, CLBlast's database rows
// written by its tuner, Boost.Compute's parameter_cache (a default read beside its override).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace treefix {

struct DeviceDescription;
struct Environment;

// One knob's row. Values are unsigned integers; a switch is 0 or 1, and a row with `words`
// takes those words (and only those) from its environment variable.
struct TuningRow {
  std::string module;       // the module that reads it: "graph"
  std::string name;         // "bfs_small_frontier": the name benches and tests set it by
  std::string help;         // one line, for `treefix devices --tuning`
  std::string environment;  // "TREEFIX_BFS_SMALL_FRONTIER", or empty: no override
  std::size_t on_cpu = 0;   // default on a CPU device (and any device that is not a GPU)
  std::size_t on_gpu = 0;   // default on a GPU ...
  // ... unless measured on this vendor's GPUs: (lower-case vendor or platform word, value); the
  // first that matches wins.
  std::vector<std::pair<std::string, std::size_t>> measured;
  std::size_t least = 0, most = 1;  // valid range, inclusive
  // Environment words and their values, in the order a refusal lists them ("single-pass" 1,
  // "reduce-then-scan" 0).
  std::vector<std::pair<std::string, std::size_t>> words;
  // Fits a value to the device (a power of two, at most its work-group size); none: as it is.
  std::size_t (*fit)(std::size_t value, const DeviceDescription& device) = nullptr;
  // The values `treefix-bench tune` tries, timed on `workload` (a workload the tuner knows:
  // "scan-4-byte", "scan-8-byte", "list-rank", "lockstep"); empty: not swept.
  std::vector<std::size_t> sweep;
  std::string workload;

  TuningRow(std::string module_name, std::string knob_name, std::string help_line)
      : module(std::move(module_name)), name(std::move(knob_name)), help(std::move(help_line)) {}
  // Chained setters, so that a row reads as one declaration.
  TuningRow& env(std::string variable) { return environment = std::move(variable), *this; }
  TuningRow& defaults(std::size_t cpu, std::size_t gpu) {
    return on_cpu = cpu, on_gpu = gpu, *this;
  }
  TuningRow& measured_on(std::string vendor, std::size_t value) {
    return measured.emplace_back(std::move(vendor), value), *this;
  }
  TuningRow& range(std::size_t low, std::size_t high) { return least = low, most = high, *this; }
  // A switch: 0 or 1, written `yes` or `no` in the environment.
  TuningRow& switch_words(std::string yes, std::string no) {
    words = {{std::move(yes), 1}, {std::move(no), 0}};
    return range(0, 1);
  }
  TuningRow& word(std::string text, std::size_t value) {
    return words.emplace_back(std::move(text), value), *this;
  }
  TuningRow& fitted(std::size_t (*to_device)(std::size_t, const DeviceDescription&)) {
    return fit = to_device, *this;
  }
  TuningRow& swept(std::vector<std::size_t> values, std::string on_workload) {
    return sweep = std::move(values), workload = std::move(on_workload), *this;
  }

  // The default on a device: measured, else by class.
  std::size_t default_on(const DeviceDescription& device) const;
  // `value` as the environment would write it: its word if it has one, else the number.
  std::string format(std::size_t value) const;
  // A value from the environment's text; InputError naming the variable and what it takes.
  std::size_t parse(const std::string& text) const;
  // "a positive integer of at most 64", "single-pass or reduce-then-scan".
  std::string expected() const;
};

// A declared row's handle, typed by how its readers use it (std::size_t, unsigned or bool).
template <class T>
struct Knob {
  std::size_t index;  // in tuning_rows()
};

// Registers a row (at static initialisation, from the module's *_tuning.cpp) and returns its
// handle. A name declared twice is a programming error: it aborts with the name. A row exists in
// a program when its file is linked in, which the code that reads its handle ensures: keep a
// row's declaration in a file that its readers reference.
std::size_t declare_tuning_row(TuningRow row);
template <class T>
Knob<T> declare(TuningRow row) {
  return Knob<T>{declare_tuning_row(std::move(row))};
}

// Every declared row, in the order of declaration.
const std::vector<TuningRow>& tuning_rows();
// The row of that name, or nullptr.
const TuningRow* find_tuning_row(std::string_view name);

// One value per row, as resolved for one device (and changed by benches and tests).
class Tuning {
 public:
  Tuning() = default;

  template <class T>
  T operator[](Knob<T> knob) const {
    return static_cast<T>(values_.at(knob.index));
  }
  template <class T>
  void set(Knob<T> knob, T value) {
    set_value(knob.index, static_cast<std::size_t>(value));
  }
  // By name (benches, tests): InputError for an unknown name or a value out of the row's range.
  std::size_t value(std::string_view name) const;
  void set(std::string_view name, std::size_t value);

  // "work_group_size 256, scan_items_4 12, ..., single_pass_scan reduce-then-scan, ..."
  std::string summary() const;

 private:
  friend Tuning resolve_tuning(const DeviceDescription&, const Environment&);
  void set_value(std::size_t index, std::size_t value);
  std::vector<std::size_t> values_;  // by row index
};

// Every row's default on the device, then the environment's overrides, fitted to the device:
// the one place a Tuning is made.
Tuning resolve_tuning(const DeviceDescription& device, const Environment& environment);

// Every row as `treefix devices --tuning` prints it: module, knob, the value in `tuning`, the
// default on `device`, the environment variable and what it takes, the help line.
std::string tuning_listing(const Tuning& tuning, const DeviceDescription& device);

}  // namespace treefix
