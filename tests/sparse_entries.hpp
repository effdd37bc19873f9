#pragma once
// Sparse matrices for the device-matrix tests: entries in stored order with a value each, laid
// out as a csr on the host, and described for upload_matrix.
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "treefix/graph/device_matrix.hpp"

namespace treefix::test {

struct Entries {
  std::size_t n = 0;
  std::vector<vertex_t> row, col;
  std::vector<double> value;
  void add(vertex_t r, vertex_t c, double w) {
    row.push_back(r);
    col.push_back(c);
    value.push_back(w);
  }
};

// m random entries (repeats and diagonal entries among them), values 0, 1, 2, ...
inline Entries random_entries(std::size_t n, std::size_t m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Entries e;
  e.n = n;
  for (std::size_t i = 0; i < m && n > 0; ++i)
    e.add(static_cast<vertex_t>(rng() % n), static_cast<vertex_t>(rng() % n),
          static_cast<double>(i));
  return e;
}

// The entries as a csr: rows in order; within a row, stored order (not sorted by column).
struct HostCsr {
  std::vector<std::int64_t> offset;
  std::vector<std::int32_t> column;
  std::vector<double> value;
};
inline HostCsr csr_of(const Entries& e) {
  HostCsr h;
  h.offset.assign(e.n + 1, 0);
  for (vertex_t r : e.row) ++h.offset[r + 1];
  std::partial_sum(h.offset.begin(), h.offset.end(), h.offset.begin());
  std::vector<std::int64_t> next(h.offset.begin(), h.offset.end() - 1);
  h.column.resize(e.row.size());
  h.value.resize(e.row.size());
  for (std::size_t i = 0; i < e.row.size(); ++i) {
    h.column[next[e.row[i]]] = e.col[i];
    h.value[next[e.row[i]]++] = e.value[i];
  }
  return h;
}

// The csr's arrays described for upload_matrix (values as float64); `h` must outlive it.
inline HostMatrix host_csr(const HostCsr& h, std::size_t n) {
  HostMatrix m;
  m.layout = SparseLayout::csr;
  m.n = n;
  m.offsets = {h.offset.data(), n + 1, true};
  m.indices = {h.column.data(), h.column.size(), false};
  m.values = h.value.data();
  m.value_type = ValueType::float64;
  return m;
}

}  // namespace treefix::test
