// The raw CSR binary (graph/graph_io.hpp, "csr"): a 64-byte header, then the row offsets and
// column ids as they lie in memory. Loading is a size check, two copies out of the mapped file on
// all host cores and the checks every handed-over CSR gets.
#include <cstring>

#include "graph_formats.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/graph/csr_binary.hpp"
#include "treefix/graph/graph_io.hpp"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the raw CSR binary is read and written as the host's memory: little-endian hosts only"
#endif

namespace treefix {

namespace {

constexpr char kMagic[8] = {'\x89', 'T', 'F', 'X', 'C', 'S', 'R', '\n'};
constexpr std::uint32_t kVersion = 1, kUndirected = 1;

// The header as the file lays it out.
struct Header {
  char magic[8];
  std::uint32_t version, flags;
  std::uint64_t vertices, arcs;
  std::uint32_t offset_bytes, column_bytes;
  char reserved[24];
};
static_assert(sizeof(Header) == CsrBinaryHeader::kBytes, "the header is 64 bytes");

}  // namespace

CsrBinaryHeader read_csr_binary_header(std::string_view head, std::uint64_t file_bytes,
                                       const std::string& path) {
  Header h;
  if (head.size() < sizeof h || std::memcmp(head.data(), kMagic, sizeof kMagic) != 0)
    throw InputError(path + ": not a treefix CSR binary (no 64-byte header starting \\x89TFXCSR)");
  std::memcpy(&h, head.data(), sizeof h);
  if (h.version != kVersion)
    throw InputError(path + ": CSR binary version " + std::to_string(h.version) +
                     ", this reader knows version " + std::to_string(kVersion));
  if (h.offset_bytes != 8 || h.column_bytes != 4 || (h.flags & ~kUndirected))
    throw InputError(path + ": CSR binary with offset width " + std::to_string(h.offset_bytes) +
                     ", column width " + std::to_string(h.column_bytes) + " and flags " +
                     std::to_string(h.flags) + " (version 1 has 8, 4 and only bit 0)");
  // The exact size: a truncated file is refused before anything is allocated.
  const std::uint64_t payload = file_bytes - sizeof h;
  const std::uint64_t offset_bytes = bytes_for(h.vertices + 1, 8), column_bytes = bytes_for(h.arcs, 4);
  const std::uint64_t needed =
      offset_bytes > UINT64_MAX - column_bytes ? UINT64_MAX : offset_bytes + column_bytes;
  if (needed != payload)
    throw InputError(path + ": the header promises " + std::to_string(h.vertices) +
                     " vertices and " + std::to_string(h.arcs) + " arcs, but the file holds " +
                     std::to_string(payload) + " bytes after it" +
                     (needed > payload ? " (truncated)" : " (bytes after the columns)"));
  CsrBinaryHeader header;
  header.vertices = h.vertices;
  header.arcs = h.arcs;
  header.undirected = h.flags & kUndirected;
  return header;
}

std::string csr_binary_header_bytes(const CsrBinaryHeader& header) {
  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kVersion;
  h.flags = header.undirected ? kUndirected : 0;
  h.vertices = header.vertices;
  h.arcs = header.arcs;
  h.offset_bytes = 8;
  h.column_bytes = 4;
  return std::string(reinterpret_cast<const char*>(&h), sizeof h);
}

Csr read_csr_binary(const std::string& path, const GraphReadOptions& options) {
  std::unique_ptr<TextFile> file;
  detail::timed(options.phases, "read: map", [&] { file = std::make_unique<TextFile>(path); });
  const std::string_view bytes = file->text();
  const CsrBinaryHeader h = read_csr_binary_header(bytes, bytes.size(), path);
  require_graph_fits(options.limits, path, static_cast<std::size_t>(h.vertices), h.arcs);
  Csr g;
  detail::timed(options.phases, "read: copy", [&] {
    g.row_offset.resize(static_cast<std::size_t>(h.vertices) + 1);
    g.column.resize(static_cast<std::size_t>(h.arcs));
    parallel_memcpy(g.row_offset.data(), bytes.data() + h.offsets_at(), g.row_offset.size() * 8);
    parallel_memcpy(g.column.data(), bytes.data() + h.columns_at(), g.column.size() * 4);
  });
  detail::timed(options.phases, "read: check", [&] {
    check_and_normalize(g, path);
    if (h.undirected) {
      if (!has_reverse_arcs(g))
        throw InputError(path + ": the header flags the graph undirected, but an arc lacks its "
                                "reverse");
      g.undirected = true;
    }
  });
  return g;
}

void write_csr_binary(std::ostream& out, const Csr& graph) {
  CsrBinaryHeader header;
  header.vertices = graph.vertices();
  header.arcs = graph.edges();
  header.undirected = graph.undirected;
  out << csr_binary_header_bytes(header);
  const std::vector<std::int64_t> empty = {0};
  const auto& offsets = graph.row_offset.empty() ? empty : graph.row_offset;
  out.write(reinterpret_cast<const char*>(offsets.data()),
            static_cast<std::streamsize>(offsets.size() * 8));
  out.write(reinterpret_cast<const char*>(graph.column.data()),
            static_cast<std::streamsize>(graph.column.size() * 4));
}

}  // namespace treefix
