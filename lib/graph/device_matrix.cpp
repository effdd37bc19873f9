// Sparse matrices to device graphs, normalised on the device (treefix/graph/device_matrix.hpp,
// kernels/graph/normalise.cl).
#include "treefix/graph/device_matrix.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/detail/arc_hash.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/primitives/scan.hpp"

namespace treefix {
namespace {

// int64 ids are narrowed a chunk at a time as they arrive: 16 Mi ids (128 MiB) of staging.
constexpr std::size_t kNarrowChunk = std::size_t(1) << 24;
// The sort path's counts are int: the radix sort's limit.
constexpr std::size_t kMostSorted = static_cast<std::size_t>(INT_MAX);

// Flags the check kernels set (normalise.cl's check_rows order; the id checks use [0]).
enum Flag { kBadIndex = 0, kUnsorted = 1, kRepeat = 2, kDiagonal = 3, kFlags = 4 };

Kernels normalise_kernels(Runtime& runtime, bool wide, Profile* profile) {
  return Kernels(runtime, "graph/normalise.cl", DeviceGraph::offset_option_for(wide),
                 {profile, "normalise"});
}

std::vector<cl_int> read_flags(Runtime& runtime, const cl::Buffer& flags) {
  std::vector<cl_int> value(kFlags);
  translate_device_errors("reading flags", [&] {
    runtime.queue().enqueueReadBuffer(flags, CL_TRUE, 0, kFlags * sizeof(cl_int), value.data());
  });
  return value;
}

const char* index_name(SparseLayout layout, bool rows) {
  return rows || layout == SparseLayout::csc ? "row" : "column";
}

// The messages of a failed device check, from the caller's arrays (the error path only).
[[noreturn]] void bad_offsets(const HostMatrix& m) {
  const HostIndices& o = m.offsets;
  const std::string name = m.layout == SparseLayout::csc ? "column offset" : "row offset";
  const std::int64_t entries = static_cast<std::int64_t>(m.entries());
  if (o.at(0) != 0 || o.at(m.n) != entries)
    throw InputError(m.what + ": the " + name + "s run from " + std::to_string(o.at(0)) + " to " +
                     std::to_string(o.at(m.n)) + ", not from 0 to the " + std::to_string(entries) +
                     " entries");
  for (std::size_t i = 0; i <= m.n; ++i) {
    if (o.at(i) < 0 || o.at(i) > entries)
      throw InputError(m.what + ": " + name + " " + std::to_string(i) + " (" +
                       std::to_string(o.at(i)) + ") is outside 0.." + std::to_string(entries));
    if (i > 0 && o.at(i) < o.at(i - 1))
      throw InputError(m.what + ": " + name + " " + std::to_string(i) + " (" +
                       std::to_string(o.at(i)) + ") is smaller than " + name + " " +
                       std::to_string(i - 1) + " (" + std::to_string(o.at(i - 1)) + ")");
  }
  throw InputError(m.what + ": bad " + name + "s");
}

[[noreturn]] void bad_index(const HostMatrix& m, const HostIndices& ids, const char* name) {
  const std::int64_t n = static_cast<std::int64_t>(m.n);
  for (std::size_t i = 0; i < ids.size; ++i)
    if (ids.at(i) < 0 || ids.at(i) >= n)
      throw InputError(m.what + ": entry " + std::to_string(i) + " has " + name + " index " +
                       std::to_string(ids.at(i)) + ", outside 0.." + std::to_string(n - 1));
  throw InputError(m.what + ": bad " + std::string(name) + " indices");
}

// ids into `out` (int, `ids.size` of them): int32 as they are, int64 narrowed chunk by chunk;
// flags[0] set when one is outside 0..n-1.
void upload_ids(Runtime& runtime, Kernels& k, const HostIndices& ids, const cl::Buffer& out,
                std::size_t n, bool wide_offsets, const cl::Buffer& flags, Profile* profile) {
  if (ids.size == 0) return;
  if (!ids.wide) {
    detail::write_buffer(runtime, out, ids.data, ids.size * sizeof(cl_int), profile);
    k.run("check_ids", k.grid_stride(ids.size), out, Offset{ids.size, wide_offsets},
          static_cast<cl_int>(n), flags);
    return;
  }
  const std::size_t chunk = std::min(ids.size, kNarrowChunk);
  auto staging = DeviceArray<std::int64_t>::workspace(runtime, "matrix.staging", chunk);
  const auto* wide = static_cast<const std::int64_t*>(ids.data);
  for (std::size_t base = 0; base < ids.size; base += chunk) {
    const std::size_t count = std::min(chunk, ids.size - base);
    staging.write_from(runtime, wide + base, count, 0, profile);
    k.run("ids_from_long", k.items(count), staging, out, Offset{base, wide_offsets},
          static_cast<cl_int>(count), static_cast<cl_int>(n), flags);
  }
}

// The row (column, for csc) offsets in the graph's width, checked on the device.
cl::Buffer upload_offsets(Runtime& runtime, Kernels& k, const HostMatrix& m, bool wide,
                          const cl::Buffer& flags, Profile* profile) {
  const std::size_t count = m.n + 1;
  cl::Buffer row_offset = runtime.allocate(count * (wide ? 8 : 4), "row offsets");
  const Offset entries{m.entries(), wide};
  if (m.offsets.wide) {
    auto staging = DeviceArray<std::int64_t>::workspace(runtime, "matrix.offsets", count);
    staging.write_from(runtime, static_cast<const std::int64_t*>(m.offsets.data), count, 0,
                       profile);
    k.run("offsets_from_long", k.items(count), staging, row_offset, static_cast<cl_int>(count),
          entries, flags);
  } else {
    auto staging = DeviceArray<std::int32_t>::workspace(runtime, "matrix.offsets", count);
    staging.write_from(runtime, static_cast<const std::int32_t*>(m.offsets.data), count, 0,
                       profile);
    k.run("offsets_from_int", k.items(count), staging, row_offset, static_cast<cl_int>(count),
          entries, flags);
  }
  return row_offset;
}

std::size_t value_bytes(ValueType type) {
  return type == ValueType::int32 || type == ValueType::float32 ? 4 : 8;
}

void require_sortable(std::size_t entries, const std::string& what, const char* step,
                      const char* instead) {
  if (entries > kMostSorted)
    throw CapacityError(what + ": " + step + " " + std::to_string(entries) +
                        " entries on the device is limited to 2^31 - 1 of them; " + instead);
}

// Entries (rows[i], cols[i]), i < count, sorted by row, then column, stably: the permutation,
// and the rows in sorted order.
struct SortedEntries {
  DeviceArray<std::int32_t> order, row;
};
SortedEntries sort_entries(Runtime& runtime, Kernels& k, std::size_t n, const cl::Buffer& rows,
                           const cl::Buffer& cols, std::size_t count, Profile* profile) {
  SortedEntries sorted{DeviceArray<std::int32_t>(runtime, count, "sort order"),
                       DeviceArray<std::int32_t>(runtime, count, "sort keys")};
  if (count == 0) return sorted;
  const unsigned bits = key_bits_for(n > 0 ? n - 1 : 0);
  runtime.queue().enqueueCopyBuffer(cols, sorted.row.buffer(), 0, 0, count * sizeof(cl_int));
  radix_sort_by_key(runtime, sorted.row.buffer(), sorted.order.buffer(), count, bits, true,
                    profile);
  k.run("gather_ints", k.items(count), rows, sorted.order, sorted.row,
        static_cast<cl_int>(count));
  radix_sort_by_key(runtime, sorted.row.buffer(), sorted.order.buffer(), count, bits, false,
                    profile);
  return sorted;
}

// `values` (count of `bytes` each) in sorted order.
cl::Buffer gather_values(Runtime& runtime, Kernels& k, const cl::Buffer& values,
                         std::size_t bytes, const DeviceArray<std::int32_t>& order,
                         std::size_t count) {
  cl::Buffer out = runtime.allocate(count * bytes, "matrix values");
  if (count > 0)
    k.run(bytes == 4 ? "gather_ints" : "gather_longs", k.items(count), values, order, out,
          static_cast<cl_int>(count));
  return out;
}

// The matrix from entries (rows, cols[, values]) in any order: sorted, with row offsets.
void build_sorted(Runtime& runtime, Kernels& k, DeviceMatrix& m, const cl::Buffer& rows,
                  const cl::Buffer& cols, cl::Buffer* values, Profile* profile) {
  SortedEntries sorted = sort_entries(runtime, k, m.n, rows, cols, m.entries, profile);
  const auto count = static_cast<cl_int>(m.entries);
  m.column = DeviceArray<vertex_t>(runtime, m.entries, "matrix columns");
  if (m.entries > 0) k.run("gather_ints", k.items(m.entries), cols, sorted.order, m.column, count);
  if (values) *values = gather_values(runtime, k, *values, value_bytes(m.value_type), sorted.order,
                                      m.entries);
  m.row_offset = runtime.allocate((m.n + 1) * (m.wide_offsets ? 8 : 4), "row offsets");
  k.run("offsets_from_rows", k.items(m.n + 1), sorted.row, count, static_cast<cl_int>(m.n),
        m.row_offset);
}

// The rows' check: column range, order, repeats and diagonal entries, into flags.
std::vector<cl_int> check_rows(Runtime& runtime, Kernels& k, std::size_t n,
                               const cl::Buffer& row_offset, const cl::Buffer& column,
                               std::size_t entries, bool wide, const cl::Buffer& flags) {
  fill(runtime, flags, cl_int(0), kFlags);
  if (entries > 0)
    k.run("check_rows", k.grid_stride(entries), row_offset, column, static_cast<cl_int>(n),
          Offset{entries, wide}, flags);
  return read_flags(runtime, flags);
}

// The arcs of a CSR that mark_kept keeps (neither diagonal nor repeats), moved together.
DeviceGraph compact_graph(Runtime& runtime, Kernels& k, std::size_t n,
                          const cl::Buffer& row_offset, const cl::Buffer& column,
                          std::size_t arcs, bool wide, bool undirected, const std::string& what,
                          Profile* profile) {
  require_sortable(arcs + 1, what, "dropping the diagonal and repeats of",
                   "sum the duplicates and drop the diagonal on the host first");
  DeviceArray<std::int32_t> position(runtime, arcs + 1, "kept arcs");
  fill(runtime, position.buffer(), cl_int(0), 1, {profile, "normalise"}, arcs);
  if (arcs > 0)
    k.run("mark_kept", k.grid_stride(arcs), row_offset, column, static_cast<cl_int>(n),
          Offset{arcs, wide}, position);
  scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, position.buffer(),
       position.buffer(), arcs + 1, profile, "normalise");
  const auto kept = static_cast<std::size_t>(read_value<cl_int>(runtime, position.buffer(), arcs));
  cl::Buffer new_column = runtime.allocate(kept * sizeof(cl_int), "graph columns");
  cl::Buffer new_offset = runtime.allocate((n + 1) * (wide ? 8 : 4), "row offsets");
  if (arcs > 0)
    k.run("compact_columns", k.items(arcs), column, position, static_cast<cl_int>(arcs),
          new_column);
  k.run("compact_offsets", k.items(n + 1), row_offset, position, static_cast<cl_int>(n),
        new_offset);
  return DeviceGraph(n, kept, wide, undirected, new_offset, new_column);
}

}  // namespace

