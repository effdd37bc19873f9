// SciPy sparse CSR matrices saved by scipy.sparse.save_npz (graph/graph_io.hpp, "npz"): members
// format ('csr'), shape (n, n), indptr and indices (int32 or int64) read through io/npz.hpp;
// values ignored. Written the way save_npz writes, so that scipy.sparse.load_npz reads ours.
#include <cstring>
#include <type_traits>

#include "graph_formats.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/npz.hpp"

namespace treefix {

namespace {

// The text of the 'format' member: a NumPy bytes ('S') or unicode ('U', UCS-4) scalar.
std::string format_text(const NpzReader& archive) {
  std::string storage;
  const std::string name = archive.describe("format");
  const std::string_view bytes = archive.member("format", storage);
  const NpyHeader h = parse_npy_header(bytes, name);
  const char* data = bytes.data() + h.data_offset;
  std::string text;
  if (h.descr.size() > 1 && h.descr[1] == 'S') {
    text.assign(data, h.item_bytes);
  } else if (h.descr.size() > 1 && h.descr[1] == 'U') {
    for (std::size_t i = 0; i + 4 <= h.item_bytes; i += 4) text += data[i];
  } else {
    throw InputError(name + ": expected a string, found dtype '" + h.descr + "'");
  }
  return text.substr(0, text.find('\0'));
}

// A 1-D integer member (int32 or int64) into `out` (int32 or int64), converted on all cores with a
// range check for narrowing; `header` was parsed from `bytes`.
template <class T>
void integers(const NpyHeader& header, std::string_view bytes, const std::string& name,
              std::vector<T>& out) {
  const auto type = header.value_type();
  if (header.shape.size() != 1 || (type != ValueType::int32 && type != ValueType::int64))
    throw InputError(name + ": expected a 1-D int32 or int64 array, found dtype '" + header.descr +
                     "' of " + std::to_string(header.shape.size()) + " dimensions");
  const std::size_t count = header.shape[0];
  const char* data = bytes.data() + header.data_offset;
  out.resize(count);
  if (header.item_bytes == sizeof(T)) return parallel_memcpy(out.data(), data, count * sizeof(T));
  const Ranges slices(count, 4 * std::size_t(host_threads()), std::size_t(1) << 16);
  std::vector<std::size_t> bad(slices.count, count);
  parallel_for(slices.count, [&](std::size_t s) {
    for (std::size_t i = slices.begin(s); i < slices.end(s); ++i) {
      std::int64_t v = 0;
      if (header.item_bytes == 4) {
        std::int32_t narrow;
        std::memcpy(&narrow, data + 4 * i, 4);
        v = narrow;
      } else {
        std::memcpy(&v, data + 8 * i, 8);
      }
      if (v < INT32_MIN || v > INT32_MAX) {
        bad[s] = i;
        return;
      }
      out[i] = static_cast<T>(v);
    }
  });
  for (std::size_t i : bad)
    if (i < count) {
      std::int64_t v;
      std::memcpy(&v, data + 8 * i, 8);
      throw InputError(name + ": element " + std::to_string(i) + " (" + std::to_string(v) +
                       ") exceeds the 32-bit vertex ids");
    }
}

}  // namespace

Csr read_npz_csr(const std::string& path, const GraphReadOptions& options) {
  std::unique_ptr<NpzReader> archive;
  detail::timed(options.phases, "read: map", [&] { archive = std::make_unique<NpzReader>(path); });
  auto require = [&](const char* name) {
    if (!archive->has(name))
      throw InputError(path + ": no '" + name + ".npy' member: not a scipy.sparse.save_npz file");
  };
  require("format");
  const std::string format = format_text(*archive);
  if (format != "csr")
    throw InputError(path + ": holds a '" + format +
                     "' matrix; save a CSR matrix (scipy.sparse.save_npz(path, m.tocsr()))");
  for (const char* name : {"shape", "indptr", "indices"}) require(name);
  std::vector<std::int64_t> shape;
  {
    std::string storage;
    const std::string_view bytes = archive->member("shape", storage);
    integers(parse_npy_header(bytes, archive->describe("shape")), bytes, archive->describe("shape"),
             shape);
  }
  if (shape.size() != 2 || shape[0] != shape[1] || shape[0] < 0)
    throw InputError(path + ": a graph needs a square matrix, this one has shape (" +
                     (shape.size() == 2 ? std::to_string(shape[0]) + ", " + std::to_string(shape[1])
                                        : std::string("...")) +
                     ")");
  const std::size_t n = static_cast<std::size_t>(shape[0]);
  // Sizes from the central directory bound what comes: checked before anything is inflated.
  const std::uint64_t index_bytes = archive->size("indices");
  const std::uint64_t arcs_at_most = index_bytes / 4;
  if (archive->size("indptr") < 4 * (static_cast<std::uint64_t>(n) + 1))
    throw InputError(path + ": 'indptr' is too short for " + std::to_string(n) +
                     " rows (a truncated file?)");
  require_graph_fits(options.limits, path, n, arcs_at_most, archive->size("indptr") + index_bytes);
  Csr g;
  detail::timed(options.phases, "read: members", [&] {
    std::string storage;
    std::string_view bytes = archive->member("indptr", storage);
    integers(parse_npy_header(bytes, archive->describe("indptr")), bytes,
             archive->describe("indptr"), g.row_offset);
    if (g.row_offset.size() != n + 1)
      throw InputError(archive->describe("indptr") + ": " + std::to_string(g.row_offset.size()) +
                       " row offsets for " + std::to_string(n) + " rows (expected n + 1)");
    bytes = archive->member("indices", storage);
    integers(parse_npy_header(bytes, archive->describe("indices")), bytes,
             archive->describe("indices"), g.column);
  });
  detail::timed(options.phases, "read: check", [&] {
    check_and_normalize(g, path);
    g.undirected = has_reverse_arcs(g);
  });
  return g;
}

void write_npz_csr(std::ostream& out, const Csr& graph, bool compress) {
  NpzWriter archive(out, compress);
  const std::size_t n = graph.vertices(), m = graph.edges();
  const std::vector<char> ones(m, 1);  // the values: a pattern, as bool
  archive.add("indices", "<i4", {m}, graph.column.data(), 4 * m);
  const std::vector<std::int64_t> empty = {0};
  const auto& offsets = graph.row_offset.empty() ? empty : graph.row_offset;
  if (m <= static_cast<std::size_t>(INT32_MAX)) {  // SciPy's choice: int32 while it fits
    std::vector<std::int32_t> narrow(offsets.begin(), offsets.end());
    archive.add("indptr", "<i4", {narrow.size()}, narrow.data(), 4 * narrow.size());
  } else {
    archive.add("indptr", "<i8", {offsets.size()}, offsets.data(), 8 * offsets.size());
  }
  archive.add("format", "|S3", {}, "csr", 3);
  const std::int64_t shape[2] = {static_cast<std::int64_t>(n), static_cast<std::int64_t>(n)};
  archive.add("shape", "<i8", {2}, shape, sizeof shape);
  archive.add("data", "|b1", {m}, ones.data(), m);
  archive.finish();
}

}  // namespace treefix
