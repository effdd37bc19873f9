// FdOutBuffer (fd_stream.hpp): buffered writes to a descriptor, large pieces written straight.
#include "io/fd_stream.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace treefix::detail {

FdOutBuffer::FdOutBuffer(int fd, std::size_t buffer_bytes) : fd_(fd), buffer_(buffer_bytes) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

bool FdOutBuffer::write_all(const char* data, std::size_t size) {
  // With start_writeback, pieces of at most kWritebackBytes, each handed to the disk at once.
  constexpr std::size_t kWritebackBytes = std::size_t(8) << 20;
  while (size > 0 && error_ == 0) {
    const std::size_t piece = start_writeback_ ? std::min(size, kWritebackBytes) : size;
    const ssize_t wrote = ::write(fd_, data, piece);
    if (wrote < 0) {
      if (errno != EINTR) error_ = errno;
      continue;
    }
    if (wrote == 0) error_ = EIO;  // a descriptor that takes nothing would loop forever
    data += wrote;
    size -= static_cast<std::size_t>(wrote);
    offset_ += static_cast<std::size_t>(wrote);
#ifdef __linux__
    if (start_writeback_ && offset_ - written_back_ >= kWritebackBytes) {
      ::sync_file_range(fd_, static_cast<off_t>(written_back_),
                        static_cast<off_t>(offset_ - written_back_), SYNC_FILE_RANGE_WRITE);
      written_back_ = offset_;
    }
#endif
  }
  return error_ == 0;
}

bool FdOutBuffer::drain() {
  const bool ok = write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  return ok;
}

FdOutBuffer::int_type FdOutBuffer::overflow(int_type ch) {
  if (!drain()) return traits_type::eof();
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  *pptr() = traits_type::to_char_type(ch);
  pbump(1);
  return ch;
}

std::streamsize FdOutBuffer::xsputn(const char* data, std::streamsize size) {
  const auto n = static_cast<std::size_t>(size);
  if (n == 0) return 0;  // an empty array's data may be null: no memcpy from it
  if (n <= static_cast<std::size_t>(epptr() - pptr())) {
    std::memcpy(pptr(), data, n);
    pbump(static_cast<int>(n));
    return size;
  }
  // Larger than the room left: the buffer, then the piece itself, without copying it.
  if (!drain() || !write_all(data, n)) return 0;
  return size;
}

int FdOutBuffer::sync() { return drain() ? 0 : -1; }

}  // namespace treefix::detail
