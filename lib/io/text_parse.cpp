// Parallel text parsing: mapped files, chunks at line starts, per-chunk tokenizers
// (treefix/io/text_parse.hpp).
#include "treefix/io/text_parse.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include "treefix/core/parallel.hpp"
#include "treefix/io/compressed.hpp"
#include "treefix/io/ranged_file.hpp"

namespace treefix {

namespace {

// Byte classes for the tokenizers: one table look-up per byte instead of six comparisons.
enum ByteClass : unsigned char { kToken, kSpace, kNewline, kComment };
constexpr std::array<unsigned char, 256> kByteClass = [] {
  std::array<unsigned char, 256> table{};
  for (unsigned char c : {' ', '\t', '\r', '\f', '\v'}) table[c] = kSpace;
  table['\n'] = kNewline;
  return table;
}();
inline bool is_space(char c) { return kByteClass[static_cast<unsigned char>(c)] != kToken; }

// What ChunkTokens would find in a text, counted by a byte-class state machine: one table
// look-up and a few predictable branches per byte, no per-token calls. Same rules as ChunkTokens:
// a token is a run of non-space bytes; a comment character where a token would start makes the
// rest of its line a comment.
struct CountResult {
  std::size_t tokens = 0, newlines = 0, last_token_line = 0;
};
CountResult count_tokens(std::string_view text, const char* comments) {
  std::array<unsigned char, 256> kind = kByteClass;
  for (const char* c = comments; c && *c; ++c) kind[static_cast<unsigned char>(*c)] = kComment;
  CountResult r;
  bool in_token = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    switch (kind[static_cast<unsigned char>(text[i])]) {
      case kToken:
        if (!in_token) {
          ++r.tokens;
          r.last_token_line = r.newlines;
          in_token = true;
        }
        break;
      case kSpace:
        in_token = false;
        break;
      case kNewline:
        in_token = false;
        ++r.newlines;
        break;
      default:  // a comment character: part of a token, or a comment to the end of the line
        if (!in_token) {
          const void* newline = std::memchr(text.data() + i, '\n', text.size() - i);
          if (!newline) return r;
          i = static_cast<std::size_t>(static_cast<const char*>(newline) - text.data()) - 1;
        }
    }
  }
  return r;
}

[[noreturn]] void cannot_open(const std::string& path, const std::string& why) {
  throw InputError(path + ": cannot open: " + why);
}
}  // namespace

namespace {
// Every byte a descriptor gives until its end (a pipe, a device, a file mmap refused); InputError
// "`what`: read error: ..." when a read fails.
std::string read_whole(int fd, const std::string& what) {
  std::string read;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) return read;
    if (got < 0) {
      const int err = errno;
      if (err == EINTR) continue;
      throw InputError(what + ": read error: " + std::strerror(err));
    }
    read.append(buffer, static_cast<std::size_t>(got));
  }
}

// Standard input, read whole the first time a reader asks for "-" and kept: a command may look at
// an input twice (its format, then its content), and a pipe can be read only once.
std::shared_ptr<const std::string> standard_input() {
  static std::mutex lock;
  static std::shared_ptr<const std::string> bytes;
  std::lock_guard<std::mutex> guard(lock);
  if (bytes) return bytes;
  bytes = std::make_shared<const std::string>(read_whole(STDIN_FILENO, "standard input"));
  return bytes;
}
}  // namespace

TextFile::TextFile(const std::string& path) : path_(path) {
  if (path == "-") {
    shared_ = standard_input();
    data_ = shared_->data();
    size_ = shared_->size();
  } else {
    open_file();
  }
  // Compressed input is recognised by its magic bytes and decompressed into memory whole.
  const Compression compression = compression_of(text());
  if (compression != Compression::none) {
    std::string expanded;
    try {
      expanded = decompress(text(), compression, path_);
    } catch (...) {
      if (mapping_) ::munmap(mapping_, size_);  // the destructor does not run
      throw;
    }
    if (mapping_) ::munmap(mapping_, size_);
    mapping_ = nullptr;
    shared_.reset();
    copy_ = std::move(expanded);
    data_ = copy_.data();
    size_ = copy_.size();
  }
}