DeviceMatrix upload_matrix(Runtime& runtime, const HostMatrix& h, const MatrixUpload& options) {
  if (h.n >= static_cast<std::size_t>(INT_MAX))
    throw CapacityError(h.what + ": " + std::to_string(h.n) +
                        " vertices; vertex ids are 32-bit (at most " +
                        std::to_string(INT_MAX - 1) + ")");
  if (options.values && !h.values && h.entries() > 0)
    throw InputError(h.what + ": values asked for, but the matrix has none");
  const std::string doing = "uploading " + h.what;
  return translate_device_errors(doing.c_str(), [&] {
    Profile* profile = options.profile;
    DeviceMatrix m;
    m.n = h.n;
    m.entries = h.entries();
    m.wide_offsets =
        options.width == OffsetWidth::wide || DeviceGraph::needs_wide_offsets(m.entries);
    m.has_values = options.values;
    m.value_type = h.value_type;
    Kernels k = normalise_kernels(runtime, m.wide_offsets, profile);
    cl::Buffer flags = runtime.allocate(kFlags * sizeof(cl_int), "check flags");
    fill(runtime, flags, cl_int(0), kFlags);
    const bool transposed = h.layout == SparseLayout::csc && options.transpose_ok;
    const bool as_rows = h.layout == SparseLayout::csr || transposed;
    m.transposed = transposed;

    // The index arrays, checked; the values as they are.
    cl::Buffer stored_offset;
    if (h.layout != SparseLayout::coo) {
      if (h.offsets.size != h.n + 1)
        throw InputError(h.what + ": " + std::to_string(h.offsets.size) + " offsets for " +
                         std::to_string(h.n) + " rows (expected n + 1)");
      stored_offset = upload_offsets(runtime, k, h, m.wide_offsets, flags, profile);
      if (read_flags(runtime, flags)[kBadIndex]) bad_offsets(h);
    }
    DeviceArray<vertex_t> indices(runtime, m.entries, "matrix indices");
    upload_ids(runtime, k, h.indices, indices.buffer(), h.n, m.wide_offsets, flags, profile);
    if (read_flags(runtime, flags)[kBadIndex]) bad_index(h, h.indices, index_name(h.layout, false));
    cl::Buffer values;
    if (options.values) {
      values = runtime.allocate(m.entries * value_bytes(h.value_type), "matrix values");
      if (m.entries > 0)
        detail::write_buffer(runtime, values, h.values, m.entries * value_bytes(h.value_type),
                             profile);
    }
    cl::Buffer* carried = options.values ? &values : nullptr;

    if (as_rows) {
      // Rows in order (the common case) keep the buffers as they came.
      const std::vector<cl_int> flag = check_rows(runtime, k, m.n, stored_offset,
                                                  indices.buffer(), m.entries, m.wide_offsets,
                                                  flags);
      if (!flag[kUnsorted]) {
        m.row_offset = stored_offset;
        m.column = indices;
        if (options.values) m.values = values;
        m.has_repeats = flag[kRepeat];
        m.has_diagonal = flag[kDiagonal];
        return m;
      }
      require_sortable(m.entries, h.what, "sorting the rows of", "sort them on the host first");
      DeviceArray<std::int32_t> row(runtime, m.entries, "entry rows");
      k.run("arc_rows", k.grid_stride(m.entries), stored_offset, static_cast<cl_int>(m.n),
            m.offset(m.entries), row);
      build_sorted(runtime, k, m, row.buffer(), indices.buffer(), carried, profile);
    } else {
      require_sortable(m.entries, h.what, "sorting", "convert it to csr on the host first");
      DeviceArray<std::int32_t> row(runtime, m.entries, "entry rows");
      if (h.layout == SparseLayout::coo) {
        if (h.rows.size != m.entries)
          throw InputError(h.what + ": " + std::to_string(h.rows.size) + " row indices for " +
                           std::to_string(m.entries) + " column indices");
        upload_ids(runtime, k, h.rows, row.buffer(), h.n, m.wide_offsets, flags, profile);
        if (read_flags(runtime, flags)[kBadIndex]) bad_index(h, h.rows, "row");
        build_sorted(runtime, k, m, row.buffer(), indices.buffer(), carried, profile);
      } else {  // csc: the stored indices are rows; each entry's column is its stored row
        if (m.entries > 0)
          k.run("arc_rows", k.grid_stride(m.entries), stored_offset, static_cast<cl_int>(m.n),
                m.offset(m.entries), row);
        build_sorted(runtime, k, m, indices.buffer(), row.buffer(), carried, profile);
      }
    }
    if (options.values) m.values = values;
    const std::vector<cl_int> flag = check_rows(runtime, k, m.n, m.row_offset, m.column.buffer(),
                                                m.entries, m.wide_offsets, flags);
    m.has_repeats = flag[kRepeat];
    m.has_diagonal = flag[kDiagonal];
    return m;
  });
}

