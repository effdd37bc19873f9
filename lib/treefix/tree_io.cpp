// Tree and weight files of the treefix commands (treefix/treefix/tree_io.hpp): text parsed on all
// host cores (io/text_parse.hpp), .npy (io/npy.hpp), Newick (newick.cpp).
#include "treefix/treefix/tree_io.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/file_kind.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"
#include "treefix/io/value_format.hpp"

namespace treefix {

namespace {

ParentArray read_parents_text(const std::string& path) {
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
  // Every parent takes at least two bytes ("0\n"): a count the file cannot hold is refused before
  // anything is allocated, as is one the host cannot hold.
  const std::size_t rest =
      file.size() - static_cast<std::size_t>(head.position() - file.text().data());
  if (static_cast<std::uint64_t>(n) > rest / 2 + 1)
    throw InputError(at_count + "vertex count " + std::to_string(n) + ", but the " +
                     std::to_string(rest) + " bytes after it cannot hold that many parents");
  require_host_memory(bytes_for(static_cast<std::uint64_t>(n), sizeof(vertex_t)),
                      path + ": a tree of " + std::to_string(n) + " vertices");
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
  return parent;
}

ParentArray read_parents_npy(const std::string& path) {
  const auto type = npy_value_type(path);
  if (type != ValueType::int32 && type != ValueType::int64)
    throw InputError(path + ": parents must be a .npy array of int32 or int64 (-1 for a root)");
  ParentArray parent = read_npy_values<vertex_t>(path, "parent of vertex");
  const std::int64_t n = static_cast<std::int64_t>(parent.size());
  const Ranges pieces(parent.size(), 4 * std::size_t(host_threads()), std::size_t(1) << 16);
  std::vector<std::size_t> first_bad(pieces.count, parent.size());
  parallel_for(pieces.count, [&](std::size_t p) {
    for (std::size_t v = pieces.begin(p); v < pieces.end(p); ++v)
      if (parent[v] < -1 || parent[v] >= n) {
        first_bad[p] = v;
        return;
      }
  });
  for (std::size_t v : first_bad)
    if (v < parent.size())
      throw InputError(path + ": vertex " + std::to_string(v) + " has parent " +
                       std::to_string(parent[v]) + ", outside -1.." + std::to_string(n - 1));
  return parent;
}

}  // namespace

TreeFormat tree_format_of(const std::string& path, TreeFormat given) {
  if (given != TreeFormat::automatic) return given;
  switch (file_kind(path)) {
    case FileKind::npy:
      return TreeFormat::npy;
    case FileKind::newick:
      return TreeFormat::newick;
    case FileKind::maybe_newick:
      return content_is_newick(path) ? TreeFormat::newick : TreeFormat::parents;
    default:
      return is_standard_stream(path) && content_is_newick(path) ? TreeFormat::newick
                                                                 : TreeFormat::parents;
  }
}

TreeInput read_tree_input(const std::string& path, const TreeReadOptions& options) {
  TreeInput input;
  switch (tree_format_of(path, options.format)) {
    case TreeFormat::newick: {
      NewickTree tree = read_newick(path, options.names);
      input.parent = std::move(tree.parent);
      input.lengths = std::move(tree.length);
      input.names = std::move(tree.names);
      input.has_lengths = true;
      return input;  // a forest by construction: every parent precedes its children
    }
    case TreeFormat::npy:
      input.parent = read_parents_npy(path);
      break;
    default:
      input.parent = read_parents_text(path);
      break;
  }
  if (options.validate) {
    try {
      validate_parent_array(input.parent);
    } catch (const InputError& e) {
      throw InputError(path + ": " + e.what());
    }
  }
  return input;
}

ParentArray read_tree(const std::string& path) { return read_tree_input(path).parent; }

template <class T>
std::vector<T> read_weights(const std::string& path, std::size_t n) {
  if (is_npy_path(path)) {
    std::vector<T> weights = read_npy_values<T>(path, "weight");
    if (weights.size() != n)
      throw InputError(path + ": " + std::to_string(weights.size()) + " weights for " +
                       std::to_string(n) + " vertices");
    return weights;
  }
  TextFile file(path);
  TokenChunks chunks(file, 0, "#");
  if (chunks.tokens() < n)
    throw InputError(path + ":" + std::to_string(chunks.last_token_line()) + ": " +
                     std::to_string(chunks.tokens()) + " weights for " + std::to_string(n) +
                     " vertices");
  require_host_memory(bytes_for(n, sizeof(T)), path + ": " + std::to_string(n) + " weights");
  std::vector<T> weights(n);
  chunks.for_each_chunk([&](std::size_t, ChunkTokens& tokens, std::size_t i) {
    std::string_view t;
    for (; tokens.next(t); ++i) {
      if (i >= n)
        chunks.fail(i, tokens.line(),
                    "more than " + std::to_string(n) + " weights (the tree has " +
                        std::to_string(n) + " vertices)");
      if (t.find('\0') != std::string_view::npos)
        chunks.fail(i, tokens.line(), "binary data (a NUL byte) in a text file");
      if (const char* problem = parse_value(t, weights[i]); *problem)
        chunks.fail(
            i, tokens.line(),
            "weight " + std::to_string(i) + " '" + std::string(t.substr(0, 40)) + "' " + problem);
    }
  });
  return weights;
}

template <class T>
std::vector<T> lengths_as(const std::vector<double>& lengths, const std::string& path) {
  std::vector<T> out(lengths.size());
  for (std::size_t v = 0; v < lengths.size(); ++v) {
    const double x = lengths[v];
    const char* problem = "";
    if constexpr (std::is_integral_v<T>) {
      if (std::trunc(x) != x || x < static_cast<double>(std::numeric_limits<T>::min()) ||
          x >= -static_cast<double>(std::numeric_limits<T>::min()))
        problem = sizeof(T) == 4 ? "is not a 32-bit integer" : "is not a 64-bit integer";
    } else {
      problem = representable<T>(x);
    }
    if (*problem) {
      char shown[32];  // the shortest text of the length ("1e+39"), as the output writes values
      const char* end = std::to_chars(shown, shown + sizeof shown, x).ptr;
      throw InputError(path + ": the branch length of node " + std::to_string(v) + " (" +
                       std::string(shown, static_cast<std::size_t>(end - shown)) + ") " + problem +
                       " (choose --type double, or give --weights)");
    }
    out[v] = static_cast<T>(x);
  }
  return out;
}

void write_tree(std::ostream& out, const ParentArray& parent) {
  out << parent.size() << '\n';
  write_values(out, parent);
}

void write_tree_file(const std::string& path, const ParentArray& parent) {
  if (is_npy_path(path))
    write_values_file(path, parent);  // int32, -1 for a root
  else
    write_output(path, [&](std::ostream& out) { write_tree(out, parent); });
}

template <class T>
void write_values_file(const std::string& path, const std::vector<T>& values) {
  write_output(path, [&](std::ostream& out) {
    if (is_npy_path(path))
      write_npy(out, values.data(), {values.size()});
    else
      write_values(out, values);
  });
}

template <class T>
void write_named_values_file(const std::string& path, const NodeNames& names,
                             const std::vector<T>& values) {
  constexpr std::size_t kSlice = std::size_t(1) << 14;
  write_output(path, [&](std::ostream& out) {
    write_slices(out, (values.size() + kSlice - 1) / kSlice, [&](std::string& text, std::size_t s) {
      const std::size_t end = std::min(values.size(), (s + 1) * kSlice);
      for (std::size_t v = s * kSlice; v < end; ++v) {
        if (v < names.size())
          for (char c : names[v]) text += c == '\t' || c == '\n' || c == '\r' ? ' ' : c;
        text += '\t';
        format_values(text, &values[v], 1);
      }
    });
  });
}

#define TREEFIX_TREE_IO(T)                                                               \
  template std::vector<T> read_weights<T>(const std::string&, std::size_t);              \
  template std::vector<T> lengths_as<T>(const std::vector<double>&, const std::string&); \
  template void write_values_file<T>(const std::string&, const std::vector<T>&);         \
  template void write_named_values_file<T>(const std::string&, const NodeNames&,         \
                                           const std::vector<T>&);
TREEFIX_TREE_IO(std::int32_t)
TREEFIX_TREE_IO(std::int64_t)
TREEFIX_TREE_IO(float)
TREEFIX_TREE_IO(double)
#undef TREEFIX_TREE_IO

}  // namespace treefix
