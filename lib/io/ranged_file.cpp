// Files read and written by byte ranges (treefix/io/ranged_file.hpp).
#include "treefix/io/ranged_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "treefix/core/detail/pending_files.hpp"
#include "treefix/core/error.hpp"

namespace treefix {

namespace {

// A call moves at most this much (Linux moves at most ~2 GiB per call).
constexpr std::uint64_t kMostPerCall = std::uint64_t(1) << 30;

std::string reason() { return std::strerror(errno); }

}  // namespace

RangedReader::RangedReader(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw InputError(path + ": cannot open (" + reason() + ")");
  struct stat info {};
  if (::fstat(fd_, &info) != 0 || S_ISDIR(info.st_mode)) {
    const std::string why = S_ISDIR(info.st_mode) ? "it is a directory" : reason();
    ::close(fd_);
    throw InputError(path + ": cannot open (" + why + ")");
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
}

RangedReader::~RangedReader() {
  if (fd_ >= 0) ::close(fd_);
}

void RangedReader::read(void* data, std::uint64_t bytes, std::uint64_t offset) const {
  char* at = static_cast<char*>(data);
  const std::uint64_t wanted = bytes, start = offset;
  while (bytes) {
    const ssize_t got = ::pread(fd_, at, std::min(bytes, kMostPerCall), static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      throw InputError(path_ + ": cannot read " + std::to_string(wanted) + " bytes at byte " +
                       std::to_string(start) + (got < 0 ? " (" + reason() + ")" : ""));
    at += got, bytes -= got, offset += got;
  }
}

RangedWriter::RangedWriter(const std::string& path, std::uint64_t bytes, Role role)
    : path_(path), partial_(path + ".partial") {
  if (role == create) {
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
      throw InputError(path + ": is a directory");
    pending_ = detail::remember_pending_file(partial_);  // before it exists: no window
    fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      const std::string why = reason();
      detail::forget_pending_file(pending_);
      throw InputError(path + ": cannot write (" + why + ")");
    }
    if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) {
      const std::string why = reason();
      ::close(fd_);
      ::unlink(partial_.c_str());
      detail::forget_pending_file(pending_);
      throw Error(partial_ + ": cannot size the file to " + std::to_string(bytes) + " bytes (" +
                  why + ")");
    }
  } else {
    pending_ = detail::remember_pending_file(partial_);
    fd_ = ::open(partial_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) {
      const std::string why = reason();
      detail::forget_pending_file(pending_);
      throw Error(partial_ + ": cannot open (" + why + ")");
    }
  }
}

RangedWriter::~RangedWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (owns_file_) {
    ::unlink(partial_.c_str());
    detail::forget_pending_file(pending_);
  }
}

void RangedWriter::write(const void* data, std::uint64_t bytes, std::uint64_t offset) {
  const char* at = static_cast<const char*>(data);
  while (bytes) {
    const ssize_t put =
        ::pwrite(fd_, at, std::min(bytes, kMostPerCall), static_cast<off_t>(offset));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0)
      throw Error(partial_ + ": cannot write at byte " + std::to_string(offset) + " (" +
                  (put < 0 ? reason() : std::string("nothing written")) + ")");
    at += put, bytes -= put, offset += put;
  }
}

void RangedWriter::sync() {
  if (::fsync(fd_) != 0) throw Error(partial_ + ": cannot sync (" + reason() + ")");
}

void RangedWriter::release() {
  owns_file_ = false;
  detail::forget_pending_file(pending_);
}

void RangedWriter::commit() {
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw Error(partial_ + ": write failed (" + reason() + ")");
  }
  fd_ = -1;
  if (std::rename(partial_.c_str(), path_.c_str()) != 0)
    throw Error(path_ + ": cannot rename " + partial_ + " to it (" + reason() + ")");
  release();
}

}  // namespace treefix
