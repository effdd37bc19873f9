// Values as text, formatted with std::to_chars on all host cores (treefix/io/value_format.hpp).
#include "treefix/io/value_format.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "treefix/core/parallel.hpp"

namespace treefix {

namespace {
// Longest line of a value: "-1.7976931348623157e+308" and a newline; int64 is shorter.
constexpr std::size_t kMaxLine = 26;
// Values per slice: big enough to amortise a fork-join, small enough that a batch of slices (one
// per thread, twice over) stays a few tens of MB of text.
constexpr std::size_t kSlice = std::size_t(1) << 16;
}  // namespace

template <class T>
void format_values(std::string& text, const T* values, std::size_t count) {
  const std::size_t start = text.size();
  text.resize(start + count * kMaxLine);
  char* at = text.data() + start;
  char* const end = text.data() + text.size();
  for (std::size_t i = 0; i < count; ++i) {
    at = std::to_chars(at, end, values[i]).ptr;
    *at++ = '\n';
  }
  text.resize(static_cast<std::size_t>(at - text.data()));
}

void write_slices(std::ostream& out, std::size_t slices,
                  const std::function<void(std::string&, std::size_t)>& format) {
  const std::size_t batch = 2 * std::size_t(host_threads());
  std::vector<std::string> text(std::min(slices, batch));
  for (std::size_t first = 0; first < slices; first += batch) {
    const std::size_t in_batch = std::min(batch, slices - first);
    parallel_for(in_batch, [&](std::size_t s) {
      text[s].clear();
      format(text[s], first + s);
    });
    for (std::size_t s = 0; s < in_batch; ++s)
      out.write(text[s].data(), static_cast<std::streamsize>(text[s].size()));
  }
}

template <class T>
void write_values(std::ostream& out, const T* values, std::size_t count) {
  write_slices(out, (count + kSlice - 1) / kSlice, [&](std::string& text, std::size_t s) {
    const std::size_t begin = s * kSlice;
    format_values(text, values + begin, std::min(kSlice, count - begin));
  });
}

#define TREEFIX_VALUE_FORMAT(T)                                        \
  template void write_values<T>(std::ostream&, const T*, std::size_t); \
  template void format_values<T>(std::string&, const T*, std::size_t);
TREEFIX_VALUE_FORMAT(std::int32_t)
TREEFIX_VALUE_FORMAT(std::int64_t)
TREEFIX_VALUE_FORMAT(float)
TREEFIX_VALUE_FORMAT(double)
#undef TREEFIX_VALUE_FORMAT

}  // namespace treefix
