// treefix-bench: benchmark suites (see bench.hpp). `treefix-bench --help` lists them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>

#include "bench.hpp"
#include "cli_options.hpp"
#include "treefix/core/error.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix::bench {

void add_common_options(CLI::App* suite, CommonOptions& options, bool timed) {
  cli::add_device_option(suite, options.device);
  suite->add_option("--csv", options.csv, "also write the results as CSV here");
  if (!timed) return;
  suite->add_option("--repeats", options.repeats, "timed runs (medians are reported)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  suite->add_option("--warmup", options.warmup, "untimed runs first")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
}

RunInfo RunInfo::of(const Runtime& runtime) {
  const auto& d = runtime.description();
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return {d.device_name, d.platform_name, d.driver_version, date};
}

std::string RunInfo::header() const {
  return "# device: " + device + " | platform: " + platform + " | driver: " + driver +
         " | date: " + date;
}

Session::Session(const CommonOptions& common, bool announce)
    : runtime(common.device), info(RunInfo::of(runtime)), runs(common.runs()), csv(common.csv) {
  if (announce) std::cout << info.header() << "\n";
}

void Session::write_csv(const std::vector<const Table*>& tables) const {
  bench::write_csv(csv, info, tables);
}

void Session::print(const std::vector<const Table*>& tables) const {
  bool first = true;
  for (const Table* t : tables) {
    if (t->empty()) continue;
    if (!first) std::cout << "\n";
    t->print(std::cout);
    first = false;
  }
}

void Session::report(const std::vector<const Table*>& tables) const {
  print(tables);
  write_csv(tables);
}

namespace {
std::string csv_field(const std::string& text);
}  // namespace

void Table::add(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw InputError("table row of " + std::to_string(cells.size()) + " cells for " +
                     std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(cells));
  if (stream_) {
    *stream_ << stream_prefix_;
    for (auto& c : rows_.back()) *stream_ << ',' << csv_field(c);
    *stream_ << '\n' << std::flush;
    if (!*stream_) throw Error("writing the CSV stream failed");
  }
}

void Table::print(std::ostream& out) const {
  std::vector<std::size_t> width(columns_.size());
  for (std::size_t i = 0; i < columns_.size(); ++i) width[i] = columns_[i].size();
  for (auto& r : rows_)
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  auto line = [&](const std::vector<std::string>& r) {
    for (std::size_t i = 0; i < r.size(); ++i)
      out << std::setw(static_cast<int>(width[i]) + 2) << r[i];
    out << "\n";
  };
  line(columns_);
  for (auto& r : rows_) line(r);
}

void Table::stream_csv(const std::string& path, const RunInfo& run) {
  if (path.empty()) return;
  stream_ = std::make_shared<std::ofstream>(path);
  if (!*stream_) throw InputError(path + ": cannot write");
  write_csv(*stream_, run);
  stream_->flush();
  stream_prefix_ = csv_field(run.device) + ',' + csv_field(run.driver) + ',' + csv_field(run.date);
}

namespace {
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string q = "\"";
  for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
}  // namespace

void Table::write_csv(std::ostream& out, const RunInfo& run) const {
  out << "device,driver,date";
  for (auto& c : columns_) out << ',' << csv_field(c);
  out << '\n';
  const std::string prefix =
      csv_field(run.device) + ',' + csv_field(run.driver) + ',' + csv_field(run.date);
  for (auto& r : rows_) {
    out << prefix;
    for (auto& c : r) out << ',' << csv_field(c);
    out << '\n';
  }
}

void write_csv(const std::string& path, const RunInfo& run,
               const std::vector<const Table*>& tables) {
  if (path.empty()) return;
  std::ofstream out(path);
  if (!out) throw InputError(path + ": cannot write");
  bool first = true;
  for (const Table* t : tables) {
    if (!t || t->empty()) continue;
    if (!first) out << '\n';
    t->write_csv(out, run);
    first = false;
  }
  if (!out) throw Error(path + ": write failed");
}

std::string cell(double value, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << value;
  return s.str();
}

std::string general(double value, int significant) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*g", significant, value);
  return text;
}

double median(std::vector<double> sample) {
  if (sample.empty()) return 0;
  std::sort(sample.begin(), sample.end());
  std::size_t m = sample.size() / 2;
  return sample.size() % 2 ? sample[m] : 0.5 * (sample[m - 1] + sample[m]);
}

double median_ms(const Runs& runs, const std::function<double()>& once) {
  std::vector<double> sample;
  for (std::size_t i = 0; i < runs.total(); ++i) {
    const double ms = once();
    if (runs.timed(i)) sample.push_back(ms);
  }
  return median(sample);
}

double median_host_ms(const Runs& runs, const std::function<void()>& f) {
  return median_ms(runs, [&] { return host_ms(f); });
}

TreeShape tree_shape(const ParentArray& parent) {
  TreeShape shape;
  std::vector<std::size_t> children(parent.size(), 0);
  std::size_t internal = 0, edges = 0;
  for (vertex_t p : parent)
    if (p >= 0) {
      internal += children[p]++ == 0;
      ++edges;
    }
  for (vertex_t d : depths(parent)) {
    if (static_cast<std::size_t>(d) >= shape.level_sizes.size()) shape.level_sizes.resize(d + 1);
    ++shape.level_sizes[d];
  }
  shape.depth = shape.level_sizes.empty() ? 0 : shape.level_sizes.size() - 1;
  shape.branching = internal ? static_cast<double>(edges) / internal : 0;
  shape.vertices_per_level = static_cast<double>(parent.size()) /
                             static_cast<double>(std::max<std::size_t>(shape.depth, 1));
  return shape;
}

std::vector<std::int32_t> list_successors(std::size_t n, bool shuffled, std::uint64_t seed) {
  std::vector<std::int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  if (shuffled) std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
  std::vector<std::int32_t> succ(n, -1);
  for (std::size_t k = 0; k + 1 < n; ++k) succ[order[k]] = order[k + 1];
  return succ;
}

double host_ms(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return ms_since(t0);
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) items.push_back(item);
  return items;
}

bool listed(const std::string& list, const std::string& item) {
  const auto items = split(list);
  return std::find(items.begin(), items.end(), item) != items.end();
}

}  // namespace treefix::bench

int main(int argc, char** argv) {
  return treefix::cli::run_subcommands(
      "treefix-bench: benchmarks of libtreefix-cl (profiled, medians, CSV)", "treefix-bench",
      treefix::cli::Subcommands<treefix::bench::BenchProgram>::all(), argc, argv);
}
