#pragma once
// Sparse matrices as callers hold them (a SciPy matrix's arrays, a graph file's CSR), brought to
// the device and normalised there: the host reads each array once, in the transfer, and does
// nothing else of the matrix's size.
//
//   HostMatrix a;                      // csr: offsets (n + 1) and column indices, int32 or int64
//   a.layout = SparseLayout::csr; a.n = n; a.offsets = {indptr, n + 1, false};
//   a.indices = {indices, nnz, false};
//   DeviceMatrix m = upload_matrix(runtime, a);               // rows sorted on the device
//   DeviceGraph g = pattern_graph(runtime, m);                // self loops, duplicates dropped
//   DeviceGraph u = undirected_graph(runtime, g);             // both directions of every arc
//
// upload_matrix: the offsets and indices go to the device where they lie (int64 indices are
// narrowed chunk by chunk as they arrive, int64 offsets on the device), and are checked there
// (offsets from 0 to the entry count, never decreasing; indices in 0..n-1: InputError naming the
// first bad entry, found in the caller's arrays). The pass that checks the column indices also
// checks each row's order and looks for repeats and diagonal entries, so a csr matrix in
// canonical form (SciPy's has_canonical_format) costs no more than one read of its indices.
// Rows out of order, coo and csc matrices are sorted on the device (a stable radix sort by row,
// then column: entries with the same position keep their stored order) — the only step that
// costs more than a pass, and it is skipped for csr input whose rows are in order.
// pattern_graph: the graph of the stored entries (an arc per entry, the diagonal dropped,
// repeats merged: the library's CSR form); the matrix's own buffers when it has neither, else a
// compacted copy. Its `undirected` flag comes from a device check of the arc set against its
// reverse (the host's keyed arc sums, graph/detail/arc_hash.hpp, summed on the device with a fresh
// random key per call; a non-symmetric graph passes with probability about 2^-128).
// undirected_graph: the graph itself when it is undirected, else every arc and its reverse,
// sorted and merged on the device.
//
// Sizes: vertices below 2^31 - 1; any number of entries the device holds when rows come in order
// and the matrix has no diagonal entries or repeats (64-bit row offsets past 2^31 - 2 arcs);
// sorting, compacting and symmetrising fewer than 2^31 entries (CapacityError beyond, saying what
// to do on the host instead).
#include <cstddef>
#include <cstdint>
#include <string>

#include "treefix/core/device_array.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"
#include "treefix/graph/device_graph.hpp"

namespace treefix {

// An index array in the caller's memory: `size` int32 or int64 values, read where they lie.
struct HostIndices {
  const void* data = nullptr;
  std::size_t size = 0;
  bool wide = false;  // int64 (else int32)
  std::int64_t at(std::size_t i) const {
    return wide ? static_cast<const std::int64_t*>(data)[i]
                : static_cast<const std::int32_t*>(data)[i];
  }
};

// How the entries are stored, as scipy.sparse names it:
//   csr  entries offsets[v] .. offsets[v + 1] - 1 are row v's; indices holds their columns
//   csc  entries offsets[c] .. offsets[c + 1] - 1 are column c's; indices holds their rows
//   coo  entry i is (rows[i], indices[i])
enum class SparseLayout { csr, csc, coo };

// The stored entries of an n x n matrix, in the caller's memory.
struct HostMatrix {
  SparseLayout layout = SparseLayout::csr;
  std::size_t n = 0;
  HostIndices offsets;  // csr, csc: n + 1 values
  HostIndices indices;  // one per entry (columns; rows for csc)
  HostIndices rows;     // coo: one per entry
  // The entries' values (one per entry, of value_type), or null for a pattern.
  const void* values = nullptr;
  ValueType value_type = ValueType::float64;
  std::string what = "matrix";  // names the matrix in messages
  std::size_t entries() const { return indices.size; }
};

struct MatrixUpload {
  bool values = false;        // take the values along (HostMatrix::values must be set)
  bool transpose_ok = false;  // csc: keep A^T as it lies (for uses where direction is moot)
  OffsetWidth width = OffsetWidth::fit;
  Profile* profile = nullptr;  // transfers under "upload", kernels under "normalise"
};

// A matrix's stored entries on the device in CSR order: rows by id, each row's entries by column
// id, entries at the same position in their stored order. Duplicates and diagonal entries are
// kept (flags say whether there are any).
struct DeviceMatrix {
  std::size_t n = 0, entries = 0;
  bool wide_offsets = false;
  bool transposed = false;  // holds A^T (MatrixUpload::transpose_ok on a csc matrix)
  bool has_repeats = false, has_diagonal = false;
  cl::Buffer row_offset;          // n + 1 EDGE_T
  DeviceArray<vertex_t> column;   // entries
  cl::Buffer values;              // entries of value_type, when has_values
  bool has_values = false;
  ValueType value_type = ValueType::float64;
  Offset offset(std::size_t value) const { return {value, wide_offsets}; }
  const char* offset_option() const { return DeviceGraph::offset_option_for(wide_offsets); }
};

DeviceMatrix upload_matrix(Runtime& runtime, const HostMatrix& matrix,
                           const MatrixUpload& options = {});

// The graph of the matrix's stored entries (see above); the transpose's when matrix.transposed.
DeviceGraph pattern_graph(Runtime& runtime, const DeviceMatrix& matrix, Profile* profile = nullptr);

// Whether every arc of `graph` (rows without repeats, as pattern_graph leaves them) has its
// reverse: the device check pattern_graph runs.
bool device_has_reverse_arcs(Runtime& runtime, const DeviceGraph& graph,
                             Profile* profile = nullptr);

// `graph` when it is undirected; else every arc and its reverse, once each.
DeviceGraph undirected_graph(Runtime& runtime, const DeviceGraph& graph,
                             Profile* profile = nullptr);

// The graph back on the host (row offsets widened to 64-bit): for host-side uses of a graph
// made on the device (pickling, the host checks of tests).
struct Csr;
Csr download_graph(Runtime& runtime, const DeviceGraph& graph);

// The matrix of a host Csr (rows in any order, as a reader left them), described for
// upload_matrix without a copy.
HostMatrix host_matrix_of(const Csr& graph, const std::string& what);

}  // namespace treefix
