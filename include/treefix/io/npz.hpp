#pragma once
// NumPy .npz archives (np.savez, np.savez_compressed, scipy.sparse.save_npz): zip files whose
// members are .npy arrays, stored or deflate-compressed (zlib). Read from the mapped file through
// its central directory (zip64 included, as NumPy writes it), every member's CRC-32 checked, a
// stored member seen in place without a copy; written with members stored or compressed on all
// host cores (independent deflate blocks joined into one stream, as pigz does).
//
//   NpzReader archive("g.npz");
//   std::string storage;                                    // holds a compressed member inflated
//   std::string_view bytes = archive.member("indptr", storage);     // the .npy bytes
//   NpyHeader header = parse_npy_header(bytes, archive.describe("indptr"));
//
//   NpzWriter out(stream, /*compress=*/true);
//   out.add("indptr", "<i8", {n + 1}, offsets.data(), (n + 1) * 8);
//   out.finish();                                           // the central directory
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "treefix/io/text_parse.hpp"

namespace treefix {

class NpzReader {
 public:
  // Maps the archive and reads its central directory; InputError "path: ..." for a file that is
  // not a zip archive, is truncated, encrypted, or uses a method other than stored or deflate.
  explicit NpzReader(const std::string& path);
  const std::string& path() const { return file_.path(); }
  // Whether the archive holds `name`.npy.
  bool has(const std::string& name) const;
  // "path[name]": how messages name a member.
  std::string describe(const std::string& name) const { return path() + "[" + name + "]"; }
  // Size of the member's .npy bytes, from the central directory (before anything is inflated).
  std::uint64_t size(const std::string& name) const;
  // The member's .npy bytes: a view of the mapped file when stored, else inflated into `storage`;
  // the CRC-32 is checked. InputError when the member is missing or damaged.
  std::string_view member(const std::string& name, std::string& storage) const;

 private:
  struct Member {
    std::string name;  // without ".npy"
    std::uint16_t method = 0;
    std::uint32_t crc = 0;
    std::uint64_t compressed = 0, size = 0, data_offset = 0;
  };
  const Member& find(const std::string& name) const;
  TextFile file_;
  std::vector<Member> members_;
};

class NpzWriter {
 public:
  // Members are deflate-compressed when `compress`, else stored. `force_zip64` writes zip64
  // records even for small archives (NumPy always writes zip64 local headers).
  NpzWriter(std::ostream& out, bool compress, bool force_zip64 = false);
  // Adds member `name`.npy: a .npy header for `descr` and `shape`, then `bytes` of data.
  void add(const std::string& name, const std::string& descr, const std::vector<std::size_t>& shape,
           const void* data, std::size_t bytes);
  // Writes the central directory and the end records; nothing may be added after.
  void finish();

 private:
  struct Entry {
    std::string name;
    std::uint32_t crc = 0;
    std::uint64_t compressed = 0, size = 0, offset = 0;
  };
  void put(const void* bytes, std::size_t count);
  std::ostream& out_;
  bool compress_, force_zip64_;
  std::uint64_t written_ = 0;
  std::vector<Entry> entries_;
};

}  // namespace treefix