bool device_has_reverse_arcs(Runtime& runtime, const DeviceGraph& graph, Profile* profile) {
  // The host's test (graph/detail/arc_hash.hpp), summed on the device: a fresh key per call, so
  // that no input can be made to collide.
  return detail::arc_sums(runtime, graph, 0, detail::ArcKey::fresh(), profile).symmetric();
}

DeviceGraph pattern_graph(Runtime& runtime, const DeviceMatrix& m, Profile* profile) {
  return translate_device_errors("graph of a matrix", [&] {
    DeviceGraph graph;
    if (!m.has_repeats && !m.has_diagonal) {
      graph = DeviceGraph(m.n, m.entries, m.wide_offsets, false, m.row_offset, m.column.buffer());
    } else {
      Kernels k = normalise_kernels(runtime, m.wide_offsets, profile);
      graph = compact_graph(runtime, k, m.n, m.row_offset, m.column.buffer(), m.entries,
                            m.wide_offsets, false, "the graph of a matrix", profile);
    }
    const bool undirected = device_has_reverse_arcs(runtime, graph, profile);
    return DeviceGraph(graph.vertices(), graph.arcs(), graph.wide_offsets(), undirected,
                       graph.row_offset(), graph.column());
  });
}

DeviceGraph undirected_graph(Runtime& runtime, const DeviceGraph& g, Profile* profile) {
  if (g.undirected()) return g;
  const std::size_t n = g.vertices(), arcs = g.arcs(), both = 2 * arcs;
  require_sortable(both, "a graph of " + std::to_string(arcs) + " arcs", "symmetrising",
                   "symmetrise it on the host first (A + A.T)");
  return translate_device_errors("symmetrising a graph", [&] {
    Kernels k = normalise_kernels(runtime, g.wide_offsets(), profile);
    DeviceArray<std::int32_t> row(runtime, both, "arc pairs"), col(runtime, both, "arc pairs");
    if (arcs > 0)
      k.run("both_directions", k.grid_stride(arcs), g.row_offset(), g.column(),
            static_cast<cl_int>(n), g.offset(arcs), row, col);
    DeviceMatrix m;
    m.n = n;
    m.entries = both;
    m.wide_offsets = g.wide_offsets();
    build_sorted(runtime, k, m, row.buffer(), col.buffer(), nullptr, profile);
    row = DeviceArray<std::int32_t>();  // freed before the compacted copy
    col = DeviceArray<std::int32_t>();
    return compact_graph(runtime, k, n, m.row_offset, m.column.buffer(), both, m.wide_offsets,
                         true, "a symmetrised graph", profile);
  });
}

