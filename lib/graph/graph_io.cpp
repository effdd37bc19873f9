// Graph files: Matrix Market, edge lists and METIS, read into CSR; writers.
#include "treefix/graph/graph_io.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ostream>

#include "treefix/core/error.hpp"
#include "treefix/core/text_io.hpp"

namespace treefix {

GraphFormat format_from_extension(const std::string& path) {
  auto dot = path.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "mtx") return GraphFormat::mtx;
  if (ext == "graph" || ext == "metis") return GraphFormat::metis;
  return GraphFormat::edges;
}

Csr read_graph(const std::string& path, const GraphReadOptions& options) {
  GraphFormat f =
      options.format == GraphFormat::automatic ? format_from_extension(path) : options.format;
  switch (f) {
    case GraphFormat::mtx:
      return read_matrix_market(path);
    case GraphFormat::metis:
      return read_metis(path);
    default:
      return read_edge_list(path, options.edges_directed);
  }
}

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A vertex id token in 1-based (or 0-based) numbering, checked against n.
vertex_t vertex_token(TokenStream& in, std::string_view token, std::int64_t base, std::int64_t n,
                      const char* what) {
  std::int64_t id;
  if (!parse_int(token, id))
    in.fail(std::string("expected an integer ") + what + ", found '" +
            std::string(token.substr(0, 40)) + "'");
  if (id < base || id >= n + base)
    in.fail(std::string(what) + " " + std::to_string(id) + " outside " + std::to_string(base) +
            ".." + std::to_string(n + base - 1));
  return static_cast<vertex_t>(id - base);
}

}  // namespace

Csr read_matrix_market(const std::string& path) {
  // The banner is a comment line to the tokenizer, so read it first by hand.
  std::string banner;
  {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw InputError(path + ": cannot open: " + std::strerror(errno));
    char buf[1024];
    if (!std::fgets(buf, sizeof buf, f)) buf[0] = '\0';
    std::fclose(f);
    banner = buf;
  }
  std::vector<std::string> words;
  {
    std::string word;
    for (char c : banner) {
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (!word.empty()) words.push_back(lower(word));
        word.clear();
      } else {
        word += c;
      }
    }
    if (!word.empty()) words.push_back(lower(word));
  }
  if (words.size() < 5 || words[0] != "%%matrixmarket")
    throw InputError(path +
                     ":1: not a Matrix Market file (expected '%%MatrixMarket matrix "
                     "coordinate <field> <symmetry>')");
  if (words[1] != "matrix" || words[2] != "coordinate")
    throw InputError(path + ":1: only 'matrix coordinate' Matrix Market files hold graphs, not '" +
                     words[1] + " " + words[2] + "'");
  const std::string& field = words[3];
  const std::string& symmetry = words[4];
  int values_per_entry;
  if (field == "pattern")
    values_per_entry = 0;
  else if (field == "real" || field == "integer" || field == "double")
    values_per_entry = 1;
  else if (field == "complex")
    values_per_entry = 2;
  else
    throw InputError(path + ":1: unknown Matrix Market field '" + field + "'");
  bool symmetric;
  if (symmetry == "general")
    symmetric = false;
  else if (symmetry == "symmetric" || symmetry == "skew-symmetric" || symmetry == "hermitian")
    symmetric = true;
  else
    throw InputError(path + ":1: unknown Matrix Market symmetry '" + symmetry + "'");

  TokenStream in(path, "%");
  std::int64_t rows = in.next_int("the row count");
  std::int64_t cols = in.next_int("the column count");
  std::int64_t entries = in.next_int("the entry count");
  if (rows < 0 || cols < 0 || entries < 0) in.fail("negative size in the size line");
  if (rows != cols)
    in.fail("a graph needs a square matrix, this one is " + std::to_string(rows) + " x " +
            std::to_string(cols));
  if (rows > INT32_MAX) in.fail(std::to_string(rows) + " vertices exceed 2^31-1");
  std::vector<vertex_t> source, target;
  source.reserve(static_cast<std::size_t>(std::min<std::int64_t>(entries, 1 << 26)));
  target.reserve(source.capacity());
  std::string_view token;
  for (std::int64_t e = 0; e < entries; ++e) {
    if (!in.next(token))
      in.fail("file ends after " + std::to_string(e) + " of " + std::to_string(entries) +
              " entries");
    std::size_t line = in.line();
    vertex_t i = vertex_token(in, token, 1, rows, "row index");
    if (!in.next(token) || in.line() != line) in.fail("entry without a column index");
    vertex_t j = vertex_token(in, token, 1, cols, "column index");
    for (int k = 0; k < values_per_entry; ++k) {
      double value;
      if (!in.next(token) || in.line() != line) in.fail("entry without its value");
      if (!parse_double(token, value))
        in.fail("expected a number for the value, found '" + std::string(token.substr(0, 40)) +
                "'");
    }
    source.push_back(i);
    target.push_back(j);
  }
  if (in.next(token))
    in.fail("unexpected '" + std::string(token.substr(0, 40)) + "' after " +
            std::to_string(entries) + " entries");
  Csr g = csr_from_edges(static_cast<std::size_t>(rows), source, target, symmetric);
  if (!g.undirected) g.undirected = has_reverse_arcs(g);  // structurally symmetric "general"
  return g;
}

