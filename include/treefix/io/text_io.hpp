#pragma once
// Reading text: a streaming tokenizer with line numbers, and number parsing. Formats live with
// their modules (treefix/tree_io.hpp, graph/graph_io.hpp, spatial/points_io.hpp,
// forest/forest_io.hpp); large files are parsed on all host cores (io/text_parse.hpp).
// Readers report problems as InputError "file:line: message".
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace treefix {

class TextFile;

// Whitespace-separated tokens of a text file (mapped, or decompressed into memory; "-" is standard
// input: TextFile), with
// the line number of the current token for messages. Text after `comment_chars` (e.g. "#%") up to
// the end of the line is skipped.
class TokenStream {
 public:
  explicit TokenStream(const std::string& path, std::string comment_chars = "");
  ~TokenStream();
  TokenStream(const TokenStream&) = delete;
  TokenStream& operator=(const TokenStream&) = delete;

  bool next(std::string_view& token);               // false at end of file
  std::size_t line() const { return token_line_; }  // line of the last token returned
  std::string where() const;                        // "path:line"
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& message) const;  // InputError "path:line: message"

  // Typed reads of the next token; fail with `what` ("vertex count", "weight 12") on a missing or
  // malformed token.
  std::int64_t next_int(const char* what);
  double next_double(const char* what);

 private:
  bool fill();
  std::string path_, comments_;
  std::unique_ptr<TextFile> file_;
  std::string_view buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool eof_ = false;
  std::size_t line_ = 1, token_line_ = 0;
};

// Parses a number token completely ("12x" and "" fail); false when malformed or out of range.
bool parse_int(std::string_view token, std::int64_t& value);
bool parse_double(std::string_view token, double& value);

// The number policy of every reader of values (weights, coordinates, masses, branch lengths,
// similarity weights, XML attribute weights): the token parses completely, is finite, and is
// representable in T: an integer in T's range; a floating-point value that rounds to a finite T
// (for float: |x| < FLT_MAX + half an ulp, so "3.4028235e+38" is FLT_MAX and "1e39" is refused;
// a value too small for T rounds to zero or a subnormal and is kept). "nan", "inf" and "1e400"
// are refused, never stored. Returns "" when the value is good, else what is wrong ("is not a
// number", "is not finite", "overflows float", "is not a 32-bit integer"), for a message
// "file:line: weight 7 ('1e39') overflows float".
template <class T>
const char* parse_value(std::string_view token, T& value);

// The same policy for a value already held as a double (a float64 .npy element or a branch
// length stored as float): "" when it is finite and rounds to a finite T, else "is not finite"
// or "overflows float". T is float or double.
template <class T>
const char* representable(double value);

}  // namespace treefix
