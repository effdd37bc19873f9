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
  // For a file that will be fsynced: ask the kernel to start writing each large piece to the
  // disk as soon as it is written (sync_file_range), so that the disk works while the rest is
  // copied in and the fsync waits only for the tail. A hint: its errors are the fsync's to
  // report.
  void start_writeback() { start_writeback_ = true; }

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;
  int sync() override;

 private:
  bool drain();  // writes the buffered bytes
  bool write_all(const char* data, std::size_t size);

  int fd_;
  int error_ = 0;
  bool start_writeback_ = false;
  std::size_t offset_ = 0;        // bytes written so far (the file was empty)
  std::size_t written_back_ = 0;  // bytes handed to sync_file_range so far
  std::vector<char> buffer_;
};

}  // namespace treefix::detail
