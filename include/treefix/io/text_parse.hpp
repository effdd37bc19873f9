#pragma once
// Parsing large text files on every host core: the file is mapped whole, cut into chunks at line
// starts, and each chunk is tokenized by its own thread with std::from_chars; no per-token
// string is built. Two passes: the first counts the tokens (and lines) of every chunk, so the
// second knows where each chunk's values go and which line each token is on. Errors name the
// exact file, line and token wherever they fall, chunk boundaries included; when several chunks
// fail, the error nearest the start of the file is reported, as a sequential reader would.
//
//   TextFile file(path);                                   // mapped (or read, for a pipe)
//   TokenChunks chunks(file, offset_after_header, "#");    // pass 1: tokens per chunk
//   std::vector<std::int64_t> values(chunks.tokens());
//   chunks.parse(values.data(), [](std::string_view token, std::int64_t& v) {
//     return parse_int(token, v) ? "" : "is not an integer";    // "" = fine, else what is wrong
//   });                                                        // pass 2, InputError on failure
//
// Formats with line structure (an edge list: two ids per line) walk the tokens of each chunk
// themselves through for_each_chunk, with ChunkTokens::line() for the checks.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "treefix/core/error.hpp"

namespace treefix {

// The bytes of a file: mapped read-only when it is a regular file, else read whole; "-" is standard
// input (read once per process and shared by every TextFile of "-"). A gzip, xz or zstd file is
// decompressed into memory (treefix/io/compressed.hpp), so every reader takes compressed input.
// Refuses directories and unreadable paths with InputError "path: cannot open: reason".
class TextFile {
 public:
  explicit TextFile(const std::string& path);
  // The lines of an uncompressed regular file that start in its bytes [begin, end) (a line starts
  // at byte 0 or after a newline), read by range (treefix/io/ranged_file.hpp): how the ranks of a
  // world share one text file, each parsing its own lines. Consecutive ranges cover every line
  // once. Lines are numbered from 1 until number_lines_from says where the first one stands.
  struct ByteRange {
    std::uint64_t begin = 0, end = 0;
  };
  TextFile(const std::string& path, ByteRange lines);
  void number_lines_from(std::size_t first_line) { first_line_ = first_line; }
  ~TextFile();
  TextFile(const TextFile&) = delete;
  TextFile& operator=(const TextFile&) = delete;
  const std::string& path() const { return path_; }
  std::string_view text() const { return {data_, size_}; }
  std::size_t size() const { return size_; }
  // The 1-based line of byte `offset` (counts newlines before it; O(offset)).
  std::size_t line_of(std::size_t offset) const;

 private:
  std::string path_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t first_line_ = 1;
  void* mapping_ = nullptr;
  std::string copy_;  // the bytes of a file that could not be mapped, or decompressed
  std::shared_ptr<const std::string> shared_;  // standard input's bytes
  void open_file();
};

// Whether a token of `text` (comments skipped) holds a decimal point or an exponent: numbers that
// ask for a floating-point type ("0.5", "1e-3"), where "12" and "-7" stay integers.
bool text_looks_fractional(std::string_view text, const char* comments);

// One chunk's tokens, in order, with their lines. Tokens are runs of characters other than white
// space; a comment character starts a comment to the end of its line.
class ChunkTokens {
 public:
  ChunkTokens(std::string_view text, std::size_t first_line, const char* comments)
      : at_(text.data()), end_(text.data() + text.size()), line_(first_line), comments_(comments) {}
  bool next(std::string_view& token);               // false at the end of the chunk
  std::size_t line() const { return token_line_; }  // line of the last token returned
  // Line of the next token without consuming it (0 at the end of the chunk).
  std::size_t peek_line();
  // Where the tokenizer stands (just past the last token returned).
  const char* position() const { return at_; }

 private:
  void skip_space_and_comments();
  const char* at_;
  const char* end_;
  std::size_t line_, token_line_ = 0;
  const char* comments_;
};

class TokenChunks {
 public:
  // Cuts file.text()[from, size) into chunks (about 4 per host thread, none below 1 MiB unless
  // the text is smaller) at line starts and counts each chunk's tokens in parallel.
  TokenChunks(const TextFile& file, std::size_t from, const char* comments);
  std::size_t tokens() const { return token_offset_.back(); }
  std::size_t chunks() const { return begin_.size(); }
  // The line of the last token (the line of `from` when there is none): where a file that ends
  // too early is reported.
  std::size_t last_token_line() const { return last_token_line_; }
  // The line chunk c starts on, and the line just after its last newline (where chunk c + 1
  // starts; for the last chunk, the line of text after the file's last newline, if any). Formats
  // whose lines matter (METIS: line i is vertex i) count lines per chunk with these.
  std::size_t first_line(std::size_t chunk) const { return first_line_[chunk]; }
  std::size_t end_line(std::size_t chunk) const {
    return chunk + 1 < first_line_.size() ? first_line_[chunk + 1] : end_line_;
  }

  // Parses every token into out[0 .. tokens()): convert(token, value) returns "" for a good token
  // or a phrase saying what is wrong ("is not an integer"). Throws InputError
  // "path:line: token N ('text') is not an integer" for the first bad token of the file.
  template <class T, class Convert>
  void parse(T* out, Convert convert, const char* what = "token") const;

  // body(chunk, tokens, first_token_index) for every chunk, in parallel. A body reports a
  // problem with fail(); the one nearest the start of the file is thrown after all chunks ran.
  void for_each_chunk(const std::function<void(std::size_t chunk, ChunkTokens& tokens,
                                               std::size_t first_token)>& body) const;
  // For bodies: an InputError "path:line: message" marked with the token index where it arose.
  [[noreturn]] void fail(std::size_t token_index, std::size_t line,
                         const std::string& message) const;

 private:
  const TextFile& file_;
  const char* comments_;
  std::vector<std::size_t> begin_, end_, first_line_;  // per chunk, byte range and first line
  std::vector<std::size_t> token_offset_;              // chunks + 1 entries
  std::size_t last_token_line_ = 1, end_line_ = 1;
};

// The error a chunk raised, with where: ordered by token index so that the first in the file wins.
class ChunkError : public InputError {
 public:
  ChunkError(std::size_t token_index, const std::string& message)
      : InputError(message), token_index_(token_index) {}
  std::size_t token_index() const { return token_index_; }

 private:
  std::size_t token_index_;
};

template <class T, class Convert>
void TokenChunks::parse(T* out, Convert convert, const char* what) const {
  for_each_chunk([&](std::size_t, ChunkTokens& tokens, std::size_t index) {
    std::string_view token;
    while (tokens.next(token)) {
      const char* problem = token.find('\0') != std::string_view::npos
                                ? "is binary data (a NUL byte) in a text file"
                                : convert(token, out[index]);
      if (problem && *problem)
        fail(index, tokens.line(),
             std::string(what) + " " + std::to_string(index) + " ('" +
                 std::string(token.substr(0, 40)) + "') " + problem);
      ++index;
    }
  });
}

}  // namespace treefix
