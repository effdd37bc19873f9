// Sparse matrices normalised on the device (graph/device_matrix.hpp) against the host CSR
// builders: csr rows in and out of order, repeats and the diagonal, coo and csc layouts, int32 and
// int64 index arrays, 32- and 64-bit row offsets, symmetry checks and symmetrisation, values
// carried through the sort, and bad arrays refused with the first bad entry named.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "graph_families.hpp"
#include "sparse_entries.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/detail/arc_hash.hpp"
#include "treefix/graph/device_matrix.hpp"

using namespace treefix;
using test::Entries;
using test::random_entries;
using test::csr_of;
using test::HostCsr;

namespace {

// The reference: stored entries sorted stably by (row, column).
std::vector<std::size_t> sorted_entries(const Entries& e) {
  std::vector<std::size_t> order(e.row.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return e.row[a] != e.row[b] ? e.row[a] < e.row[b] : e.col[a] < e.col[b];
  });
  return order;
}

void check_same_graph(const Csr& got, const Csr& expected) {
  CHECK(got.row_offset == expected.row_offset);
  CHECK(got.column == expected.column);
}

std::vector<double> download_values(const DeviceMatrix& m) {
  std::vector<double> v(m.entries);
  if (!v.empty()) detail::read_buffer(test::runtime(), m.values, v.data(), 8 * v.size(), nullptr);
  return v;
}

std::vector<std::int64_t> widened(const std::vector<std::int32_t>& v) {
  return std::vector<std::int64_t>(v.begin(), v.end());
}

// The arcs u -> v with u < v alone: a directed graph whose undirected graph is `graph`'s.
Csr upper_half(const Csr& graph) {
  std::vector<vertex_t> from, to;
  for (std::size_t v = 0; v < graph.vertices(); ++v)
    for (auto a = graph.row_offset[v]; a < graph.row_offset[v + 1]; ++a)
      if (graph.column[a] > static_cast<vertex_t>(v)) {
        from.push_back(static_cast<vertex_t>(v));
        to.push_back(graph.column[a]);
      }
  return csr_from_edges(graph.vertices(), from, to, false);
}

}  // namespace

TEST_CASE("matrices of every layout and index width become the host's CSR on the device") {
  auto& rt = test::runtime();
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(97),
                        std::size_t(4099)}) {
    for (std::size_t m : {std::size_t(0), std::size_t(1), std::size_t(7), 3 * n + 1}) {
      if (n == 0 && m > 0) continue;
      const Entries e = random_entries(n, m, 31 * n + m);
      const Csr expected = csr_from_edges(n, e.row, e.col, false);  // rows sorted, merged
      const std::vector<std::size_t> order = sorted_entries(e);
      const HostCsr stored = csr_of(e);
      const std::vector<std::int32_t> offset32(stored.offset.begin(), stored.offset.end());
      const std::vector<std::int64_t> column64 = widened(stored.column);
      const std::vector<std::int64_t> row64 = widened(e.row), col64 = widened(e.col);
      for (int layout = 0; layout < 3; ++layout)
        for (bool wide_ids : {false, true})
          for (OffsetWidth width : {OffsetWidth::fit, OffsetWidth::wide}) {
            CAPTURE(n);
            CAPTURE(m);
            CAPTURE(layout);
            CAPTURE(wide_ids);
            HostMatrix h;
            h.n = n;
            h.values = layout == 2 ? e.value.data() : stored.value.data();
            if (layout == 0) {  // csr, int32 or int64 offsets and columns
              h.layout = SparseLayout::csr;
              h.offsets = wide_ids ? HostIndices{stored.offset.data(), n + 1, true}
                                   : HostIndices{offset32.data(), n + 1, false};
              h.indices = wide_ids ? HostIndices{column64.data(), m, true}
                                   : HostIndices{stored.column.data(), m, false};
            } else if (layout == 1) {  // csc of the transpose: the same stored arrays
              h.layout = SparseLayout::csc;
              h.offsets = HostIndices{stored.offset.data(), n + 1, true};
              h.indices = wide_ids ? HostIndices{column64.data(), m, true}
                                   : HostIndices{stored.column.data(), m, false};
            } else {  // coo
              h.layout = SparseLayout::coo;
              h.rows = wide_ids ? HostIndices{row64.data(), m, true}
                                : HostIndices{e.row.data(), m, false};
              h.indices = wide_ids ? HostIndices{col64.data(), m, true}
                                   : HostIndices{e.col.data(), m, false};
            }
            MatrixUpload options;
            options.values = true;
            options.width = width;
            DeviceMatrix dm = upload_matrix(rt, h, options);
            CHECK(dm.wide_offsets == (width == OffsetWidth::wide));
            const Csr graph = download_graph(rt, pattern_graph(rt, dm));
            if (layout == 1) {
              // The csc holds A^T: its graph is the transpose of `expected`, sorted.
              const Csr transposed = csr_from_edges(n, e.col, e.row, false);
              check_same_graph(graph, transposed);
            } else {
              check_same_graph(graph, expected);
              // Values follow their entries through the sort, repeats in stored order.
              std::vector<double> want(m);
              for (std::size_t i = 0; i < m; ++i) want[i] = e.value[order[i]];
              CHECK(download_values(dm) == want);
            }
            CHECK(graph.undirected == (expected.row_offset == symmetrized(expected).row_offset &&
                                       expected.column == symmetrized(expected).column));
          }
    }
  }
}