Csr download_graph(Runtime& runtime, const DeviceGraph& graph) {
  Csr g;
  const std::size_t n = graph.vertices();
  g.undirected = graph.undirected();
  g.row_offset.resize(n + 1);
  if (graph.wide_offsets()) {
    detail::read_buffer(runtime, graph.row_offset(), g.row_offset.data(), (n + 1) * 8, nullptr);
  } else {
    std::vector<std::int32_t> narrow(n + 1);
    detail::read_buffer(runtime, graph.row_offset(), narrow.data(), (n + 1) * 4, nullptr);
    std::copy(narrow.begin(), narrow.end(), g.row_offset.begin());
  }
  g.column.resize(graph.arcs());
  if (!g.column.empty())
    detail::read_buffer(runtime, graph.column(), g.column.data(), g.column.size() * 4, nullptr);
  return g;
}

HostMatrix host_matrix_of(const Csr& graph, const std::string& what) {
  static const std::int64_t empty_offsets[1] = {0};
  HostMatrix h;
  h.layout = SparseLayout::csr;
  h.n = graph.vertices();
  h.offsets = {graph.row_offset.empty() ? empty_offsets : graph.row_offset.data(), h.n + 1, true};
  h.indices = {graph.column.data(), graph.column.size(), false};
  h.what = what;
  return h;
}

}  // namespace treefix
