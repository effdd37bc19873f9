// Tuning: the registry of rows, resolving them for a device, reading them by name and printing
// them (treefix/core/tuning.hpp). The rows themselves live in their modules' *_tuning.cpp.
#include "treefix/core/tuning.hpp"

#include <cstdio>
#include <cstdlib>

#include "core/device_select.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix {
namespace {

std::vector<TuningRow>& registry() {
  static std::vector<TuningRow> rows;  // filled at static initialisation, read-only after
  return rows;
}

std::size_t index_of(std::string_view name) {
  const std::vector<TuningRow>& rows = registry();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].name == name) return i;
  throw InputError("unknown tuning knob '" + std::string(name) +
                   "' (`treefix devices --tuning` lists them)");
}

}  // namespace

std::size_t declare_tuning_row(TuningRow row) {
  std::vector<TuningRow>& rows = registry();
  for (const TuningRow& known : rows) {
    if (known.name == row.name) {  // two modules claim one knob: a programming error
      std::fprintf(stderr, "treefix: tuning knob '%s' declared twice\n", row.name.c_str());
      std::abort();
    }
  }
  rows.push_back(std::move(row));
  return rows.size() - 1;
}

const std::vector<TuningRow>& tuning_rows() { return registry(); }

const TuningRow* find_tuning_row(std::string_view name) {
  for (const TuningRow& row : registry())
    if (row.name == name) return &row;
  return nullptr;
}

std::size_t TuningRow::default_on(const DeviceDescription& device) const {
  if (!device.is_gpu) return on_cpu;
  const std::string who = detail::lower(device.vendor + " " + device.platform_name);
  for (const auto& [vendor, value] : measured)
    if (who.find(vendor) != std::string::npos) return value;
  return on_gpu;
}

std::string TuningRow::format(std::size_t value) const {
  for (const auto& [word, meaning] : words)
    if (meaning == value) return word;
  return std::to_string(value);
}

std::string TuningRow::expected() const {
  if (!words.empty()) {
    std::string list;
    for (std::size_t i = 0; i < words.size(); ++i)
      list += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i].first;
    return list;
  }
  const std::string positive = "a positive integer of at most " + std::to_string(most);
  if (least == 1) return positive;
  if (least == 0) return positive + ", or 0";
  return "an integer from " + std::to_string(least) + " to " + std::to_string(most);
}

std::size_t TuningRow::parse(const std::string& raw) const {
  const std::string text = detail::trim(raw);
  auto refuse = [&]() -> std::size_t {
    throw InputError("environment variable " + environment + "='" + raw + "': expected " +
                     expected());
  };
  if (!words.empty()) {
    for (const auto& [word, value] : words)
      if (text == word) return value;
    return refuse();
  }
  if (text.empty()) return refuse();
  std::size_t parsed = 0;
  for (char c : text) {
    if (c < '0' || c > '9' || parsed > most / 10) return refuse();  // no sign, suffix, overflow
    parsed = parsed * 10 + static_cast<std::size_t>(c - '0');
  }
  if (parsed < least || parsed > most) return refuse();
  return parsed;
}

std::size_t Tuning::value(std::string_view name) const { return values_.at(index_of(name)); }

void Tuning::set(std::string_view name, std::size_t value) { set_value(index_of(name), value); }

void Tuning::set_value(std::size_t index, std::size_t value) {
  const TuningRow& row = registry().at(index);
  if (value < row.least || value > row.most)
    throw InputError("tuning knob " + row.name + " = " + std::to_string(value) + ": expected " +
                     row.expected());
  values_.at(index) = value;
}

std::string Tuning::summary() const {
  std::string text;
  const std::vector<TuningRow>& rows = registry();
  for (std::size_t i = 0; i < rows.size() && i < values_.size(); ++i)
    text += (i ? ", " : "") + rows[i].name + " " + rows[i].format(values_[i]);
  return text;
}

Tuning resolve_tuning(const DeviceDescription& device, const Environment& environment) {
  const std::vector<TuningRow>& rows = registry();
  Tuning tuning;
  tuning.values_.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TuningRow& row = rows[i];
    std::size_t value = row.default_on(device);
    if (i < environment.tuning_overrides.size() && environment.tuning_overrides[i])
      value = *environment.tuning_overrides[i];
    tuning.values_[i] = row.fit ? row.fit(value, device) : value;
  }
  return tuning;
}

std::string tuning_listing(const Tuning& tuning, const DeviceDescription& device) {
  auto pad = [](std::string text, std::size_t width) {
    return text.size() < width ? text + std::string(width - text.size(), ' ') : text + " ";
  };
  std::string out =
      pad("module", 12) + pad("knob", 28) + pad("value", 18) + pad("default", 18) + "environment\n";
  for (const TuningRow& row : registry()) {
    out += pad(row.module, 12) + pad(row.name, 28) + pad(row.format(tuning.value(row.name)), 18) +
           pad(row.format(row.default_on(device)), 18) +
           (row.environment.empty() ? std::string("-")
                                    : row.environment + " (" + row.expected() + ")") +
           "\n" + std::string(12, ' ') + row.help + "\n";
  }
  return out;
}

}  // namespace treefix