TEST_CASE("a csc matrix taken as it lies holds the transpose; its undirected graph is A's") {
  auto& rt = test::runtime();
  const Entries e = random_entries(257, 900, 5);
  const HostCsr stored = csr_of(e);  // read as csc: column v holds rows e.col of row-v entries
  HostMatrix h;
  h.layout = SparseLayout::csc;
  h.n = e.n;
  h.offsets = {stored.offset.data(), e.n + 1, true};
  h.indices = {stored.column.data(), stored.column.size(), false};
  MatrixUpload options;
  options.transpose_ok = true;
  DeviceMatrix dm = upload_matrix(rt, h, options);
  CHECK(dm.transposed);
  const DeviceGraph undirected = undirected_graph(rt, pattern_graph(rt, dm));
  CHECK(undirected.undirected());
  const Csr expected = csr_from_edges(e.n, e.row, e.col, true);
  check_same_graph(download_graph(rt, undirected), expected);
}

TEST_CASE("symmetrisation on the device equals the host's, on every graph family") {
  auto& rt = test::runtime();
  for (const auto& [name, graph] : test::graph_families()) {
    const auto name_shown = name;  // CAPTURE copies no structured binding (C++17)
    CAPTURE(name_shown);
    const Csr half = upper_half(graph);
    const DeviceGraph on_device = pattern_graph(rt, upload_matrix(rt, host_matrix_of(half, name)));
    CHECK(on_device.undirected() == (half.edges() == 0));
    const DeviceGraph both = undirected_graph(rt, on_device);
    const Csr expected = symmetrized(half);
    check_same_graph(download_graph(rt, both), expected);
    // The graph as the family has it (both directions, self loops and repeats in some): kept.
    const DeviceGraph whole = pattern_graph(rt, upload_matrix(rt, host_matrix_of(graph, name)));
    CHECK(whole.undirected());
    Csr normal = graph;
    normalize_rows(normal);
    check_same_graph(download_graph(rt, whole), normal);
  }
}

TEST_CASE("the device's keyed arc sums are the host's, bit for bit, at both offset widths") {
  auto& rt = test::runtime();
  const detail::ArcKey key = detail::ArcKey::fresh();
  for (const auto& [name, graph] : test::graph_families()) {
    const auto name_shown = name;  // CAPTURE copies no structured binding (C++17)
    CAPTURE(name_shown);
    // The graph, and its arcs u < v alone (not symmetric unless it has no arc).
    const Csr half = upper_half(graph);
    for (const Csr* g : {&graph, &half})
      for (const OffsetWidth width : {OffsetWidth::fit, OffsetWidth::wide}) {
        const DeviceGraph on_device(rt, *g, nullptr, width);
        // first: the rows as a block of a larger graph, whose row v is vertex 1000 + v.
        for (const std::int64_t first : {std::int64_t(0), std::int64_t(1000)}) {
          const detail::ArcSums host = detail::arc_sums(*g, first, key, true);
          const detail::ArcSums device = detail::arc_sums(rt, on_device, first, key);
          for (int lane = 0; lane < 2; ++lane) {
            CHECK(device.forward[lane] == host.forward[lane]);
            CHECK(device.reverse[lane] == host.reverse[lane]);
          }
        }
        // The sums' verdict, not has_reverse_arcs(): raw families keep rows unsorted and repeats,
        // outside that function's contract (its sampled lookups need sorted rows).
        CHECK(device_has_reverse_arcs(rt, on_device) ==
              detail::arc_sums(*g, 0, key, true).symmetric());
      }
    CHECK(device_has_reverse_arcs(rt, DeviceGraph(rt, half)) == (half.edges() == 0));
  }
}

TEST_CASE("bad offsets and indices are refused with the first bad entry named") {
  auto& rt = test::runtime();
  const std::vector<std::int32_t> columns = {1, 2, 0, 1};
  auto upload_csr = [&](std::vector<std::int64_t> offsets, std::vector<std::int64_t> cols) {
    HostMatrix h;
    h.n = offsets.size() - 1;
    h.offsets = {offsets.data(), offsets.size(), true};
    h.indices = {cols.data(), cols.size(), true};
    h.what = "g";
    return upload_matrix(rt, h);
  };
  CHECK_THROWS_WITH_AS(upload_csr({0, 2, 1, 4}, {1, 2, 0, 1}),
                       "g: row offset 2 (1) is smaller than row offset 1 (2)", InputError);
  CHECK_THROWS_WITH_AS(upload_csr({0, 2, 3, 5}, {1, 2, 0, 1}),
                       "g: the row offsets run from 0 to 5, not from 0 to the 4 entries",
                       InputError);
  CHECK_THROWS_WITH_AS(upload_csr({0, 2, 3, 4}, {1, 2, 3, 1}),
                       "g: entry 2 has column index 3, outside 0..2", InputError);
  // An int64 id that would wrap into range when narrowed.
  CHECK_THROWS_WITH_AS(upload_csr({0, 2, 3, 4}, {1, 2, (std::int64_t(1) << 32) + 1, 1}),
                       "g: entry 2 has column index 4294967297, outside 0..2", InputError);
  HostMatrix coo;
  coo.layout = SparseLayout::coo;
  coo.n = 3;
  const std::vector<std::int32_t> rows = {0, -1, 2, 1};
  coo.rows = {rows.data(), rows.size(), false};
  coo.indices = {columns.data(), columns.size(), false};
  coo.what = "c";
  CHECK_THROWS_WITH_AS(upload_matrix(rt, coo), "c: entry 1 has row index -1, outside 0..2",
                       InputError);
}
