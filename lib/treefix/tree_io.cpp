// Tree and weight files of the treefix commands (treefix/treefix/tree_io.hpp).
#include "treefix/treefix/tree_io.hpp"

#include <limits>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/text_io.hpp"

namespace treefix {

ParentArray read_tree(const std::string& path) {
  TokenStream in(path, "#");
  std::int64_t n = in.next_int("the vertex count");
  if (n < 0) in.fail("negative vertex count " + std::to_string(n));
  if (n > INT32_MAX) in.fail("vertex count " + std::to_string(n) + " exceeds 2^31-1");
  ParentArray parent(static_cast<std::size_t>(n));
  for (std::int64_t v = 0; v < n; ++v) {
    std::string what = "the parent of vertex " + std::to_string(v);
    std::int64_t p = in.next_int(what.c_str());
    if (p < -1 || p >= n)
      in.fail("vertex " + std::to_string(v) + " has parent " + std::to_string(p) +
              ", outside -1.." + std::to_string(n - 1));
    parent[v] = static_cast<vertex_t>(p);
  }
  std::string_view extra;
  if (in.next(extra))
    in.fail("unexpected '" + std::string(extra.substr(0, 40)) + "' after " + std::to_string(n) +
            " parents");
  try {
    validate_parent_array(parent);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
  return parent;
}

template <class T>
std::vector<T> read_weights(const std::string& path, std::size_t n) {
  TokenStream in(path, "#");
  std::vector<T> weights(n);
  std::string_view token;
  for (std::size_t i = 0; i < n; ++i) {
    if (!in.next(token))
      throw InputError(in.where() + ": " + std::to_string(i) + " weights for " + std::to_string(n) +
                       " vertices");
    if constexpr (std::is_integral_v<T>) {
      std::int64_t v;
      if (!parse_int(token, v) || v < std::numeric_limits<T>::min() ||
          v > std::numeric_limits<T>::max())
        in.fail("weight " + std::to_string(i) + " '" + std::string(token.substr(0, 40)) +
                "' is not a " + (sizeof(T) == 4 ? "32" : "64") + "-bit integer");
      weights[i] = static_cast<T>(v);
    } else {
      double v;
      if (!parse_double(token, v))
        in.fail("weight " + std::to_string(i) + " '" + std::string(token.substr(0, 40)) +
                "' is not a number");
      weights[i] = static_cast<T>(v);
    }
  }
  if (in.next(token))
    in.fail("more than " + std::to_string(n) + " weights (the tree has " + std::to_string(n) +
            " vertices)");
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