void TextFile::open_file() {
  const std::string& path = path_;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) cannot_open(path, std::strerror(errno));
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int err = errno;
    ::close(fd);
    cannot_open(path, std::strerror(err));
  }
  if (S_ISDIR(info.st_mode)) {
    ::close(fd);
    cannot_open(path, "it is a directory, not a file");
  }
  if (S_ISREG(info.st_mode) && info.st_size > 0) {
    void* mapped =
        ::mmap(nullptr, static_cast<std::size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped != MAP_FAILED) {
      mapping_ = mapped;
      data_ = static_cast<const char*>(mapped);
      size_ = static_cast<std::size_t>(info.st_size);
      ::madvise(mapped, size_, MADV_WILLNEED);  // the chunks are read in parallel, each in order
      ::close(fd);
      return;
    }
  }
  // A pipe, a device, an empty file, or a file mmap refused: read it whole.
  try {
    copy_ = read_whole(fd, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  data_ = copy_.data();
  size_ = copy_.size();
}

bool text_looks_fractional(std::string_view text, const char* comments) {
  std::array<unsigned char, 256> kind = kByteClass;
  for (const char* c = comments; c && *c; ++c) kind[static_cast<unsigned char>(*c)] = kComment;
  bool in_token = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (kind[static_cast<unsigned char>(c)]) {
      case kToken:
        if (c == '.' || c == 'e' || c == 'E') return true;
        in_token = true;
        break;
      case kComment:
        if (!in_token) {
          const void* newline = std::memchr(text.data() + i, '\n', text.size() - i);
          if (!newline) return false;
          i = static_cast<std::size_t>(static_cast<const char*>(newline) - text.data());
        }
        break;
      default:
        in_token = false;
    }
  }
  return false;
}

TextFile::~TextFile() {
  if (mapping_) ::munmap(mapping_, size_);
}

TextFile::TextFile(const std::string& path, ByteRange lines) : path_(path) {
  const RangedReader file(path);
  const std::uint64_t size = file.size();
  const std::uint64_t begin = std::min(lines.begin, size), end = std::min(lines.end, size);
  // From the byte before the range (whether the range starts at a line start), up to the end of
  // the range's last line: the read grows past `end` until a newline (or the file's end).
  const std::uint64_t from = begin ? begin - 1 : 0;
  std::uint64_t read_end = end;
  for (;;) {
    copy_.resize(static_cast<std::size_t>(read_end - from));
    file.read(copy_.data(), copy_.size(), from);
    if (read_end == size || end <= begin ||
        std::memchr(copy_.data() + (end - 1 - from), '\n', read_end - (end - 1)))
      break;
    read_end = std::min<std::uint64_t>(size, read_end + (std::uint64_t(1) << 20));
  }
  std::size_t first = 0;  // the line that began before the range is another's
  if (begin) {
    const void* newline = std::memchr(copy_.data(), '\n', copy_.size());
    first = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - copy_.data()) + 1
                    : copy_.size();
  }
  std::size_t last = static_cast<std::size_t>(end - from);  // the lines starting before `end`
  if (last > first) {
    const void* newline = std::memchr(copy_.data() + last - 1, '\n', copy_.size() - (last - 1));
    last = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - copy_.data()) + 1
                   : copy_.size();
  } else {
    last = first;
  }
  copy_ = copy_.substr(first, last - first);
  data_ = copy_.data();
  size_ = copy_.size();
}

std::size_t TextFile::line_of(std::size_t offset) const {
  const char* end = data_ + std::min(offset, size_);
  return first_line_ + static_cast<std::size_t>(std::count(data_, end, '\n'));
}

void ChunkTokens::skip_space_and_comments() {
  while (at_ < end_) {
    const char c = *at_;
    if (c == '\n') {
      ++line_;
      ++at_;
    } else if (is_space(c)) {
      ++at_;
    } else if (c != '\0' && comments_ && *comments_ && std::strchr(comments_, c)) {
      // (a NUL byte is data, not a comment: strchr would find the string's terminator)
      const void* newline = std::memchr(at_, '\n', static_cast<std::size_t>(end_ - at_));
      at_ = newline ? static_cast<const char*>(newline) : end_;
    } else {
      return;
    }
  }
}

