// RuleML files read into a forest on the device (treefix/forest/device_forest.hpp): the bytes
// read on host threads (forest/ruleml_bytes.hpp) go up in one staged transfer, and
// kernels/forest/ruleml_parse.cl turns them into the forest's arrays. Where the device gives up on
// any file, the host reader reads the input (its forest uploaded, or its error thrown).
//
// Why the device: from files on disk, the host's reading (open, read, close: about 6 us a file on
// one thread) cannot be avoided, but pugixml's parse and the walk of its DOM (about 4-5 us a file)
// can: the device scans all 10^5 files at once, in about the time it takes to receive them.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>

#include "forest/ruleml_bytes.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/forest/device_forest.hpp"

namespace treefix {

namespace detail {

// A label's id: on the device, the occurrence that claimed its slot in the table; on the host,
// the interner's id.
struct DeviceLabels {
  // device
  DeviceArray<char> bytes;
  DeviceArray<std::uint32_t> span_at, span_length, hash, table;
  std::uint32_t mask = 0;
  // host
  Interner interner;
  bool on_device = false;
};

}  // namespace detail

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The scanner's limits, shared with the kernel: past them the host reader decides.
constexpr int max_depth = 32;
constexpr int max_siblings = 64;

std::string kernel_options() {
  return "-DMAX_DEPTH=" + std::to_string(max_depth) +
         " -DMAX_SIBLINGS=" + std::to_string(max_siblings) +
         " -DWEIGHT_TOLERANCE=" + std::to_string(weight_tolerance);
}

std::size_t power_of_two_above(std::size_t n) {
  std::size_t p = 1;
  while (p <= n) p <<= 1;
  return p;
}

// The device's forest of the files, or an empty pointer where the device gives up.
std::unique_ptr<DeviceSemanticForest> parse_on_device(Runtime& rt, detail::RuleMLBytes& files,
                                                      DeviceForestTimes& times, Profile* profile) {
  const std::size_t count = files.names.size();
  const std::uint64_t total = files.total();
  // Positions are 32-bit in the kernels; the scan needs double precision.
  if (!rt.description().fp64 || total >= std::numeric_limits<std::uint32_t>::max() ||
      count >= std::numeric_limits<std::int32_t>::max())
    return nullptr;
  rt.require_fits("the bytes of " + std::to_string(count) + " RuleML files",
                  total + 2 * count * sizeof(std::uint32_t), total);

  Clock::time_point start = Clock::now();
  auto labels = std::make_shared<detail::DeviceLabels>();
  labels->on_device = true;
  labels->bytes = DeviceArray<char>(rt, total, "RuleML bytes");
  std::vector<detail::HostPiece> pieces;
  pieces.reserve(files.chunks.size());
  for (const std::string& chunk : files.chunks) pieces.push_back({chunk.data(), chunk.size()});
  detail::write_buffer_gather(rt, labels->bytes.buffer(), pieces, profile);
  std::vector<std::uint32_t> begin(files.file_begin.begin(), files.file_begin.end());
  std::vector<std::uint32_t> end(files.file_end.begin(), files.file_end.end());
  auto file_begin = DeviceArray<std::uint32_t>::upload(rt, begin, profile, "RuleML file starts");
  auto file_end = DeviceArray<std::uint32_t>::upload(rt, end, profile, "RuleML file ends");
  times.upload_ms = ms_since(start);

  start = Clock::now();
  Kernels k(rt, "forest/ruleml_parse.cl", kernel_options(), {profile, "parse"});
  const auto files_arg = static_cast<cl_uint>(count);
  std::vector<std::uint32_t> node_count;
  {
    DeviceArray<std::uint32_t> counts(rt, count, "RuleML node counts");
    translate_device_errors("RuleML scan", [&] {
      k.run("ruleml_measure", k.items(count), labels->bytes, file_begin, file_end, files_arg,
            counts);
    });
    node_count = counts.download(rt, profile);
  }
  std::vector<std::int32_t> bounds(count + 1, 0);
  std::uint64_t nodes = 0;
  for (std::size_t j = 0; j < count; ++j) {
    if (node_count[j] == 0) {  // the scanner gave up on file j
      times.parse_ms = ms_since(start);
      return nullptr;
    }
    bounds[j] = static_cast<std::int32_t>(nodes);
    nodes += node_count[j];
    // two label occurrences a node, numbered in 31 bits
    if (2 * nodes >= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
      return nullptr;
  }
  bounds[count] = static_cast<std::int32_t>(nodes);
  const std::size_t n = nodes, occurrences = 2 * n;
  const std::size_t slots = power_of_two_above(occurrences);  // at most half full
  rt.require_fits("a forest of " + std::to_string(n) + " nodes parsed on the device",
                  total + n * (5 * 4 + 2 * 4 + 8 + 4 + 3 * 4) + occurrences * 12 + slots * 4,
                  std::max(total, slots * 4));

  auto out = std::make_unique<DeviceSemanticForest>();
  out->trees = count;
  out->nodes = n;
  out->parsed_on_device = true;
  out->bounds = DeviceArray<std::int32_t>::upload(rt, bounds, profile, "forest bounds");
  DeviceArray<std::int32_t> parent(rt, n, "forest parents");
  labels->span_at = DeviceArray<std::uint32_t>(rt, occurrences, "label spans");
  labels->span_length = DeviceArray<std::uint32_t>(rt, occurrences, "label lengths");
  labels->hash = DeviceArray<std::uint32_t>(rt, occurrences, "label hashes");
  labels->table = DeviceArray<std::uint32_t>(rt, slots, "label table");
  labels->mask = static_cast<std::uint32_t>(slots - 1);
  DeviceArray<double> raw_weight(rt, n, "raw weights");
  out->first_child = DeviceArray<std::int32_t>(rt, n, "first children");
  out->next_sibling = DeviceArray<std::int32_t>(rt, n, "next siblings");
  out->label = DeviceArray<std::int32_t>(rt, n, "labels");
  out->arc = DeviceArray<std::int32_t>(rt, n, "arcs");
  out->weight = DeviceArray<float>(rt, n, "weights");
  DeviceArray<std::int32_t> bad(rt, 1, "forest check");
  const auto n_arg = static_cast<cl_uint>(n), occurrences_arg = static_cast<cl_uint>(occurrences);
  translate_device_errors("RuleML forest on the device", [&] {
    const Phase phase{profile, "parse"};
    fill(rt, out->first_child.buffer(), cl_int(-1), n, phase);
    fill(rt, labels->table.buffer(), cl_uint(0), slots, phase);
    fill(rt, bad.buffer(), cl_int(0), 1, phase);
    k.run("ruleml_write", k.items(count), labels->bytes, file_begin, file_end, files_arg,
          out->bounds, parent, labels->span_at, labels->span_length, raw_weight);
    k.run("forest_links", k.items(n), parent, n_arg, out->first_child, out->next_sibling);
    k.run("label_hash", k.items(occurrences), labels->bytes, labels->span_at, labels->span_length,
          occurrences_arg, labels->hash);
    k.run("label_intern", k.items(occurrences), labels->bytes, labels->span_at, labels->span_length,
          labels->hash, occurrences_arg, labels->table, labels->mask, out->label, out->arc);
    k.run("forest_weights", k.items(n), parent, out->first_child, out->next_sibling, out->arc,
          raw_weight, n_arg, out->weight, bad);
  });
  const bool refused = read_value<std::int32_t>(rt, bad.buffer()) != 0;
  times.parse_ms = ms_since(start);
  if (refused) return nullptr;
  out->labels_ = std::move(labels);
  return out;
}

}  // namespace

DeviceSemanticForest upload_forest(Runtime& rt, const NamedSemanticForest& named,
                                   const Interner& labels, Profile* profile) {
  const SemanticForest& f = named.forest;
  DeviceSemanticForest out;
  out.names = named.names;
  out.trees = f.trees();
  out.nodes = f.size();
  std::vector<std::int32_t> bounds(f.shape.head.begin(), f.shape.head.end());
  bounds.push_back(static_cast<std::int32_t>(f.size()));
  out.bounds = DeviceArray<std::int32_t>::upload(rt, bounds, profile, "forest bounds");
  out.first_child = DeviceArray<std::int32_t>::upload(rt, f.shape.first_child, profile);
  out.next_sibling = DeviceArray<std::int32_t>::upload(rt, f.shape.next_sibling, profile);
  out.label = DeviceArray<std::int32_t>::upload(rt, f.label, profile);
  out.arc = DeviceArray<std::int32_t>::upload(rt, f.arc, profile);
  out.weight = DeviceArray<float>::upload(rt, f.weight, profile);
  auto host = std::make_shared<detail::DeviceLabels>();
  host->interner = labels;
  out.labels_ = std::move(host);
  return out;
}

DeviceSemanticForest read_ruleml_forest_on_device(Runtime& rt, const std::string& dir_or_file,
                                                  unsigned threads, DeviceForestTimes* times,
                                                  Profile* profile) {
  DeviceForestTimes local;
  DeviceForestTimes& t = times ? *times : local;
  t = DeviceForestTimes{};
  detail::RuleMLBytes files = detail::read_ruleml_bytes(dir_or_file, threads);
  t.list_ms = files.list_ms;
  t.read_ms = files.read_ms;
  t.names_ms = files.names_ms;
  t.read_thread_ms = files.read_thread_ms;
  if (!files.names.empty()) {
    if (auto forest = parse_on_device(rt, files, t, profile)) {
      forest->names = std::move(files.names);
      return std::move(*forest);
    }
  }
  // The device gave up on some file (or there is none): the host reader reads them all, and
  // reports what is wrong.
  const Clock::time_point start = Clock::now();
  files = detail::RuleMLBytes{};
  Interner interner;
  const NamedSemanticForest forest = read_ruleml_forest(dir_or_file, interner, threads);
  DeviceSemanticForest out = upload_forest(rt, forest, interner, profile);
  t.host_reader_ms = ms_since(start);
  return out;
}

std::vector<std::int32_t> DeviceSemanticForest::label_ids(
    Runtime& rt, const std::vector<std::string>& queries) const {
  std::vector<std::int32_t> ids(queries.size(), -1);
  if (!labels_ || queries.empty()) return ids;
  if (!labels_->on_device) {
    for (std::size_t q = 0; q < queries.size(); ++q) ids[q] = labels_->interner.find(queries[q]);
    return ids;
  }
  std::vector<char> bytes;
  std::vector<std::uint32_t> at(queries.size()), length(queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) {
    at[q] = static_cast<std::uint32_t>(bytes.size());
    length[q] = static_cast<std::uint32_t>(queries[q].size());
    bytes.insert(bytes.end(), queries[q].begin(), queries[q].end());
  }
  const auto query = DeviceArray<char>::upload(rt, bytes);
  const auto query_at = DeviceArray<std::uint32_t>::upload(rt, at);
  const auto query_length = DeviceArray<std::uint32_t>::upload(rt, length);
  DeviceArray<std::int32_t> found(rt, queries.size(), "label ids");
  Kernels k(rt, "forest/ruleml_parse.cl", kernel_options());
  translate_device_errors("label lookup", [&] {
    k.run("label_find", k.items(queries.size()), labels_->bytes, labels_->span_at,
          labels_->span_length, labels_->hash, labels_->table, labels_->mask, query, query_at,
          query_length, static_cast<cl_uint>(queries.size()), found);
  });
  return found.download(rt);
}

}  // namespace treefix
