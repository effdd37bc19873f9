#pragma once
// An output stream buffer over a file descriptor that remembers the first write error, so a full
// disk, /dev/full or a closed pipe is reported instead of lost (std::ofstream keeps no errno).
#include <cstddef>
#include <streambuf>
#include <vector>

namespace treefix::detail {

class FdOutBuffer : public std::streambuf {
 public:
  explicit FdOutBuffer(int fd, std::size_t buffer_bytes = std::size_t(1) << 20);
  // The errno of the first failed write, 0 while every write succeeded.
  int error() const { return error_; }

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;
  int sync() override;

 private:
  bool drain();  // writes the buffered bytes
  bool write_all(const char* data, std::size_t size);

  int fd_;
  int error_ = 0;
  std::vector<char> buffer_;
};

}  // namespace treefix::detail