bool ChunkTokens::next(std::string_view& token) {
  skip_space_and_comments();
  if (at_ == end_) return false;
  const char* start = at_;
  while (at_ < end_ && !is_space(*at_)) ++at_;
  token = std::string_view(start, static_cast<std::size_t>(at_ - start));
  token_line_ = line_;
  return true;
}

std::size_t ChunkTokens::peek_line() {
  skip_space_and_comments();
  return at_ == end_ ? 0 : line_;
}

TokenChunks::TokenChunks(const TextFile& file, std::size_t from, const char* comments)
    : file_(file), comments_(comments) {
  const std::string_view text = file.text();
  from = std::min(from, text.size());
  const std::size_t span = text.size() - from;
  const Ranges ranges(span, 4 * std::size_t(host_threads()), std::size_t(1) << 20);
  std::size_t previous = from;
  for (std::size_t i = 1; i <= ranges.count; ++i) {
    std::size_t cut = i == ranges.count ? text.size() : from + ranges.begin(i);
    if (cut < text.size()) {  // move to the start of the next line
      const void* newline = std::memchr(text.data() + cut, '\n', text.size() - cut);
      cut = newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - text.data()) + 1
                    : text.size();
    }
    if (cut <= previous && i != ranges.count) continue;
    begin_.push_back(previous);
    end_.push_back(std::max(cut, previous));
    previous = std::max(cut, previous);
  }
  // Pass 1: tokens and newlines per chunk, in one walk over the bytes.
  // This first walk is where a large file comes in from the disk: its progress is reported.
  std::vector<std::size_t> tokens(begin_.size()), newlines(begin_.size()), last_line(begin_.size());
  const bool report = text.size() - from >= (std::size_t{1} << 26);
  std::atomic<std::size_t> scanned{0};
  parallel_for(begin_.size(), [&](std::size_t c) {
    const CountResult counted =
        count_tokens(text.substr(begin_[c], end_[c] - begin_[c]), comments_);
    tokens[c] = counted.tokens;
    newlines[c] = counted.newlines;
    last_line[c] = counted.last_token_line;  // relative to the chunk's first line, 0-based
    if (report)
      report_read_progress(file.path(), scanned += end_[c] - begin_[c], text.size() - from);
  });
  token_offset_.assign(begin_.size() + 1, 0);
  first_line_.assign(begin_.size(), 0);
  std::size_t line = file.line_of(from);
  last_token_line_ = line;
  for (std::size_t c = 0; c < begin_.size(); ++c) {
    token_offset_[c + 1] = token_offset_[c] + tokens[c];
    first_line_[c] = line;
    if (tokens[c]) last_token_line_ = line + last_line[c];
    line += newlines[c];
  }
  end_line_ = line;
}

void TokenChunks::fail(std::size_t token_index, std::size_t line,
                       const std::string& message) const {
  std::string clean = message;
  for (char& c : clean)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t') c = '?';  // NUL bytes, control codes
  throw ChunkError(token_index, file_.path() + ":" + std::to_string(line) + ": " + clean);
}

void TokenChunks::for_each_chunk(
    const std::function<void(std::size_t, ChunkTokens&, std::size_t)>& body) const {
  const std::string_view text = file_.text();
  std::vector<std::optional<ChunkError>> errors(begin_.size());
  parallel_for(begin_.size(), [&](std::size_t c) {
    ChunkTokens tokens(text.substr(begin_[c], end_[c] - begin_[c]), first_line_[c], comments_);
    try {
      body(c, tokens, token_offset_[c]);
    } catch (const ChunkError& e) {
      errors[c] = e;
    }
  });
  for (auto& e : errors)  // chunks are in file order: the first error is the earliest
    if (e) throw InputError(e->what());
}

}  // namespace treefix
