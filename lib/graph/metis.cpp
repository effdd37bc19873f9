// METIS / DIMACS10 .graph files (graph/graph_io.hpp): the header read first, the vertex lines on
// all host cores in two passes over the chunks (count lines and neighbours, then check and place
// them), rows filled in place; the writer.
#include <algorithm>

#include "graph_formats.hpp"
#include "treefix/core/error.hpp"
#include "treefix/graph/graph_io.hpp"

namespace treefix {

namespace {

struct Header {
  std::int64_t n = 0, m = 0;
  std::size_t leading = 0;  // tokens before the neighbours: vertex size and weights
  bool edge_weights = false;
  std::size_t line = 1;       // the header's line
  std::size_t body = 0;       // byte offset of the first vertex line
};

// The header: the first line that is neither blank nor a '%' comment.
Header parse_header(std::string_view text, const std::string& path) {
  std::size_t at = 0, line = 1;
  for (;;) {
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\r' ||
                                text[at] == '\n')) {
      line += text[at] == '\n';
      ++at;
    }
    if (at == text.size())
      throw InputError(path + ": empty file (expected the header 'n m [fmt [ncon]]')");
    if (text[at] != '%') break;
    const std::size_t newline = text.find('\n', at);
    at = newline == std::string_view::npos ? text.size() : newline;
  }
  Header h;
  h.line = line;
  const std::size_t end = std::min(text.find('\n', at), text.size());
  h.body = std::min(end + 1, text.size());
  const std::string at_header = path + ":" + std::to_string(line) + ": ";
  ChunkTokens tokens(text.substr(at, end - at), line, "");
  std::vector<std::int64_t> values;
  std::string_view token;
  while (tokens.next(token)) {
    std::int64_t x = 0;
    if (!parse_int(token, x) || x < 0)
      throw InputError(at_header + "expected a non-negative integer in the header, found '" +
                       std::string(token.substr(0, 40)) + "'");
    values.push_back(x);
  }
  if (values.size() < 2 || values.size() > 4)
    throw InputError(at_header + "header must be 'n m [fmt [ncon]]'");
  h.n = values[0];
  h.m = values[1];
  const std::int64_t fmt = values.size() > 2 ? values[2] : 0;
  if (fmt % 10 > 1 || fmt / 10 % 10 > 1 || fmt / 100 > 1)
    throw InputError(at_header + "fmt must be 3 binary digits, not " + std::to_string(fmt));
  h.edge_weights = fmt % 10;
  const bool vertex_weights = fmt / 10 % 10, vertex_sizes = fmt / 100;
  const std::int64_t ncon = values.size() > 3 ? values[3] : (vertex_weights ? 1 : 0);
  h.leading = static_cast<std::size_t>((vertex_sizes ? 1 : 0) + (vertex_weights ? ncon : 0));
  return h;
}

// Per chunk: its lines that are vertices (comment lines are not) and their neighbour tokens.
struct ChunkCounts {
  std::size_t vertex_lines = 0, neighbours = 0;
};

// Neighbour tokens on a vertex line of `tokens` tokens.
std::size_t neighbours_on_line(const Header& h, std::size_t tokens) {
  if (tokens <= h.leading) return 0;
  return h.edge_weights ? (tokens - h.leading + 1) / 2 : tokens - h.leading;
}

}  // namespace

