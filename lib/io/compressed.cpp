// Compressed input: gzip (zlib), xz (liblzma) and zstd (libzstd), decompressed into memory
// (treefix/io/compressed.hpp).
#include "treefix/io/compressed.hpp"

#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <mutex>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"

namespace treefix {
namespace {

std::mutex progress_mutex;
ReadProgressFunction& progress_function() {
  static ReadProgressFunction report;
  return report;
}

// Reports `done` of `total` compressed bytes when another 16 MiB were consumed, and at the end.
class ProgressReport {
 public:
  ProgressReport(const std::string& path, std::size_t total) : path_(path), total_(total) {
    std::lock_guard<std::mutex> lock(progress_mutex);
    report_ = progress_function();
  }
  void at(std::size_t done) {
    if (!report_ || (done < next_ && done != total_)) return;
    next_ = done + (std::size_t{1} << 24);
    report_(path_, done, total_);
  }

 private:
  const std::string& path_;
  std::size_t total_, next_ = 0;
  ReadProgressFunction report_;
};

bool starts_with(std::string_view bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && bytes.compare(0, magic.size(), magic) == 0;
}

// The output buffer of a decompressor: grows by doubling, each growth checked against the host's
// memory first, and trimmed to what was written at the end.
class Output {
 public:
  Output(std::size_t compressed_size, const std::string& path, Compression compression)
      : path_(path), compression_(compression) {
    grow_to(std::max<std::size_t>(std::size_t{1} << 16, compressed_size * 4));
  }
  // Room for at least one more byte; returns where it starts.
  char* room() {
    if (used_ == bytes_.size()) grow_to(bytes_.size() * 2);
    return bytes_.data() + used_;
  }
  std::size_t room_size() const { return bytes_.size() - used_; }
  void wrote(std::size_t count) { used_ += count; }
  std::string take() {
    bytes_.resize(used_);
    return std::move(bytes_);
  }

 private:
  void grow_to(std::size_t size) {
    // The reallocation holds the old and the new buffer at once.
    require_host_memory(add_bytes(size, bytes_.size()),
                        path_ + ": " + to_string(compression_) + " decompression");
    bytes_.resize(size);
  }
  const std::string& path_;
  Compression compression_;
  std::string bytes_;
  std::size_t used_ = 0;
};

[[noreturn]] void damaged(const std::string& path, Compression compression,
                          const std::string& why) {
  throw InputError(path + ": damaged " + to_string(compression) + " data: " + why);
}

std::string gunzip(std::string_view in, const std::string& path) {
  Output out(in.size(), path, Compression::gzip);
  ProgressReport progress(path, in.size());
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) throw Error(path + ": cannot start zlib");
  // ended on every way out, a refused growth of the output (CapacityError) included
  const std::unique_ptr<z_stream, int (*)(z_stream*)> ending(&z, inflateEnd);
  std::size_t at = 0;
  for (;;) {
    const std::size_t give = std::min<std::size_t>(in.size() - at, UINT_MAX);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + at));
    z.avail_in = static_cast<uInt>(give);
    char* room = out.room();
    const std::size_t room_size = std::min<std::size_t>(out.room_size(), UINT_MAX);
    z.next_out = reinterpret_cast<Bytef*>(room);
    z.avail_out = static_cast<uInt>(room_size);
    const int status = inflate(&z, Z_NO_FLUSH);
    at += give - z.avail_in;
    out.wrote(room_size - z.avail_out);
    progress.at(at);
    if (status == Z_STREAM_END) {
      // Another member may follow (gzip files concatenated with cat); trailing zeros are padding.
      const auto rest = in.substr(at);
      if (rest.find_first_not_of('\0') == std::string_view::npos) break;
      if (!starts_with(rest, "\x1f\x8b")) damaged(path, Compression::gzip, "bytes after the end");
      inflateReset(&z);
      continue;
    }
    if (status == Z_BUF_ERROR && at == in.size())
      damaged(path, Compression::gzip, "the file ends early (truncated)");
    if (status != Z_OK && status != Z_BUF_ERROR)
      damaged(path, Compression::gzip, z.msg ? z.msg : "error " + std::to_string(status));
  }
  return out.take();
}

