// Fuzz target: text weight files, read as every value type (read_weights<T>), once with the
// count of the input's white-space-separated words (the count a well-formed file has) and once
// with a fixed count (the count-mismatch paths).
#include <cctype>

#include "fuzz_support.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace {

std::size_t words(std::string_view text) {
  std::size_t count = 0;
  bool in_word = false;
  for (unsigned char c : text) {
    const bool space = std::isspace(c) != 0;
    count += !space && !in_word;
    in_word = !space;
  }
  return count;
}

template <class T>
void read_as(const std::string& path, std::size_t n) {
  std::vector<T> weights;
  if (treefix::fuzz::expect_refusal([&] { weights = treefix::read_weights<T>(path, n); }))
    treefix::fuzz::require(weights.size() == n, "exactly n weights");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = treefix::fuzz::as_file(data, size);
  for (std::size_t n : {words(treefix::fuzz::as_text(data, size)), std::size_t(3)}) {
    read_as<std::int32_t>(path, n);
    read_as<std::int64_t>(path, n);
    read_as<float>(path, n);
    read_as<double>(path, n);
  }
  return 0;
}
