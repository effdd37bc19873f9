// Tree and weight files of the treefix commands (treefix/treefix/tree_io.hpp), parsed on all host
// cores (core/text_parse.hpp).
#include "treefix/treefix/tree_io.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/core/text_parse.hpp"

namespace treefix {

ParentArray read_tree(const std::string& path) {
  TextFile file(path);
  // The vertex count: the first token.
  ChunkTokens head(file.text(), 1, "#");
  std::string_view token;
  if (!head.next(token))
    throw InputError(path + ":1: file ends where the vertex count was expected");
  std::int64_t n = 0;
  if (!parse_int(token, n))
    throw InputError(path + ":" + std::to_string(head.line()) +
                     ": expected an integer for the vertex count, found '" +
                     std::string(token.substr(0, 40)) + "'");
  const std::string at_count = path + ":" + std::to_string(head.line()) + ": ";
  if (n < 0) throw InputError(at_count + "negative vertex count " + std::to_string(n));
  if (n > INT32_MAX)
    throw InputError(at_count + "vertex count " + std::to_string(n) + " exceeds 2^31-1");
  // The parents, in parallel.
  TokenChunks chunks(file, static_cast<std::size_t>(head.position() - file.text().data()), "#");
  ParentArray parent(static_cast<std::size_t>(n));
  chunks.for_each_chunk([&](std::size_t, ChunkTokens& tokens, std::size_t v) {
    std::string_view t;
    for (; tokens.next(t); ++v) {
      if (v >= parent.size())
        chunks.fail(v, tokens.line(),
                    "unexpected '" + std::string(t.substr(0, 40)) + "' after " + std::to_string(n) +
                        " parents");
      std::int64_t p = 0;
      if (t.find('\0') != std::string_view::npos)
        chunks.fail(v, tokens.line(), "binary data (a NUL byte) in a text file");
      if (!parse_int(t, p))
        chunks.fail(v, tokens.line(),
                    "expected an integer for the parent of vertex " + std::to_string(v) +
                        ", found '" + std::string(t.substr(0, 40)) + "'");
      if (p < -1 || p >= n)
        chunks.fail(v, tokens.line(),
                    "vertex " + std::to_string(v) + " has parent " + std::to_string(p) +
                        ", outside -1.." + std::to_string(n - 1));
      parent[v] = static_cast<vertex_t>(p);
    }
  });
  if (chunks.tokens() < parent.size())
    throw InputError(path + ":" + std::to_string(chunks.last_token_line()) +
                     ": file ends where the parent of vertex " + std::to_string(chunks.tokens()) +
                     " was expected");
  try {
    validate_parent_array(parent);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  return parent;
}

template <class T>
std::vector<T> read_weights(const std::string& path, std::size_t n) {
  TextFile file(path);
  TokenChunks chunks(file, 0, "#");
  if (chunks.tokens() < n)
    throw InputError(path + ":" + std::to_string(chunks.last_token_line()) + ": " +
                     std::to_string(chunks.tokens()) + " weights for " + std::to_string(n) +
                     " vertices");
  std::vector<T> weights(n);
  chunks.for_each_chunk([&](std::size_t, ChunkTokens& tokens, std::size_t i) {
    std::string_view t;
    for (; tokens.next(t); ++i) {
      if (i >= n)
        chunks.fail(i, tokens.line(),
                    "more than " + std::to_string(n) + " weights (the tree has " +
                        std::to_string(n) + " vertices)");
      const std::string at =
          "weight " + std::to_string(i) + " '" + std::string(t.substr(0, 40)) + "'";
      if (t.find('\0') != std::string_view::npos)
        chunks.fail(i, tokens.line(), "binary data (a NUL byte) in a text file");
      if (const char* problem = parse_value(t, weights[i]); *problem)
        chunks.fail(i, tokens.line(), at + " " + problem);
    }
  });
  return weights;
}

template std::vector<std::int32_t> read_weights<std::int32_t>(const std::string&, std::size_t);
template std::vector<std::int64_t> read_weights<std::int64_t>(const std::string&, std::size_t);
template std::vector<float> read_weights<float>(const std::string&, std::size_t);
template std::vector<double> read_weights<double>(const std::string&, std::size_t);

void write_tree(std::ostream& out, const ParentArray& parent) {
  std::string text = std::to_string(parent.size()) + "\n";
  for (vertex_t p : parent) {
    text += std::to_string(p);
    text += '\n';
    if (text.size() > (1 << 20)) {
      out << text;
      text.clear();
    }
  }
  out << text;
}

}  // namespace treefix
