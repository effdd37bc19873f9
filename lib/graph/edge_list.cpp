// Edge lists ("u v" pairs, SNAP style) on all host cores: the strict reader of `treefix root`
// (graph/edge_list.hpp), the graph reader and the writer (graph/graph_io.hpp).
#include "treefix/graph/edge_list.hpp"

#include <algorithm>
#include <climits>

#include "graph_formats.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/graph/graph_io.hpp"

namespace treefix {

namespace {

constexpr const char* kComments = "#%";

struct ParsedEdges {
  std::vector<vertex_t> source, target;
  std::vector<std::size_t> line;  // of each edge, when asked for
  std::int64_t largest = -1;      // the largest id (-1: no edge)
  // Pairs (u, v), u != v, sampled evenly through the list, and how many of them have their
  // reverse (v, u) somewhere in it.
  std::size_t sampled = 0, reversed = 0;
};

constexpr std::size_t kSampledPairs = 64;  // a bit each in one word

std::uint64_t pair_key(vertex_t u, vertex_t v) {
  return (std::uint64_t(std::uint32_t(u)) << 32) | std::uint32_t(v);
}
unsigned filter_bit(std::uint64_t key) {  // one of 4096 (Fibonacci hashing)
  return static_cast<unsigned>((key * 0x9e3779b97f4a7c15ull) >> 52);
}

// What is wrong with a token that is not a vertex id (kept out of the parsing loop: a call
// there only on failure).
[[gnu::noinline, gnu::cold]] std::string bad_id(std::string_view token, std::int64_t vertices) {
  std::int64_t id = 0;
  if (!parse_int(token, id))
    return "expected a vertex id, found '" + std::string(token.substr(0, 40)) + "'";
  return "vertex id " + std::to_string(id) + " is out of range: " +
         (vertices >= 0 ? "there are " + std::to_string(vertices) + " vertices (ids 0.." +
                              std::to_string(vertices - 1) + ")"
                        : std::string("ids are 0..2^31-2"));
}

// The pairs of an edge list; `vertices` >= 0 bounds the ids. `check_size(edges)` runs once the
// number of edges is known, before anything of that size is allocated.
template <class CheckSize>
ParsedEdges parse_edge_pairs(const TokenChunks& chunks, std::int64_t vertices, bool want_lines,
                             CheckSize check_size) {
  const std::size_t edges = (chunks.tokens() + 1) / 2;
  check_size(edges);
  ParsedEdges parsed;
  parsed.source.resize(edges);
  parsed.target.resize(edges);
  if (want_lines) parsed.line.resize(edges);
  const std::int64_t limit = vertices >= 0 ? vertices : std::int64_t(INT32_MAX);
  detail::parse_records(
      chunks, 2,
      [&](std::string_view token, std::size_t edge, std::size_t field, std::size_t line,
          const auto& fail) {
        std::int64_t id = 0;
        if (!parse_int(token, id) || id < 0 || id >= limit) fail(bad_id(token, vertices));
        (field == 0 ? parsed.source : parsed.target)[edge] = static_cast<vertex_t>(id);
        if (want_lines && field == 0) parsed.line[edge] = line;
      },
      [](std::size_t) { return std::string("an edge line needs two vertex ids ('u v')"); });
  // The sample: the reverses to look for, and a filter of 4096 bits that turns most pairs away
  // with one load, so that the pass below costs little more than the largest id alone.
  std::vector<std::uint64_t> wanted;
  std::uint64_t filter[64] = {};
  for (std::size_t k = 0; k < kSampledPairs && edges; ++k) {
    const std::size_t e = k * edges / kSampledPairs;
    if (parsed.source[e] == parsed.target[e]) continue;
    wanted.push_back(pair_key(parsed.target[e], parsed.source[e]));
    const unsigned bit = filter_bit(wanted.back());
    filter[bit / 64] |= std::uint64_t(1) << (bit % 64);
  }
  // The largest id and the sampled reverses found, per slice on all cores.
  const Ranges slices(edges, host_threads(), std::size_t(1) << 16);
  std::vector<std::int64_t> largest(slices.count, -1);
  std::vector<std::uint64_t> found(slices.count, 0);  // bit k: wanted[k] seen
  parallel_for(slices.count, [&](std::size_t s) {
    vertex_t slice_largest = -1;
    std::uint64_t slice_found = 0;
    for (std::size_t e = slices.begin(s); e < slices.end(s); ++e) {
      const vertex_t u = parsed.source[e], v = parsed.target[e];
      slice_largest = std::max({slice_largest, u, v});
      const std::uint64_t key = pair_key(u, v);
      const unsigned bit = filter_bit(key);
      if ((filter[bit / 64] >> (bit % 64)) & 1)
        for (std::size_t k = 0; k < wanted.size(); ++k)
          if (wanted[k] == key) slice_found |= std::uint64_t(1) << k;
    }
    largest[s] = slice_largest;
    found[s] = slice_found;
  });
  std::uint64_t seen = 0;
  for (std::size_t s = 0; s < slices.count; ++s) {
    parsed.largest = std::max(parsed.largest, largest[s]);
    seen |= found[s];
  }
  parsed.sampled = wanted.size();
  for (; seen; seen &= seen - 1) ++parsed.reversed;
  return parsed;
}

}  // namespace

EdgeList read_edge_list_strict(const std::string& path, std::int64_t vertices,
                               std::vector<std::size_t>* lines, const GraphLimits& limits) {
  if (vertices > INT32_MAX)
    throw CapacityError(path + ": " + std::to_string(vertices) +
                        " vertices exceed the 2^31-1 that 32-bit vertex ids allow");
  if (vertices >= 0) require_forest_fits(limits, path, static_cast<std::size_t>(vertices), 0);
  TextFile file(path);
  TokenChunks chunks(file, 0, kComments);
  ParsedEdges parsed = parse_edge_pairs(chunks, vertices, lines != nullptr, [&](std::size_t edges) {
    require_host_fits(limits, bytes_for(edges, lines ? 16 : 8),
                      path + ": an edge list of " + std::to_string(edges) + " edges");
  });
  EdgeList list;
  list.vertices = static_cast<std::size_t>(vertices >= 0 ? vertices : parsed.largest + 1);
  require_forest_fits(limits, path, list.vertices, parsed.source.size());
  list.source = std::move(parsed.source);
  list.target = std::move(parsed.target);
  if (lines) *lines = std::move(parsed.line);
  return list;
}

EdgeList parse_edge_list(const TextFile& text) {
  const TokenChunks chunks(text, 0, kComments);
  ParsedEdges parsed = parse_edge_pairs(chunks, -1, false, [](std::size_t) {});
  EdgeList list;
  list.vertices = static_cast<std::size_t>(parsed.largest + 1);
  list.source = std::move(parsed.source);
  list.target = std::move(parsed.target);
  return list;
}

Csr read_edge_list(const std::string& path, const GraphReadOptions& options) {
  const bool undirected = !options.edges_directed;
  const std::unique_ptr<TextFile> file = detail::map_file(path, options.phases);
  std::unique_ptr<TokenChunks> chunks;
  detail::timed(options.phases, "read: scan",
                [&] { chunks = std::make_unique<TokenChunks>(*file, 0, kComments); });
  ParsedEdges parsed = detail::timed(options.phases, "read: parse", [&] {
    return parse_edge_pairs(*chunks, -1, false, [&](std::size_t edges) {
      // n is not known yet: the edges, and the CSR of their arcs over no vertices
      require_graph_fits(GraphLimits{options.limits.host_bytes, nullptr}, path, 0,
                         undirected ? 2 * std::uint64_t(edges) : edges, bytes_for(edges, 8));
    });
  });
  const std::size_t n = static_cast<std::size_t>(parsed.largest + 1);
  const std::size_t edges = parsed.source.size();
  // The CSR build of every arc and its reverse, plus the larger of the pairs (8 bytes each, held
  // while a CSR is built from them) and 16 bytes per vertex: symmetrized(), which runs once the
  // pairs are freed, peaks within that (its input, the transpose, rows with room for both arcs).
  require_graph_fits(
      options.limits, path, n, undirected ? 2 * std::uint64_t(edges) : edges,
      undirected ? std::max(bytes_for(edges, 8), bytes_for(n + 1, 16)) : bytes_for(edges, 8));
  // No sampled pair has its reverse in the list: it gives each edge once (as u < v, u > v or
  // either), so the CSR of its arcs is not symmetric, and adding every reverse while building
  // costs less than building that CSR and merging in its transpose.
  if (undirected && parsed.sampled > 0 && parsed.reversed == 0)
    return detail::timed(options.phases, "read: csr",
                         [&] { return csr_from_edges(n, parsed.source, parsed.target, true); });
  // Otherwise the arcs as written first, as for a Matrix Market "general" file: most undirected
  // lists hold both directions of every edge, and their CSR is that of the arcs, found symmetric
  // by a hash pass, while adding every reverse and merging the copies would scatter and sort twice
  // the arcs. For lists that do need reverses, rows are merged with the transpose's.
  Csr g = detail::timed(options.phases, "read: csr",
                        [&] { return csr_from_edges(n, parsed.source, parsed.target, false); });
  if (!undirected) return g;
  parsed = ParsedEdges();  // before the transpose is allocated
  g.undirected =
      detail::timed(options.phases, "read: symmetry check", [&] { return has_reverse_arcs(g); });
  if (g.undirected) return g;
  return detail::timed(options.phases, "read: reverse arcs", [&] { return symmetrized(g); });
}

EdgeList undirected_edges(const Csr& graph) {
  const std::size_t n = graph.vertices();
  // Symmetric first (every arc's reverse added, duplicates merged), then the arcs with u < v.
  Csr symmetric;
  if (!graph.undirected) symmetric = symmetrized(graph);
  const Csr& g = graph.undirected ? graph : symmetric;
  EdgeList list;
  list.vertices = n;
  list.source.reserve(g.edges() / 2);
  list.target.reserve(g.edges() / 2);
  for (std::size_t v = 0; v < n; ++v)
    for (std::int64_t e = g.row_offset[v]; e < g.row_offset[v + 1]; ++e)
      if (static_cast<std::size_t>(g.column[e]) > v) {
        list.source.push_back(static_cast<vertex_t>(v));
        list.target.push_back(g.column[e]);
      }
  return list;
}

void write_edge_list(std::ostream& out, const Csr& graph) {
  detail::write_rows(out, graph.vertices(), [&](std::string& text, std::size_t v) {
    for (std::int64_t e = graph.row_offset[v]; e < graph.row_offset[v + 1]; ++e) {
      detail::append_number(text, static_cast<std::int64_t>(v), ' ');
      detail::append_number(text, graph.column[e], '\n');
    }
  });
}

}  // namespace treefix
