// Minimum spanning forests on the device (treefix/graph/minimum_spanning_tree.hpp): the ranking
// sorts, then Borůvka's rounds of kernels/graph/mst.cl with one read of two counters per round.
#include "treefix/graph/minimum_spanning_tree.hpp"

#include <climits>
#include <cstdint>
#include <string>
#include <utility>

#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/radix_sort.hpp"

namespace treefix {
namespace {

void require_rankable(const DeviceMatrix& m) {
  if (!m.has_values)
    throw InputError("minimum spanning forest: the matrix was uploaded without its values");
  if (m.entries >= static_cast<std::size_t>(INT_MAX))
    throw CapacityError("minimum spanning forest of a matrix of " + std::to_string(m.entries) +
                        " entries: entries are ranked with 32-bit indices (at most " +
                        std::to_string(INT_MAX - 1) + ")");
}

bool wide_values(ValueType type) { return type == ValueType::int64 || type == ValueType::float64; }

// The rows (for listed entries, or every entry) and columns of the matrix's entries, as the
// matrix holds them (A^T's when transposed).
DeviceArray<vertex_t> rows_of(Runtime& runtime, Kernels& normalise, const DeviceMatrix& m,
                              const DeviceArray<vertex_t>* listed, std::size_t count) {
  DeviceArray<vertex_t> row(runtime, count, "entry rows");
  if (count == 0) return row;
  if (listed)
    normalise.run("entry_rows", normalise.items(count), m.row_offset, static_cast<cl_int>(m.n),
                  *listed, static_cast<cl_int>(count), row);
  else
    normalise.run("arc_rows", normalise.grid_stride(count), m.row_offset,
                  static_cast<cl_int>(m.n), m.offset(count), row);
  return row;
}

DeviceArray<vertex_t> gathered(Runtime& runtime, Kernels& normalise, const cl::Buffer& from,
                               const DeviceArray<vertex_t>& order, std::size_t count) {
  DeviceArray<vertex_t> to(runtime, count, "gathered ids");
  if (count > 0)
    normalise.run("gather_ints", normalise.items(count), from, order, to,
                  static_cast<cl_int>(count));
  return to;
}

}  // namespace

std::string matrix_value_options(const DeviceMatrix& m) {
  const char* flavour[] = {"-DVALUE_INT32", "-DVALUE_INT64", "-DVALUE_FLOAT32", "-DVALUE_FLOAT64"};
  return std::string("-DVALUE_T=") + opencl_type_name(m.value_type) + " " +
         flavour[static_cast<int>(m.value_type)] + " " + m.offset_option();
}

EdgeRanks rank_edges(Runtime& runtime, const DeviceMatrix& m, Profile* profile) {
  require_rankable(m);
  return translate_device_errors("ranking edges", [&] {
    const Phase phase{profile, "mst rank"};
    const std::size_t count = m.entries;
    Kernels normalise(runtime, "graph/normalise.cl", m.offset_option(), phase);
    Kernels mst(runtime, "graph/mst.cl", "", phase);
    Kernels values(runtime, "graph/matrix_values.cl", matrix_value_options(m), phase);
    EdgeRanks ranks;
    ranks.entry = DeviceArray<vertex_t>(runtime, count, "edge ranks");
    if (count == 0) return ranks;
    // Each entry's true row and column (the transpose's swapped back).
    DeviceArray<vertex_t> row = rows_of(runtime, normalise, m, nullptr, count);
    DeviceArray<vertex_t> column = m.column;
    if (m.transposed) std::swap(row, column);
    // Stable sorts from the least significant key: the side, the larger end, the smaller end,
    // the weight's low and high words. Stored order decides what is left.
    DeviceArray<cl_uint> key(runtime, count, "rank keys");
    const cl_int n = static_cast<cl_int>(count);
    mst.run("identity_order", mst.items(count), ranks.entry, n);
    const unsigned id_bits = key_bits_for(m.n > 0 ? m.n - 1 : 0);
    for (int which = 0; which < 3; ++which) {
      mst.run("edge_key", mst.items(count), row, column, ranks.entry, n, cl_int(which), key);
      radix_sort_by_key(runtime, key.buffer(), ranks.entry.buffer(), count,
                        which == 0 ? 1 : id_bits, false, profile);
    }
    for (int word = 0; word < (wide_values(m.value_type) ? 2 : 1); ++word) {
      values.run("weight_word", values.items(count), m.values, ranks.entry, n, cl_int(word), key);
      radix_sort_by_key(runtime, key.buffer(), ranks.entry.buffer(), count, 32, false, profile);
    }
    ranks.src = gathered(runtime, normalise, row.buffer(), ranks.entry, count);
    ranks.dst = gathered(runtime, normalise, column.buffer(), ranks.entry, count);
    return ranks;
  });
}

std::vector<double> entry_values(Runtime& runtime, const DeviceMatrix& m,
                                 const DeviceArray<vertex_t>& entry, std::size_t count) {
  std::vector<double> out(count);
  if (count == 0) return out;
  Kernels normalise(runtime, "graph/normalise.cl", m.offset_option(), {});
  const bool wide = wide_values(m.value_type);
  cl::Buffer picked = runtime.allocate(count * (wide ? 8 : 4), "entry values");
  normalise.run(wide ? "gather_longs" : "gather_ints", normalise.items(count), m.values, entry,
                picked, static_cast<cl_int>(count));
  visit_value_type(m.value_type, [&](auto zero) {
    using T = decltype(zero);
    std::vector<T> typed(count);
    detail::read_buffer(runtime, picked, typed.data(), count * sizeof(T), nullptr);
    for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<double>(typed[i]);
  });
  return out;
}

SpanningForest minimum_spanning_forest(Runtime& runtime, const DeviceMatrix& m,
                                       const EdgeRanks& ranks, Profile* profile) {
  require_rankable(m);
  if (ranks.edges() != m.entries)
    throw InputError("minimum spanning forest: ranks of " + std::to_string(ranks.edges()) +
                     " edges for a matrix of " + std::to_string(m.entries) + " entries");
  return translate_device_errors("minimum spanning forest", [&] {
    const Phase phase{profile, "mst"};
    const std::size_t n = m.n, edges = m.entries;
    SpanningForest out;
    if (n == 0) return out;
    Kernels mst(runtime, "graph/mst.cl", "", phase);
    const cl_int vertices = static_cast<cl_int>(n);
    DeviceArray<vertex_t> comp(runtime, n, "mst components"), parent(runtime, n, "mst union-find"),
        best(runtime, n, "mst lightest edges"), forest(runtime, n, "mst forest");
    DeviceArray<vertex_t> listed(runtime, edges, "mst edge list"),
        next(runtime, edges, "mst edge list");
    // counters[0]: the next edge list's length; [1]: the forest's edges so far.
    DeviceArray<cl_uint> counters(runtime, 2, "mst counters");
    fill(runtime, counters.buffer(), cl_uint(0), 2, phase);
    mst.run("mst_start", mst.items(n), comp, parent, vertices);
    const Grid over_vertices = mst.grid_stride(n);
    std::size_t live = edges, trees = 0;
    for (bool every_rank = true; live > 0; every_rank = false) {
      ++out.rounds;
      fill(runtime, best.buffer(), cl_int(INT_MAX), n, phase);
      fill(runtime, counters.buffer(), cl_uint(0), 1, phase);
      mst.run("mst_lightest", mst.grid_stride(live), listed, cl_int(every_rank),
              static_cast<cl_uint>(live), ranks.src, ranks.dst, comp, best, next, counters);
      mst.run("mst_hook", over_vertices, best, ranks.src, ranks.dst, ranks.entry, comp, parent,
              forest, static_cast<cl_uint>(n), counters);
      cl_uint counter[2];
      counters.read_into(runtime, counter, 2);
      if (counter[1] == trees) break;  // no component had an edge to another
      trees = counter[1];
      mst.run("mst_compress", mst.items(n), comp, parent, vertices);
      live = counter[0];
      std::swap(listed, next);
    }
    out.components = n - trees;
    // The forest's entries in CSR order, then their rows, columns and values.
    if (trees > 0) {
      DeviceArray<vertex_t> unused(runtime, trees, "mst forest order");
      radix_sort_by_key(runtime, forest.buffer(), unused.buffer(), trees,
                        key_bits_for(edges - 1), true, profile);
    }
    Kernels normalise(runtime, "graph/normalise.cl", m.offset_option(), phase);
    DeviceArray<vertex_t> row = rows_of(runtime, normalise, m, &forest, trees);
    DeviceArray<vertex_t> column = gathered(runtime, normalise, m.column.buffer(), forest, trees);
    if (m.transposed) std::swap(row, column);
    out.row.resize(trees);
    out.column.resize(trees);
    row.read_into(runtime, out.row.data(), trees);
    column.read_into(runtime, out.column.data(), trees);
    out.value = entry_values(runtime, m, forest, trees);
    return out;
  });
}

SpanningForest minimum_spanning_forest(Runtime& runtime, const DeviceMatrix& m,
                                       Profile* profile) {
  return minimum_spanning_forest(runtime, m, rank_edges(runtime, m, profile), profile);
}

}  // namespace treefix