Csr read_edge_list(const std::string& path, bool directed) {
  TokenStream in(path, "#%");
  std::vector<vertex_t> source, target;
  std::string_view token;
  std::int64_t largest = -1;
  while (in.next(token)) {
    std::size_t line = in.line();
    std::int64_t u, v;
    if (!parse_int(token, u) || u < 0 || u > INT32_MAX - 1)
      in.fail("expected a vertex id in 0..2^31-2, found '" + std::string(token.substr(0, 40)) +
              "'");
    if (!in.next(token) || in.line() != line)
      throw InputError(path + ":" + std::to_string(line) +
                       ": an edge needs two vertex ids ('u v')");
    if (!parse_int(token, v) || v < 0 || v > INT32_MAX - 1)
      in.fail("expected a vertex id in 0..2^31-2, found '" + std::string(token.substr(0, 40)) +
              "'");
    source.push_back(static_cast<vertex_t>(u));
    target.push_back(static_cast<vertex_t>(v));
    largest = std::max({largest, u, v});
  }
  return csr_from_edges(static_cast<std::size_t>(largest + 1), source, target, !directed);
}

Csr read_metis(const std::string& path) {
  // Lines matter in this format (line i = vertex i), so '%' comments are handled here: the
  // tokenizer runs without comment characters, and a token starting with '%' skips its line.
  TokenStream in(path, "");
  std::string_view token;
  auto skip_comments = [&](bool& have) {
    while (have && token[0] == '%') {
      std::size_t line = in.line();
      while ((have = in.next(token)) && in.line() == line) {
      }
    }
  };  // only before the header
  bool have = in.next(token);
  skip_comments(have);
  if (!have) throw InputError(path + ": empty file (expected the header 'n m [fmt [ncon]]')");
  std::size_t header_line = in.line();
  std::vector<std::int64_t> header;
  while (have && in.line() == header_line) {
    std::int64_t x;
    if (!parse_int(token, x) || x < 0)
      in.fail("expected a non-negative integer in the header, found '" +
              std::string(token.substr(0, 40)) + "'");
    header.push_back(x);
    have = in.next(token);
  }
  if (header.size() < 2 || header.size() > 4)
    throw InputError(path + ":" + std::to_string(header_line) +
                     ": header must be 'n m [fmt [ncon]]'");
  const std::int64_t n = header[0], m = header[1];
  if (n > INT32_MAX)
    throw InputError(path + ":" + std::to_string(header_line) + ": n exceeds 2^31-1");
  std::int64_t fmt = header.size() > 2 ? header[2] : 0;
  if (fmt % 10 > 1 || fmt / 10 % 10 > 1 || fmt / 100 > 1)
    throw InputError(path + ":" + std::to_string(header_line) +
                     ": fmt must be 3 binary digits, not " + std::to_string(fmt));
  const bool edge_weights = fmt % 10, vertex_weights = fmt / 10 % 10, vertex_sizes = fmt / 100;
  const std::int64_t ncon = header.size() > 3 ? header[3] : (vertex_weights ? 1 : 0);
  const std::int64_t leading = (vertex_sizes ? 1 : 0) + (vertex_weights ? ncon : 0);

  std::vector<vertex_t> source, target;
  source.reserve(static_cast<std::size_t>(std::min<std::int64_t>(2 * m, 1 << 26)));
  target.reserve(source.capacity());
  std::size_t next_line = header_line + 1;  // the line vertex `v` would be on
  std::int64_t v = 0;
  std::int64_t neighbours = 0;
  while (have) {
    std::size_t line = in.line();
    // lines skipped since the last one are empty: vertices without neighbours
    v += static_cast<std::int64_t>(line - next_line);
    next_line = line + 1;
    if (token[0] == '%') {  // a comment line is not a vertex
      while ((have = in.next(token)) && in.line() == line) {
      }
      continue;
    }
    if (v >= n)
      in.fail("more vertex lines than the " + std::to_string(n) + " vertices of the header");
    std::int64_t position = 0;
    while (have && in.line() == line) {
      if (token[0] == '%') in.fail("a comment must start its line");
      bool is_neighbour = position >= leading && (!edge_weights || (position - leading) % 2 == 0);
      if (is_neighbour) {
        vertex_t u = vertex_token(in, token, 1, n, "neighbour");
        source.push_back(static_cast<vertex_t>(v));
        target.push_back(u);
        ++neighbours;
      } else {
        double x;
        if (!parse_double(token, x))
          in.fail("expected a number, found '" + std::string(token.substr(0, 40)) + "'");
      }
      ++position;
      have = in.next(token);
    }
    if (edge_weights && position > leading && (position - leading) % 2)
      throw InputError(path + ":" + std::to_string(line) + ": a neighbour without its edge weight");
    if (position < leading)
      throw InputError(path + ":" + std::to_string(line) +
                       ": vertex line without its size/weights");
    ++v;
  }
  if (v > n)
    throw InputError(path + ": more vertex lines than the " + std::to_string(n) +
                     " vertices of the header");
  // vertices after the last non-empty line have no neighbours (trailing empty lines)
  if (neighbours != 2 * m)
    throw InputError(path + ": the header says " + std::to_string(m) + " edges (" +
                     std::to_string(2 * m) + " neighbour entries) but the file lists " +
                     std::to_string(neighbours) + " neighbour entries");
  // METIS lists both directions already
  Csr g = csr_from_edges(static_cast<std::size_t>(n), source, target, false);
  g.undirected = has_reverse_arcs(g);
  return g;
}

void write_matrix_market(std::ostream& out, const Csr& graph) {
  std::string text = "%%MatrixMarket matrix coordinate pattern general\n";
  text += std::to_string(graph.vertices()) + " " + std::to_string(graph.vertices()) + " " +
          std::to_string(graph.edges()) + "\n";
  for (std::size_t v = 0; v < graph.vertices(); ++v)
    for (std::int64_t e = graph.row_offset[v]; e < graph.row_offset[v + 1]; ++e) {
      text += std::to_string(v + 1);
      text += ' ';
      text += std::to_string(graph.column[e] + 1);
      text += '\n';
      if (text.size() > (1 << 20)) {
        out << text;
        text.clear();
      }
    }
  out << text;
}

void write_edge_list(std::ostream& out, const Csr& graph) {
  std::string text;
  for (std::size_t v = 0; v < graph.vertices(); ++v)
    for (std::int64_t e = graph.row_offset[v]; e < graph.row_offset[v + 1]; ++e) {
      text += std::to_string(v);
      text += ' ';
      text += std::to_string(graph.column[e]);
      text += '\n';
      if (text.size() > (1 << 20)) {
        out << text;
        text.clear();
      }
    }
  out << text;
}

}  // namespace treefix
