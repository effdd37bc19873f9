#pragma once
// What the graph file formats share: records of a fixed number of tokens parsed on all host cores
// by the core tokenizer (io/text_parse.hpp) for matrix_market.cpp and edge_list.cpp, vertex id
// tokens, the reading phases that --stats shows, and text written row by row on all cores.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "treefix/core/phase_times.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"
#include "treefix/io/value_format.hpp"

namespace treefix::detail {

// Records of `fields` tokens, each within one line (a line may hold several): Matrix Market
// entries, edge-list pairs. Token t of the text is field t % fields of record t / fields; since
// chunks start at line starts, no record crosses a chunk. For every token,
// field(token, record, field_index, line, fail) takes the token or calls fail("what is wrong"),
// which throws (no string is made for a good token); missing(field_index) names what a record cut
// short by the end of its line lacks. Errors are "path:line: ..." for the first bad token of the
// file (TokenChunks::fail).
template <class Field, class Missing>
void parse_records(const TokenChunks& chunks, std::size_t fields, Field field, Missing missing) {
  chunks.for_each_chunk([&](std::size_t, ChunkTokens& tokens, std::size_t index) {
    std::string_view token;
    std::size_t record_line = 0;
    // field and record kept as counters: a division per token would cost as much as parsing it
    std::size_t f = index % fields, record = index / fields;
    for (; tokens.next(token); ++index) {
      if (f == 0)
        record_line = tokens.line();
      else if (tokens.line() != record_line)
        chunks.fail(index - 1, record_line, missing(f));
      // A token holding a NUL byte never parses: binary data is named when a field fails.
      field(token, record, f, tokens.line(), [&](const std::string& problem) {
        chunks.fail(index, tokens.line(),
                    token.find('\0') != std::string_view::npos
                        ? std::string("binary data (a NUL byte) in a text file")
                        : problem);
      });
      if (++f == fields) {
        f = 0;
        ++record;
      }
    }
    if (f) chunks.fail(index - 1, record_line, missing(f));
  });
}

// What is wrong with a vertex id token (only called on failure, out of the parsing loop).
[[gnu::noinline, gnu::cold]] inline std::string bad_vertex_id(std::string_view token,
                                                              std::int64_t base, std::int64_t n,
                                                              const char* what) {
  std::int64_t value = 0;
  if (!parse_int(token, value))
    return std::string("expected an integer ") + what + ", found '" +
           std::string(token.substr(0, 40)) + "'";
  return std::string(what) + " " + std::to_string(value) + " outside " + std::to_string(base) +
         ".." + std::to_string(n + base - 1);
}

// A vertex id token: base-based (0 or 1) id in base..base+n-1 stored 0-based in `id`, or
// fail("expected an integer row index, found 'x'" / "row index 9 outside 1..3").
template <class Fail>
void vertex_id(std::string_view token, std::int64_t base, std::int64_t n, const char* what,
               std::int32_t& id, const Fail& fail) {
  std::int64_t value = 0;
  if (!parse_int(token, value) || value < base || value - base >= n)
    fail(bad_vertex_id(token, base, n, what));
  id = static_cast<std::int32_t>(value - base);
}

// f() timed as `phase` when the caller asked for phase times.
template <class F>
decltype(auto) timed(PhaseTimes* phases, const char* phase, F&& f) {
  if (!phases) return f();
  return phases->measure(phase, std::forward<F>(f));
}

// The file mapped (TextFile), timed as the "read: map" phase.
inline std::unique_ptr<TextFile> map_file(const std::string& path, PhaseTimes* phases) {
  return timed(phases, "read: map", [&] { return std::make_unique<TextFile>(path); });
}

// Appends an integer and a separator to text.
inline void append_number(std::string& text, std::int64_t value, char separator) {
  char digits[24];
  char* end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  *end++ = separator;
  text.append(digits, static_cast<std::size_t>(end - digits));
}

// Text made row by row on all host cores (io/value_format.hpp's write_slices): format(text, v)
// appends the lines of row v.
template <class Format>
void write_rows(std::ostream& out, std::size_t rows, Format format) {
  constexpr std::size_t kRowsPerSlice = std::size_t(1) << 14;
  write_slices(out, (rows + kRowsPerSlice - 1) / kRowsPerSlice,
               [&](std::string& text, std::size_t s) {
                 const std::size_t end = std::min(rows, (s + 1) * kRowsPerSlice);
                 for (std::size_t v = s * kRowsPerSlice; v < end; ++v) format(text, v);
               });
}

}  // namespace treefix::detail
