#pragma once
// One file read or written by byte ranges (pread/pwrite), by one process or by several at once,
// each taking its own ranges: how the ranks of a partitioned graph read their rows of one file
// and write their rows into one file.
//
//   RangedReader in(path);                        // InputError "path: cannot open (reason)"
//   in.read(buffer, bytes, offset);               // InputError "path: cannot read ..."
//
// A written file appears whole or not at all: its bytes go to PATH.partial, which commit()
// renames to PATH once every writer is done. Until then the partial file is removed by the
// destructor of any writer that was not released or committed (a failed rank, an exception) and
// by SIGINT, SIGTERM, SIGHUP or SIGPIPE in any writing process (core's pending files, as for
// OutputFiles), so no PATH.partial is left behind:
//
//   RangedWriter out(path, total_bytes, RangedWriter::create);  // one process creates it
//   RangedWriter out(path, total_bytes, RangedWriter::join);    // the others, after it did
//   out.write(data, bytes, offset);  out.sync();
//   out.release();                   // every process but one, once all have synced
//   out.commit();                    // the last one: PATH.partial renamed to PATH
#include <cstdint>
#include <string>

namespace treefix {

class RangedReader {
 public:
  explicit RangedReader(const std::string& path);
  ~RangedReader();
  RangedReader(const RangedReader&) = delete;
  RangedReader& operator=(const RangedReader&) = delete;

  const std::string& path() const { return path_; }
  std::uint64_t size() const { return size_; }
  // `bytes` bytes at byte `offset` into `data`; InputError when the file holds fewer.
  void read(void* data, std::uint64_t bytes, std::uint64_t offset) const;

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

class RangedWriter {
 public:
  enum Role { create, join };
  // `create`: makes PATH.partial, `bytes` long (a sparse file; the writers fill it), and checks
  // that PATH can be replaced (InputError for a directory or a folder that cannot be written);
  // `join`: opens the PATH.partial another process created.
  RangedWriter(const std::string& path, std::uint64_t bytes, Role role);
  ~RangedWriter();
  RangedWriter(const RangedWriter&) = delete;
  RangedWriter& operator=(const RangedWriter&) = delete;

  const std::string& path() const { return path_; }
  // Error "PATH.partial: cannot write at byte B: reason" on a failed or short write.
  void write(const void* data, std::uint64_t bytes, std::uint64_t offset);
  // This process's writes on the disk (fsync).
  void sync();
  // This process is done and leaves the file to the one that commits.
  void release();
  // PATH.partial renamed to PATH (after every other writer synced and released).
  void commit();

 private:
  std::string path_, partial_;
  int fd_ = -1;
  std::size_t pending_ = 0;
  bool owns_file_ = true;  // removes PATH.partial unless released or committed
};

}  // namespace treefix
