#pragma once
// The 64-byte header of the raw CSR binary (the format: treefix/graph/graph_io.hpp, "csr"), read
// and written in this one place: by the whole-file reader and writer, and by the distributed
// reader and writer that take rows of the file on each rank.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace treefix {

struct CsrBinaryHeader {
  static constexpr std::size_t kBytes = 64;
  std::uint64_t vertices = 0, arcs = 0;
  bool undirected = false;

  // Where the row offsets (n + 1 int64) and the column ids (m int32) start in the file.
  static constexpr std::uint64_t offsets_at() { return kBytes; }
  std::uint64_t columns_at() const { return kBytes + (vertices + 1) * 8; }
};

// The header at the start of a file of `file_bytes` bytes, from its first bytes (`head`, at
// least kBytes of them unless the file is shorter). InputError naming `path`: another magic or
// a shorter file, another version, widths or flags, or a size other than the header promises
// (refused before anything is allocated).
CsrBinaryHeader read_csr_binary_header(std::string_view head, std::uint64_t file_bytes,
                                       const std::string& path);

// The kBytes bytes of `header` as the file holds them.
std::string csr_binary_header_bytes(const CsrBinaryHeader& header);

}  // namespace treefix
