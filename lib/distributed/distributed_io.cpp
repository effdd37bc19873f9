// Reading and writing a partitioned graph (distributed/distributed_graph.hpp): the raw CSR binary
// by byte ranges (each rank its rows), edge lists by byte ranges cut at line starts, the other
// formats whole on every rank.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstring>

#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/distributed/distributed_graph.hpp"
#include "treefix/graph/csr_binary.hpp"

namespace treefix {

namespace {

// A file descriptor closed on scope exit.
struct File {
  int fd = -1;
  File(const std::string& path, int flags) : fd(::open(path.c_str(), flags, 0644)) {}
  ~File() {
    if (fd >= 0) ::close(fd);
  }
};

// pread/pwrite of `bytes` at `offset`, in pieces (a call moves at most ~2 GiB).
void read_at(const File& f, const std::string& path, void* data, std::uint64_t bytes,
             std::uint64_t offset) {
  char* at = static_cast<char*>(data);
  while (bytes) {
    const ssize_t got = ::pread(f.fd, at, std::min<std::uint64_t>(bytes, 1 << 30), offset);
    if (got <= 0)
      throw InputError(path + ": cannot read " + std::to_string(bytes) + " bytes at byte " +
                       std::to_string(offset));
    at += got, bytes -= got, offset += got;
  }
}
void write_at(const File& f, const std::string& path, const void* data, std::uint64_t bytes,
              std::uint64_t offset) {
  const char* at = static_cast<const char*>(data);
  while (bytes) {
    const ssize_t put = ::pwrite(f.fd, at, std::min<std::uint64_t>(bytes, 1 << 30), offset);
    if (put <= 0) throw Error(path + ": cannot write at byte " + std::to_string(offset));
    at += put, bytes -= put, offset += put;
  }
}

LocalGraph read_csr_ranges(const World& world, const std::string& path) {
  LocalGraph g;
  g.rank = world.rank();
  on_every_rank(world, [&] {
    File f(path, O_RDONLY);
    if (f.fd < 0) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    struct stat st;
    ::fstat(f.fd, &st);
    char head[CsrBinaryHeader::kBytes];
    const std::uint64_t file_bytes = static_cast<std::uint64_t>(st.st_size);
    const std::size_t head_bytes = std::min<std::uint64_t>(sizeof head, file_bytes);
    read_at(f, path, head, head_bytes, 0);
    const CsrBinaryHeader h = read_csr_binary_header({head, head_bytes}, file_bytes, path);
    if (h.vertices >= (1ull << 31))
      throw InputError(path + ": " + std::to_string(h.vertices) +
                       " vertices, more than the distributed graphs take (2^31 - 1)");
    g.vertices = h.vertices;
    g.arcs = h.arcs;
    g.undirected = h.undirected;
    g.partition = VertexPartition::balanced(g.vertices, world.size());
    g.row_offset.resize(g.local_vertices() + 1);
    read_at(f, path, g.row_offset.data(), g.row_offset.size() * 8, h.offsets_at() + g.begin() * 8);
    const std::int64_t first_arc = g.row_offset[0];
    for (std::size_t v = 0; v < g.local_vertices(); ++v)
      if (g.row_offset[v + 1] < g.row_offset[v] || g.row_offset[v + 1] > std::int64_t(h.arcs))
        throw InputError(path + ": row offset " + std::to_string(g.begin() + v + 1) + " (" +
                         std::to_string(g.row_offset[v + 1]) + ") decreases or passes the arcs");
    if ((g.begin() == 0 && first_arc != 0) ||
        (g.end() == std::int64_t(g.vertices) && g.row_offset.back() != std::int64_t(h.arcs)))
      throw InputError(path + ": row offsets must run from 0 to the arc count " +
                       std::to_string(h.arcs));
    for (auto& offset : g.row_offset) offset -= first_arc;
    g.column.resize(g.row_offset.back());
    read_at(f, path, g.column.data(), g.column.size() * 4, h.columns_at() + first_arc * 4);
    for (std::size_t e = 0; e < g.column.size(); ++e)
      if (g.column[e] < 0 || std::uint64_t(g.column[e]) >= h.vertices)
        throw InputError(path + ": arc " + std::to_string(first_arc + e) + " goes to vertex " +
                         std::to_string(g.column[e]) + ", outside 0.." +
                         std::to_string(h.vertices - 1));
    normalize_local_rows(g);
  });
  g.arcs = world.sum(g.local_arcs());
  if (g.undirected && !has_reverse_arcs(world, g))
    throw InputError(path +
                     ": the header flags the graph undirected, but an arc lacks its reverse");
  return g;
}

// Parses "u v" lines of text[begin, end) (whole lines), `line` the number of the first.
void parse_edge_lines(const std::string& path, const char* text, std::size_t begin, std::size_t end,
                      std::uint64_t line, std::vector<vertex_t>& source,
                      std::vector<vertex_t>& target) {
  std::size_t at = begin;
  while (at < end) {
    const char* line_end = static_cast<const char*>(std::memchr(text + at, '\n', end - at));
    const std::size_t stop = line_end ? line_end - text : end;
    const char* p = text + at;
    const char* q = text + stop;
    auto skip_space = [&] {
      while (p < q && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
    };
    skip_space();
    if (p < q && *p != '#' && *p != '%') {
      long long ids[2];
      for (long long& id : ids) {
        skip_space();
        auto [next, error] = std::from_chars(p, q, id);
        if (error != std::errc() || id < 0 || id >= (1ll << 31) - 1)
          throw InputError(path + ":" + std::to_string(line) +
                           ": expected two vertex ids (0..2147483646) per line");
        p = next;
      }
      skip_space();
      if (p < q && *p != '#' && *p != '%')
        throw InputError(path + ":" + std::to_string(line) + ": more than two ids on the line");
      source.push_back(static_cast<vertex_t>(ids[0]));
      target.push_back(static_cast<vertex_t>(ids[1]));
    }
    at = stop + 1;
    ++line;
  }
}

LocalGraph read_edge_ranges(const World& world, const std::string& path, bool directed) {
  std::vector<vertex_t> source, target;
  std::int64_t largest = -1;
  std::string text;
  std::size_t first = 0, last = 0;
  on_every_rank(world, [&] {
    File f(path, O_RDONLY);
    if (f.fd < 0) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    struct stat st;
    ::fstat(f.fd, &st);
    const std::uint64_t size = st.st_size;
    // This rank's lines: those starting in [size * r / p, size * (r + 1) / p). A few bytes before
    // the range tell whether it starts at a line start; the range is read up to its last line's
    // end.
    std::uint64_t begin = size * world.rank() / world.size(),
                  end = size * (world.rank() + 1) / world.size();
    const std::uint64_t from = begin ? begin - 1 : 0;
    std::uint64_t read_end = end;
    for (;;) {  // grow the read until the range's last line ends (or the file does)
      text.resize(read_end - from);
      read_at(f, path, text.data(), text.size(), from);
      if (read_end == size || std::memchr(text.data() + (end - from), '\n', read_end - end) ||
          end == begin)
        break;
      read_end = std::min<std::uint64_t>(size, read_end + (1 << 20));
    }
    if (begin) {  // skip the line that began before the range
      const char* newline = static_cast<const char*>(std::memchr(text.data(), '\n', text.size()));
      first = newline ? newline - text.data() + 1 : text.size();
    }
    last = end - from;  // the lines starting before `end`: cut after the line at end-1
    if (last > first) {
      const char* newline = static_cast<const char*>(
          std::memchr(text.data() + last - 1, '\n', text.size() - (last - 1)));
      last = newline ? newline - text.data() + 1 : text.size();
    } else {
      last = first;
    }
  });
  // Line numbers: the newlines before this rank's first line, counted by every rank for its
  // share and summed over the ranks before it.
  std::uint64_t newlines = 0;
  for (std::size_t i = first; i < last; ++i) newlines += text[i] == '\n';
  const std::uint64_t line = world.exclusive_sum(newlines) + 1;
  on_every_rank(world, [&] {
    parse_edge_lines(path, text.data(), first, last, line, source, target);
    for (std::size_t i = 0; i < source.size(); ++i)
      largest = std::max<std::int64_t>(largest, std::max(source[i], target[i]));
  });
  const std::size_t n = static_cast<std::size_t>(world.max(largest) + 1);
  return local_graph_from_arcs(world, n, std::move(source), std::move(target), !directed);
}

}  // namespace

LocalGraph read_local_graph(const World& world, const std::string& path,
                            const GraphReadOptions& options) {
  const GraphFormat format =
      options.format == GraphFormat::automatic ? format_from_extension(path) : options.format;
  if (format == GraphFormat::csr) return read_csr_ranges(world, path);
  if (format == GraphFormat::edges) return read_edge_ranges(world, path, options.edges_directed);
  Csr whole;
  on_every_rank(world, [&] {
    GraphReadOptions read = options;
    read.limits.device = nullptr;  // the whole graph is on the host; devices hold slices
    whole = read_graph(path, read);
  });
  return local_slice(world, whole);
}

void write_local_graph_csr(const World& world, const LocalGraph& g, const std::string& path) {
  const std::string partial = path + ".partial";
  const std::uint64_t first_arc = world.exclusive_sum(g.local_arcs());
  on_every_rank(world, [&] {
    if (world.rank() != 0) return;
    File f(partial, O_WRONLY | O_CREAT | O_TRUNC);
    if (f.fd < 0) throw Error(partial + ": cannot create (" + std::strerror(errno) + ")");
    CsrBinaryHeader h;
    h.vertices = g.vertices;
    h.arcs = g.arcs;
    h.undirected = g.undirected;
    const std::string head = csr_binary_header_bytes(h);
    write_at(f, partial, head.data(), head.size(), 0);
    if (::ftruncate(f.fd, 64 + (g.vertices + 1) * 8 + g.arcs * 4) != 0)
      throw Error(partial + ": cannot size the file (" + std::strerror(errno) + ")");
  });
  on_every_rank(world, [&] {
    File f(partial, O_WRONLY);
    if (f.fd < 0) throw Error(partial + ": cannot open (" + std::strerror(errno) + ")");
    // Rows [begin, end) and, on the rank holding the last vertex, the final offset.
    const bool last = g.end() == std::int64_t(g.vertices);
    std::vector<std::int64_t> offsets(g.local_vertices() + (last ? 1 : 0));
    for (std::size_t v = 0; v < offsets.size(); ++v) offsets[v] = g.row_offset[v] + first_arc;
    write_at(f, partial, offsets.data(), offsets.size() * 8, 64 + g.begin() * 8);
    write_at(f, partial, g.column.data(), g.column.size() * 4,
             64 + (g.vertices + 1) * 8 + first_arc * 4);
    if (::fsync(f.fd) != 0) throw Error(partial + ": cannot sync (" + std::strerror(errno) + ")");
  });
  on_every_rank(world, [&] {
    if (world.rank() == 0 && std::rename(partial.c_str(), path.c_str()) != 0)
      throw Error(path + ": cannot rename " + partial + " to it (" + std::strerror(errno) + ")");
  });
}

}  // namespace treefix