std::string unxz(std::string_view in, const std::string& path) {
  Output out(in.size(), path, Compression::xz);
  ProgressReport progress(path, in.size());
  lzma_stream z = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
    throw Error(path + ": cannot start liblzma");
  const std::unique_ptr<lzma_stream, void (*)(lzma_stream*)> ending(&z, lzma_end);
  z.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
  z.avail_in = in.size();
  for (;;) {
    char* room = out.room();
    const std::size_t room_size = out.room_size();
    z.next_out = reinterpret_cast<std::uint8_t*>(room);
    z.avail_out = room_size;
    const lzma_ret status = lzma_code(&z, z.avail_in == 0 ? LZMA_FINISH : LZMA_RUN);
    out.wrote(room_size - z.avail_out);
    progress.at(in.size() - z.avail_in);
    if (status == LZMA_STREAM_END) break;
    if (status != LZMA_OK) {
      damaged(path, Compression::xz,
              status == LZMA_BUF_ERROR ? "the file ends early (truncated)"
              : status == LZMA_DATA_ERROR || status == LZMA_FORMAT_ERROR
                  ? "corrupt data"
                  : "liblzma error " + std::to_string(static_cast<int>(status)));
    }
  }
  return out.take();
}

std::string unzstd(std::string_view in, const std::string& path) {
  Output out(in.size(), path, Compression::zstd);
  ProgressReport progress(path, in.size());
  const std::unique_ptr<ZSTD_DStream, std::size_t (*)(ZSTD_DStream*)> stream(ZSTD_createDStream(),
                                                                             ZSTD_freeDStream);
  ZSTD_DStream* z = stream.get();
  if (!z) throw Error(path + ": cannot start libzstd");
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  std::size_t status = 0;
  while (input.pos < input.size) {
    char* room = out.room();
    ZSTD_outBuffer output{room, out.room_size(), 0};
    status = ZSTD_decompressStream(z, &output, &input);
    out.wrote(output.pos);
    progress.at(input.pos);
    if (ZSTD_isError(status)) damaged(path, Compression::zstd, ZSTD_getErrorName(status));
  }
  // Input used up: flush what the decoder still holds; a frame left open is a truncated file.
  while (status != 0) {
    char* room = out.room();
    ZSTD_outBuffer output{room, out.room_size(), 0};
    status = ZSTD_decompressStream(z, &output, &input);
    out.wrote(output.pos);
    if (ZSTD_isError(status)) damaged(path, Compression::zstd, ZSTD_getErrorName(status));
    if (status != 0 && output.pos == 0)
      damaged(path, Compression::zstd, "the file ends early (truncated)");
  }
  return out.take();
}

}  // namespace

Compression compression_of(std::string_view head) {
  if (starts_with(head, "\x1f\x8b")) return Compression::gzip;
  if (starts_with(head, std::string_view("\xfd"
                                         "7zXZ\0",
                                         6)))
    return Compression::xz;
  if (starts_with(head, "\x28\xb5\x2f\xfd")) return Compression::zstd;
  return Compression::none;
}

void set_read_progress(ReadProgressFunction report) {
  std::lock_guard<std::mutex> lock(progress_mutex);
  progress_function() = std::move(report);
}

void report_read_progress(const std::string& path, std::size_t done, std::size_t total) {
  std::lock_guard<std::mutex> lock(progress_mutex);
  if (progress_function()) progress_function()(path, done, total);
}

std::string decompress(std::string_view compressed, Compression compression,
                       const std::string& path) {
  switch (compression) {
    case Compression::gzip:
      return gunzip(compressed, path);
    case Compression::xz:
      return unxz(compressed, path);
    case Compression::zstd:
      return unzstd(compressed, path);
    default:
      return std::string(compressed);
  }
}

}  // namespace treefix
