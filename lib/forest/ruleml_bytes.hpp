#pragma once
// Internal to the forest module: the bytes of RuleML files, read on host threads for the device
// parser (forest/ruleml_device.cpp), which is handed every file back to back. Listing, reading and
// the names' order as the host reader does them (forest/ruleml_listing.hpp), without the parse.
#include <cstdint>
#include <string>
#include <vector>

namespace treefix::detail {

struct RuleMLBytes {
  std::vector<std::string> names;  // tree j's file, in name order (a directory) or as given
  // The files in the order they were read, in chunks: chunk k holds its files back to back and
  // lands at offset chunk_offset[k] of the concatenation (chunk_offset has chunks + 1 entries).
  std::vector<std::string> chunks;
  std::vector<std::uint64_t> chunk_offset;
  // File j (name order) is bytes [file_begin[j], file_end[j]) of the concatenation.
  std::vector<std::uint64_t> file_begin, file_end;
  std::uint64_t total() const { return chunk_offset.empty() ? 0 : chunk_offset.back(); }
  double list_ms = 0, read_ms = 0, names_ms = 0;  // read_ms: until every file is read
  double read_thread_ms = 0;                      // summed over the threads
};

// Every regular *.xml file of a directory, or the one file named. InputError for the first file
// in name order that cannot be read, as the host reader reports it; threads as read_ruleml_forest.
RuleMLBytes read_ruleml_bytes(const std::string& dir_or_file, unsigned threads);

}  // namespace treefix::detail
