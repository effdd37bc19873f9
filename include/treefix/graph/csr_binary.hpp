#pragma once
// The raw CSR binary (the format: treefix/graph/graph_io.hpp, "csr"): its 64-byte header, and its
// rows read and written by byte range, in this one place: used by the whole-file reader and
// writer, and by each rank of a world for its share (treefix/distributed/partitioned_graph.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "treefix/graph/csr.hpp"

namespace treefix {

class RangedReader;
class RangedWriter;

struct CsrBinaryHeader {
  static constexpr std::size_t kBytes = 64;
  std::uint64_t vertices = 0, arcs = 0;
  bool undirected = false;

  // Where the row offsets (n + 1 int64) and the column ids (m int32) start in the file.
  static constexpr std::uint64_t offsets_at() { return kBytes; }
  std::uint64_t columns_at() const { return kBytes + (vertices + 1) * 8; }
  std::uint64_t file_bytes() const { return columns_at() + arcs * 4; }
};

// The header at the start of a file of `file_bytes` bytes, from its first bytes (`head`, at
// least kBytes of them unless the file is shorter). InputError naming `path`: another magic or
// a shorter file, another version, widths or flags, or a size other than the header promises
// (refused before anything is allocated).
CsrBinaryHeader read_csr_binary_header(std::string_view head, std::uint64_t file_bytes,
                                       const std::string& path);

// The kBytes bytes of `header` as the file holds them.
std::string csr_binary_header_bytes(const CsrBinaryHeader& header);

// The header of a file read by ranges (read_csr_binary_header's checks).
CsrBinaryHeader read_csr_binary_header(const RangedReader& file);

// Rows [first, last) of the file, the rest of it untouched: row v of the result is vertex
// first + v, its offsets start at 0, its column ids are the whole graph's. Checked as the
// whole-file reader checks (offsets never decreasing and within the arcs, from 0 at vertex 0 to
// the arc count after the last vertex, ids below the vertex count; InputError naming the file and
// the whole graph's row or arc), rows brought to the library's form. `undirected` is set from the
// header's flag, unchecked: a symmetry test needs every row (has_reverse_arcs).
Csr read_csr_binary_rows(const RangedReader& file, const CsrBinaryHeader& header,
                         std::int64_t first, std::int64_t last);

// The header at byte 0.
void write_csr_binary_header(RangedWriter& file, const CsrBinaryHeader& header);
// Rows whose first vertex is `first` and whose first arc is the whole graph's arc `first_arc`,
// written at their place (row offsets made the whole graph's); `with_end`: the offset after the
// last row too (the writer of the graph's last vertex).
void write_csr_binary_rows(RangedWriter& file, const CsrBinaryHeader& header, std::int64_t first,
                           std::uint64_t first_arc, const Csr& rows, bool with_end);

}  // namespace treefix
