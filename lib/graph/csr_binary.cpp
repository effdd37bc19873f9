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
#include "treefix/io/ranged_file.hpp"

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
  const std::uint64_t offset_bytes = bytes_for(h.vertices + 1, 8),
                      column_bytes = bytes_for(h.arcs, 4);
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

CsrBinaryHeader read_csr_binary_header(const RangedReader& file) {
  char head[CsrBinaryHeader::kBytes];
  const std::size_t head_bytes =
      static_cast<std::size_t>(std::min<std::uint64_t>(sizeof head, file.size()));
  file.read(head, head_bytes, 0);
  return read_csr_binary_header({head, head_bytes}, file.size(), file.path());
}

Csr read_csr_binary_rows(const RangedReader& file, const CsrBinaryHeader& h, std::int64_t first,
                         std::int64_t last) {
  const std::string& path = file.path();
  const std::size_t rows = static_cast<std::size_t>(last - first);
  Csr g;
  g.undirected = h.undirected;
  g.row_offset.resize(rows + 1);
  file.read(g.row_offset.data(), g.row_offset.size() * 8, h.offsets_at() + first * 8);
  const std::int64_t arcs = static_cast<std::int64_t>(h.arcs), first_arc = g.row_offset[0];
  // The block against the whole before anything of its size is read: offsets never decrease and
  // stay within the arcs, the first row starts at arc 0 and the last ends at the arc count.
  if (first_arc < 0 || first_arc > arcs)
    throw InputError(path + ": row offset " + std::to_string(first) + " (" +
                     std::to_string(first_arc) + ") is outside 0.." + std::to_string(arcs));
  for (std::size_t v = 0; v < rows; ++v)
    if (g.row_offset[v + 1] < g.row_offset[v] || g.row_offset[v + 1] > arcs)
      throw InputError(path + ": row offset " + std::to_string(first + std::int64_t(v) + 1) + " (" +
                       std::to_string(g.row_offset[v + 1]) + ") decreases or passes the arcs");
  if ((first == 0 && first_arc != 0) ||
      (static_cast<std::uint64_t>(last) == h.vertices && g.row_offset.back() != arcs))
    throw InputError(path + ": row offsets must run from 0 to the arc count " +
                     std::to_string(arcs));
  for (std::int64_t& offset : g.row_offset) offset -= first_arc;
  g.column.resize(static_cast<std::size_t>(g.row_offset.back()));
  if (!g.column.empty())
    file.read(g.column.data(), g.column.size() * 4, h.columns_at() + first_arc * 4);
  check_and_normalize(g, path, RowBlock{first, first_arc, static_cast<std::size_t>(h.vertices)});
  return g;
}

void write_csr_binary_header(RangedWriter& file, const CsrBinaryHeader& header) {
  const std::string head = csr_binary_header_bytes(header);
  file.write(head.data(), head.size(), 0);
}

void write_csr_binary_rows(RangedWriter& file, const CsrBinaryHeader& header, std::int64_t first,
                           std::uint64_t first_arc, const Csr& rows, bool with_end) {
  const std::size_t count = rows.vertices() + (with_end ? 1 : 0);
  std::vector<std::int64_t> offsets(count);
  for (std::size_t v = 0; v < count; ++v)
    offsets[v] = rows.row_offset[v] + static_cast<std::int64_t>(first_arc);
  file.write(offsets.data(), offsets.size() * 8, header.offsets_at() + first * 8);
  file.write(rows.column.data(), rows.column.size() * 4, header.columns_at() + first_arc * 4);
}

Csr read_csr_binary(const std::string& path, const GraphReadOptions& options) {
  const std::unique_ptr<TextFile> file = detail::map_file(path, options.phases);
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
        throw InputError(path +
                         ": the header flags the graph undirected, but an arc lacks its "
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
