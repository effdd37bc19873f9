#pragma once
// Compressed input: every reader takes gzip, xz and zstd files as they come, recognised by their
// magic bytes (never by the name, so "g.mtx" that is really gzip is read and "g.mtx.gz" that is
// plain text too). The file is decompressed into memory whole and then parsed like any other
// (TextFile does it), because the parsers cut their text into chunks for all host cores.
//
// Capacity: before the output grows, the bytes it would hold are compared with the memory this
// process can have (require_host_memory), so a small file that expands beyond the host ("a zip
// bomb") is refused with the numbers instead of exhausting memory.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "treefix/core/names.hpp"

namespace treefix {

enum class Compression { none, gzip, xz, zstd };
// to_string: "none", "gzip", "xz", "zstd" (treefix/core/names.hpp).
TREEFIX_ENUM_NAMES(Compression, "compression", {Compression::none, "none"},
                   {Compression::gzip, "gzip"}, {Compression::xz, "xz"},
                   {Compression::zstd, "zstd"});

// The compression of bytes that start with `head` (the first few bytes are enough: 6).
Compression compression_of(std::string_view head);

// The decompressed bytes of `compressed` (all concatenated members or frames, as gzip -d, xz -d
// and zstd -d read them). InputError "path: damaged xz data: ..." for corrupt or truncated data,
// CapacityError when the result would not fit the host's memory.
std::string decompress(std::string_view compressed, Compression compression,
                       const std::string& path);

// Progress of reading large inputs: called now and then while a file is decompressed (every
// 16 MiB of compressed input, and at its end) or scanned by the parallel tokenizer (a chunk at a
// time, for files of 64 MiB and more), with the bytes done and their total: how a program shows
// progress. Process-wide, calls serialised; an empty function (the default) turns it off.
using ReadProgressFunction =
    std::function<void(const std::string& path, std::size_t done, std::size_t total)>;
void set_read_progress(ReadProgressFunction report);
// Calls the function set_read_progress installed, if any.
void report_read_progress(const std::string& path, std::size_t done, std::size_t total);

}  // namespace treefix
