// Text formats: chunked tokenizer with line numbers, tree/weights readers, value writers.
#include "treefix/io/text_io.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <type_traits>

#include "treefix/core/error.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix {

namespace {
bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
}  // namespace

TokenStream::TokenStream(const std::string& path, std::string comment_chars)
    : path_(path), comments_(std::move(comment_chars)), file_(std::make_unique<TextFile>(path)) {}

TokenStream::~TokenStream() = default;

bool TokenStream::fill() {
  // The whole (decompressed) file is one chunk: TextFile maps it or holds it in memory.
  if (eof_) return false;
  eof_ = true;
  buffer_ = file_->text();
  begin_ = 0;
  end_ = buffer_.size();
  return end_ > 0;
}

bool TokenStream::next(std::string_view& token) {
  // skip white space and comments
  for (;;) {
    if (begin_ == end_ && !fill()) return false;
    char c = buffer_[begin_];
    if (c == '\n') {
      ++line_;
      ++begin_;
      continue;
    }
    if (is_space(c)) {
      ++begin_;
      continue;
    }
    if (c == '\0') fail("binary data (a NUL byte) in a text file");
    if (!comments_.empty() && comments_.find(c) != std::string::npos) {
      // skip to end of line
      for (;;) {
        if (begin_ == end_ && !fill()) return false;
        if (buffer_[begin_] == '\n') break;
        ++begin_;
      }
      continue;
    }
    break;
  }
  token_line_ = line_;
  const std::size_t start = begin_;
  while (begin_ < end_ && !is_space(buffer_[begin_])) {
    if (buffer_[begin_] == '\0') fail("binary data (a NUL byte) in a text file");
    ++begin_;
  }
  token = buffer_.substr(start, begin_ - start);
  return true;
}

std::string TokenStream::where() const {
  return path_ + ":" + std::to_string(token_line_ ? token_line_ : line_);
}

void TokenStream::fail(const std::string& message) const {
  throw InputError(where() + ": " + message);
}

std::int64_t TokenStream::next_int(const char* what) {
  std::string_view token;
  if (!next(token)) {
    fail(std::string("file ends where ") + what + " was expected");
  }
  std::int64_t value;
  if (!parse_int(token, value))
    fail(std::string("expected an integer for ") + what + ", found '" +
         std::string(token.substr(0, 40)) + "'");
  return value;
}

double TokenStream::next_double(const char* what) {
  std::string_view token;
  if (!next(token)) {
    fail(std::string("file ends where ") + what + " was expected");
  }
  double value;
  if (!parse_double(token, value))
    fail(std::string("expected a number for ") + what + ", found '" +
         std::string(token.substr(0, 40)) + "'");
  return value;
}

bool parse_int(std::string_view token, std::int64_t& value) {
  const char* b = token.data();
  const char* e = b + token.size();
  if (b != e && *b == '+') ++b;
  auto [ptr, ec] = std::from_chars(b, e, value);
  return ec == std::errc() && ptr == e && b != e;
}

bool parse_double(std::string_view token, double& value) {
  const char* b = token.data();
  const char* e = b + token.size();
  if (b != e && *b == '+') ++b;
  auto [ptr, ec] = std::from_chars(b, e, value);
  return ec == std::errc() && ptr == e && b != e;
}

template <class T>
const char* representable(double value) {
  if (!std::isfinite(value)) return "is not finite";
  // A float holds what rounds to a finite float: below FLT_MAX + half its ulp (0x1.ffffffp127),
  // so that "3.4028235e+38", the shortest text of FLT_MAX, reads back as FLT_MAX.
  if constexpr (std::is_same_v<T, float>)
    if (!std::isfinite(static_cast<float>(value))) return "overflows float";
  return "";
}

template <class T>
const char* parse_value(std::string_view token, T& value) {
  if constexpr (std::is_integral_v<T>) {
    std::int64_t v = 0;
    if (!parse_int(token, v) || v < std::numeric_limits<T>::min() ||
        v > std::numeric_limits<T>::max())
      return sizeof(T) == 4 ? "is not a 32-bit integer" : "is not a 64-bit integer";
    value = static_cast<T>(v);
  } else {
    // Parsed straight into T (one correct rounding, not decimal -> double -> float).
    T v = 0;
    const char* b = token.data();
    const char* e = b + token.size();
    if (b != e && *b == '+') ++b;
    auto [ptr, ec] = std::from_chars(b, e, v);
    if (ptr != e || b == e || (ec != std::errc() && ec != std::errc::result_out_of_range))
      return "is not a number";
    if (ec == std::errc::result_out_of_range) {
      // Beyond T's range: an overflow is refused; an underflow rounds to zero (or a subnormal),
      // which represents it as well as the type can.
      const std::string copy(b, e);
      v = std::is_same_v<T, float> ? static_cast<T>(std::strtof(copy.c_str(), nullptr))
                                   : static_cast<T>(std::strtod(copy.c_str(), nullptr));
      if (std::isinf(v)) return sizeof(T) == 4 ? "overflows float" : "overflows double";
    }
    if (!std::isfinite(v)) return "is not finite";
    value = v;
  }
  return "";
}

template const char* representable<float>(double);
template const char* representable<double>(double);
template const char* parse_value<std::int32_t>(std::string_view, std::int32_t&);
template const char* parse_value<std::int64_t>(std::string_view, std::int64_t&);
template const char* parse_value<float>(std::string_view, float&);
template const char* parse_value<double>(std::string_view, double&);

}  // namespace treefix