Csr read_metis(const std::string& path, const GraphReadOptions& options) {
  const std::unique_ptr<TextFile> file = detail::map_file(path, options.phases);
  const std::string_view text = file->text();
  const Header h = parse_header(text, path);
  const std::string at_header = path + ":" + std::to_string(h.line) + ": ";
  // n vertex lines need n - 1 newlines at least: a header that the rest of the file cannot hold
  // is a truncated file, refused before anything is read or allocated. So are 2m neighbours of
  // two bytes each in a large file (a small one is read, for the exact count in the message).
  const std::uint64_t rest = text.size() - h.body, neighbours_held = (rest + 1) / 2;
  const std::uint64_t claimed = 2 * static_cast<std::uint64_t>(h.m);
  if (static_cast<std::uint64_t>(h.n) > rest + 1 || (claimed > neighbours_held && rest > (1u << 20)))
    throw InputError(at_header + "the header promises " + std::to_string(h.n) + " vertices and " +
                     std::to_string(h.m) + " edges, but the " + std::to_string(rest) +
                     " bytes after it cannot hold them (a truncated file?)");
  require_graph_fits(options.limits, path, static_cast<std::size_t>(h.n),
                     std::min(claimed, neighbours_held));
  const std::size_t n = static_cast<std::size_t>(h.n);

  std::unique_ptr<TokenChunks> chunks;
  std::vector<ChunkCounts> counts;
  detail::timed(options.phases, "read: scan", [&] {
    chunks = std::make_unique<TokenChunks>(*file, h.body, "");
    counts.resize(chunks->chunks());
    // Pass 1: lines and neighbours per chunk (a comment line starts with '%').
    chunks->for_each_chunk([&](std::size_t c, ChunkTokens& tokens, std::size_t) {
      ChunkCounts& count = counts[c];
      std::size_t line = 0, on_line = 0, comment_lines = 0;
      bool comment = false;
      std::string_view token;
      auto end_line = [&] {
        if (line && !comment) count.neighbours += neighbours_on_line(h, on_line);
      };
      while (tokens.next(token)) {
        if (tokens.line() != line) {
          end_line();
          line = tokens.line();
          on_line = 0;
          comment = token[0] == '%';
          comment_lines += comment;
        }
        ++on_line;
      }
      end_line();
      // lines of the chunk: those ended by its newlines, and an unterminated last line of the file
      std::size_t lines = chunks->end_line(c) - chunks->first_line(c);
      if (line == chunks->end_line(c)) ++lines;
      count.vertex_lines = lines - comment_lines;
    });
  });
  std::size_t vertex_lines = 0, neighbours = 0;
  std::vector<std::size_t> first_vertex(counts.size()), first_column(counts.size());
  for (std::size_t c = 0; c < counts.size(); ++c) {
    first_vertex[c] = vertex_lines;
    first_column[c] = neighbours;
    vertex_lines += counts[c].vertex_lines;
    neighbours += counts[c].neighbours;
  }
  Csr g;
  detail::timed(options.phases, "read: parse", [&] {
    require_graph_fits(options.limits, path, n, neighbours);
    g.row_offset.assign(n + 1, 0);
    g.column.resize(neighbours);
    // Pass 2: every line checked, its neighbours placed in its row.
    chunks->for_each_chunk([&](std::size_t c, ChunkTokens& tokens, std::size_t index) {
      std::size_t v = first_vertex[c], column = first_column[c];
      std::size_t line = chunks->first_line(c);  // the line vertex v is on
      std::string_view token;
      bool have = tokens.next(token);
      while (have) {
        const std::size_t token_line = tokens.line();
        for (; line < token_line; ++line, ++v)  // empty lines: vertices without neighbours
          if (v < n) g.row_offset[v] = static_cast<std::int64_t>(column);
        line = token_line + 1;
        if (token[0] == '%') {  // a comment line is not a vertex
          do {
            have = tokens.next(token);
            ++index;
          } while (have && tokens.line() == token_line);
          continue;
        }
        if (v >= n)
          chunks->fail(index, token_line,
                       "more vertex lines than the " + std::to_string(n) +
                           " vertices of the header");
        g.row_offset[v] = static_cast<std::int64_t>(column);
        std::size_t position = 0;
        for (; have && tokens.line() == token_line; have = tokens.next(token), ++index, ++position) {
          if (token[0] == '%') chunks->fail(index, token_line, "a comment must start its line");
          if (token.find('\0') != std::string_view::npos)
            chunks->fail(index, token_line, "binary data (a NUL byte) in a text file");
          const bool is_neighbour = position >= h.leading &&
                                    (!h.edge_weights || (position - h.leading) % 2 == 0);
          if (is_neighbour) {
            detail::vertex_id(token, 1, h.n, "neighbour", g.column[column++],
                              [&](const std::string& problem) {
                                chunks->fail(index, token_line, problem);
                              });
          } else {
            double x;
            if (!parse_double(token, x))
              chunks->fail(index, token_line,
                           "expected a number, found '" + std::string(token.substr(0, 40)) + "'");
          }
        }
        if (h.edge_weights && position > h.leading && (position - h.leading) % 2)
          chunks->fail(index - 1, token_line, "a neighbour without its edge weight");
        if (position < h.leading)
          chunks->fail(index - 1, token_line, "vertex line without its size/weights");
        ++v;
      }
      for (std::size_t end = first_vertex[c] + counts[c].vertex_lines; v < end && v < n; ++v)
        g.row_offset[v] = static_cast<std::int64_t>(column);  // empty lines ending the chunk
    });
  });
  // The text after the file's last newline is a line too, empty here: the last vertex, isolated
  // (what a writer gives that ends every line but the last, or trims trailing white space).
  if (vertex_lines + 1 == n && !text.empty() && text.back() == '\n') {
    g.row_offset[n - 1] = static_cast<std::int64_t>(neighbours);
    ++vertex_lines;
  }
  if (vertex_lines < n)
    throw InputError(path + ":" + std::to_string(chunks->end_line(chunks->chunks() - 1)) +
                     ": the file ends after " + std::to_string(vertex_lines) + " of the " +
                     std::to_string(n) + " vertex lines the header promises");
  if (neighbours != 2 * static_cast<std::uint64_t>(h.m))
    throw InputError(path + ": the header says " + std::to_string(h.m) + " edges (" +
                     std::to_string(2 * static_cast<std::uint64_t>(h.m)) +
                     " neighbour entries) but the file lists " +
                     std::to_string(neighbours) + " neighbour entries");
  g.row_offset[n] = static_cast<std::int64_t>(neighbours);
  detail::timed(options.phases, "read: csr", [&] {
    normalize_rows(g);  // METIS lists both directions already, in any order
    g.undirected = has_reverse_arcs(g);
  });
  return g;
}

void write_metis(std::ostream& out, const Csr& graph) {
  if (!graph.undirected)
    throw InputError("a METIS file holds undirected graphs only; this graph has an arc without "
                     "its reverse (write .mtx, .npz, .csr or an edge list)");
  out << graph.vertices() << " " << graph.edges() / 2 << "\n";
  detail::write_rows(out, graph.vertices(), [&](std::string& text, std::size_t v) {
    for (std::int64_t e = graph.row_offset[v]; e < graph.row_offset[v + 1]; ++e)
      detail::append_number(text, std::int64_t(graph.column[e]) + 1,
                            e + 1 < graph.row_offset[v + 1] ? ' ' : '\n');
    if (graph.row_offset[v] == graph.row_offset[v + 1]) text += '\n';
  });
}

}  // namespace treefix
