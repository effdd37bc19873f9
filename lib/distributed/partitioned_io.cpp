// Reading and writing a partitioned graph (distributed/partitioned_graph.hpp): the raw CSR binary
// and edge lists by byte ranges of one file (each rank its rows, its lines), the other formats
// whole on every rank. The formats are graph's (csr_binary.hpp, edge_list.hpp), the ranged file
// access io's (ranged_file.hpp, text_parse.hpp); this file only says which rank takes what.
#include <algorithm>
#include <memory>

#include "treefix/core/error.hpp"
#include "treefix/distributed/partitioned_graph.hpp"
#include "treefix/graph/csr_binary.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/io/compressed.hpp"
#include "treefix/io/ranged_file.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix {

namespace {

PartitionedGraph read_csr_ranges(const World& world, const std::string& path) {
  PartitionedGraph g;
  g.rank = world.rank();
  on_every_rank(world, [&] {
    const RangedReader file(path);
    const CsrBinaryHeader h = read_csr_binary_header(file);
    if (h.vertices >= (1ull << 31))
      throw InputError(path + ": " + std::to_string(h.vertices) +
                       " vertices, more than 32-bit vertex ids allow (2^31 - 1)");
    g.vertices = static_cast<std::size_t>(h.vertices);
    g.partition = VertexPartition::balanced(g.vertices, world.size());
    g.rows = read_csr_binary_rows(file, h, g.begin(), g.end());
  });
  g.arcs = world.sum(g.local_arcs());
  if (g.undirected() && !has_reverse_arcs(world, g))
    throw InputError(path +
                     ": the header flags the graph undirected, but an arc lacks its reverse");
  return g;
}

// Whether the file's first bytes say it is compressed (read whole, decompressed, instead).
bool compressed(const std::string& path) {
  const RangedReader file(path);
  char head[8] = {};
  const std::size_t bytes = static_cast<std::size_t>(std::min<std::uint64_t>(8, file.size()));
  file.read(head, bytes, 0);
  return compression_of(std::string_view(head, bytes)) != Compression::none;
}

PartitionedGraph read_edge_ranges(const World& world, const std::string& path, bool directed) {
  std::unique_ptr<TextFile> lines;
  on_every_rank(world, [&] {
    const std::uint64_t size = RangedReader(path).size();
    lines = std::make_unique<TextFile>(
        path, TextFile::ByteRange{size * world.rank() / world.size(),
                                  size * (world.rank() + 1) / world.size()});
  });
  // Line numbers: the newlines before this rank's first line, counted by every rank for its
  // share and summed over the ranks before it.
  const std::string_view text = lines->text();
  lines->number_lines_from(
      world.exclusive_sum(static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'))) +
      1);
  EdgeList edges;
  on_every_rank(world, [&] { edges = parse_edge_list(*lines); });
  lines.reset();
  const std::size_t n = static_cast<std::size_t>(world.max(std::int64_t(edges.vertices)));
  return partitioned_graph_from_arcs(world, n, std::move(edges.source), std::move(edges.target),
                                     !directed);
}

}  // namespace

PartitionedGraph read_partitioned_graph(const World& world, const std::string& path,
                                        const GraphReadOptions& options) {
  if (world.size() == 1) return PartitionedGraph::whole(read_graph(path, options));
  const GraphFormat format =
      options.format == GraphFormat::automatic ? format_from_extension(path) : options.format;
  bool by_ranges = false;
  if (format == GraphFormat::csr || format == GraphFormat::edges)
    on_every_rank(world, [&] { by_ranges = path != "-" && !compressed(path); });
  if (by_ranges && format == GraphFormat::csr) return read_csr_ranges(world, path);
  if (by_ranges) return read_edge_ranges(world, path, options.edges_directed);
  Csr whole;
  on_every_rank(world, [&] {
    GraphReadOptions read = options;
    read.limits.device = nullptr;  // the whole graph is on the host; devices hold shares
    whole = read_graph(path, read);
  });
  return partition_graph(world, whole);
}

void write_partitioned_graph(const World& world, const PartitionedGraph& g,
                             const std::string& path) {
  CsrBinaryHeader header;
  header.vertices = g.vertices;
  header.arcs = g.arcs;
  header.undirected = g.undirected();
  const std::uint64_t first_arc = world.exclusive_sum(g.local_arcs());
  std::unique_ptr<RangedWriter> file;
  on_every_rank(world, [&] {  // rank 0 makes the file, the others join once it exists
    if (world.rank() != 0) return;
    file = std::make_unique<RangedWriter>(path, header.file_bytes(), RangedWriter::create);
    write_csr_binary_header(*file, header);
  });
  on_every_rank(world, [&] {
    if (!file) file = std::make_unique<RangedWriter>(path, header.file_bytes(), RangedWriter::join);
    write_csr_binary_rows(*file, header, g.begin(), first_arc, g.rows,
                          g.end() == static_cast<std::int64_t>(g.vertices));
    file->sync();
  });
  on_every_rank(world, [&] {  // every rank has synced: rank 0 renames
    if (world.rank() == 0)
      file->commit();
    else
      file->release();
  });
}

}  // namespace treefix
