// .npz archives: zip files of .npy members, read through the central directory and written with
// stored or deflated members (treefix/io/npz.hpp). zlib does deflate and CRC-32.
#include "treefix/io/npz.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <initializer_list>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/npy.hpp"

namespace treefix {

namespace {

constexpr std::uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50,
                        kEndOfDirectory = 0x06054b50, kZip64End = 0x06064b50,
                        kZip64Locator = 0x07064b50;
constexpr std::uint16_t kStored = 0, kDeflated = 8, kZip64Extra = 0x0001;
constexpr std::uint32_t k32 = 0xffffffffu;

std::uint64_t little(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

// CRC-32 of a buffer on all host cores: slices' CRCs joined with crc32_combine.
std::uint32_t crc32_of(const char* data, std::size_t bytes, std::uint32_t crc = 0) {
  const Ranges slices(bytes, host_threads(), std::size_t(1) << 20);
  std::vector<uLong> part(slices.count);
  parallel_for(slices.count, [&](std::size_t s) {
    uLong c = crc32(0L, Z_NULL, 0);
    for (std::size_t at = slices.begin(s); at < slices.end(s);) {
      const uInt step = static_cast<uInt>(std::min<std::size_t>(slices.end(s) - at, 1u << 30));
      c = crc32(c, reinterpret_cast<const Bytef*>(data + at), step);
      at += step;
    }
    part[s] = c;
  });
  uLong total = crc;
  for (std::size_t s = 0; s < slices.count; ++s)
    total = crc32_combine(total, part[s], static_cast<z_off_t>(slices.end(s) - slices.begin(s)));
  return static_cast<std::uint32_t>(total);
}

// Raw deflate of a buffer, finished (last block final) or flushed to a byte boundary.
std::string deflate_piece(const char* data, std::size_t bytes, bool last) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    throw Error("zlib: deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(bytes)) + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  z.avail_in = static_cast<uInt>(bytes);
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
  const std::size_t produced = out.size() - z.avail_out;
  deflateEnd(&z);
  if (status != (last ? Z_STREAM_END : Z_OK) || z.avail_in != 0)
    throw Error("zlib: deflate failed");
  out.resize(produced);
  return out;
}

}  // namespace

NpzReader::NpzReader(const std::string& path) : file_(path) {
  const std::string_view zip = file_.text();
  auto fail = [&](const std::string& what) -> void {
    throw InputError(path + ": not a readable .npz (zip) archive: " + what);
  };
  // The end-of-central-directory record: within the last 64 KiB + 22 bytes.
  std::size_t end = std::string_view::npos;
  for (std::size_t at = zip.size() >= 22 ? zip.size() - 22 + 1 : 0;
       at-- > 0 && zip.size() - at <= 65535 + 22;)
    if (little(zip.data() + at, 4) == kEndOfDirectory) {
      end = at;
      break;
    }
  if (end == std::string_view::npos) fail("no end-of-central-directory record (truncated?)");
  std::uint64_t entries = little(zip.data() + end + 10, 2);
  std::uint64_t directory_size = little(zip.data() + end + 12, 4);
  std::uint64_t directory = little(zip.data() + end + 16, 4);
  if (entries == 0xffff || directory_size == k32 || directory == k32) {  // zip64
    if (end < 20 || little(zip.data() + end - 20, 4) != kZip64Locator)
      fail("zip64 sizes without a zip64 locator");
    const std::uint64_t record = little(zip.data() + end - 20 + 8, 8);
    if (zip.size() < 56 || record > zip.size() - 56 || little(zip.data() + record, 4) != kZip64End)
      fail("a broken zip64 end record");
    entries = little(zip.data() + record + 32, 8);
    directory_size = little(zip.data() + record + 40, 8);
    directory = little(zip.data() + record + 48, 8);
  }
  if (directory > zip.size() || directory_size > zip.size() - directory)
    fail("the central directory lies outside the file (truncated?)");
  std::size_t at = static_cast<std::size_t>(directory);
  for (std::uint64_t i = 0; i < entries; ++i) {
    if (at + 46 > zip.size() || little(zip.data() + at, 4) != kCentralHeader)
      fail("a broken central directory");
    const char* h = zip.data() + at;
    Member m;
    const std::uint64_t flags = little(h + 8, 2);
    m.method = static_cast<std::uint16_t>(little(h + 10, 2));
    m.crc = static_cast<std::uint32_t>(little(h + 16, 4));
    m.compressed = little(h + 20, 4);
    m.size = little(h + 24, 4);
    const std::size_t name_bytes = little(h + 28, 2), extra_bytes = little(h + 30, 2),
                      comment_bytes = little(h + 32, 2);
    std::uint64_t local = little(h + 42, 4);
    if (at + 46 + name_bytes + extra_bytes + comment_bytes > zip.size())
      fail("a broken central directory");
    m.name.assign(h + 46, name_bytes);
    // zip64 extra field: the 64-bit values of the fields that hold 0xffffffff, in this order
    for (const char *x = h + 46 + name_bytes, *x_end = x + extra_bytes; x + 4 <= x_end;) {
      const std::size_t id = little(x, 2), length = little(x + 2, 2);
      if (x + 4 + length > x_end) fail("a broken extra field");
      if (id == kZip64Extra) {
        const char* v = x + 4;
        for (std::uint64_t* field : {&m.size, &m.compressed, &local})
          if (*field == k32) {
            if (v + 8 > x + 4 + length) fail("a short zip64 extra field");
            *field = little(v, 8);
            v += 8;
          }
      }
      x += 4 + length;
    }
    at += 46 + name_bytes + extra_bytes + comment_bytes;
    if (m.name.size() < 4 || m.name.compare(m.name.size() - 4, 4, ".npy") != 0) continue;
    m.name.resize(m.name.size() - 4);
    if (flags & 1) fail("member '" + m.name + "' is encrypted");
    if (m.method != kStored && m.method != kDeflated)
      fail("member '" + m.name + "' uses compression method " + std::to_string(m.method) +
           " (only stored and deflate: np.savez, np.savez_compressed)");
    if (zip.size() < 30 || local > zip.size() - 30 || little(zip.data() + local, 4) != kLocalHeader)
      fail("member '" + m.name + "' has no local header (truncated?)");
    m.data_offset =
        local + 30 + little(zip.data() + local + 26, 2) + little(zip.data() + local + 28, 2);
    if (m.data_offset > zip.size() || m.compressed > zip.size() - m.data_offset)
      fail("member '" + m.name + "' runs past the end of the file (truncated?)");
    if (m.method == kStored && m.compressed != m.size)
      fail("stored member '" + m.name + "' has two sizes");
    if (m.method == kDeflated && m.size / 1032 > m.compressed + 1)  // deflate expands <= 1032:1
      fail("member '" + m.name + "' claims " + std::to_string(m.size) + " bytes inflated from " +
           std::to_string(m.compressed) + " (damaged: deflate cannot expand that much)");
    members_.push_back(std::move(m));
  }
}

bool NpzReader::has(const std::string& name) const {
  return std::any_of(members_.begin(), members_.end(),
                     [&](const Member& m) { return m.name == name; });
}

const NpzReader::Member& NpzReader::find(const std::string& name) const {
  for (const Member& m : members_)
    if (m.name == name) return m;
  throw InputError(path() + ": the archive has no member '" + name + ".npy'");
}

std::uint64_t NpzReader::size(const std::string& name) const { return find(name).size; }

std::string_view NpzReader::member(const std::string& name, std::string& storage) const {
  const Member& m = find(name);
  const char* data = file_.text().data() + m.data_offset;
  std::string_view bytes;
  if (m.method == kStored) {
    bytes = std::string_view(data, static_cast<std::size_t>(m.size));
  } else {
    require_host_memory(m.size,
                        describe(name) + ": inflating " + std::to_string(m.size) + " bytes");
    storage.resize(static_cast<std::size_t>(m.size));
    z_stream z{};
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw Error("zlib: inflateInit2 failed");
    std::uint64_t in_left = m.compressed, out_left = m.size;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
    z.next_out = reinterpret_cast<Bytef*>(storage.data());
    int status = Z_OK;
    while (status == Z_OK) {
      if (z.avail_in == 0 && in_left) {
        z.avail_in = static_cast<uInt>(std::min<std::uint64_t>(in_left, 1u << 30));
        in_left -= z.avail_in;
      }
      if (z.avail_out == 0 && out_left) {
        z.avail_out = static_cast<uInt>(std::min<std::uint64_t>(out_left, 1u << 30));
        out_left -= z.avail_out;
      }
      status = inflate(&z, Z_NO_FLUSH);  // Z_BUF_ERROR: input or room ran out first
    }
    const std::uint64_t produced = m.size - out_left - z.avail_out;
    inflateEnd(&z);
    if (status != Z_STREAM_END || produced != m.size)
      throw InputError(describe(name) + ": damaged compressed data (" +
                       (status == Z_STREAM_END ? std::to_string(produced) + " bytes instead of " +
                                                     std::to_string(m.size)
                                               : std::string(z.msg ? z.msg : "inflate failed")) +
                       ")");
    bytes = storage;
  }
  if (crc32_of(bytes.data(), bytes.size()) != m.crc)
    throw InputError(describe(name) + ": CRC-32 mismatch: the member is damaged");
  return bytes;
}

NpzWriter::NpzWriter(std::ostream& out, bool compress, bool force_zip64)
    : out_(out), compress_(compress), force_zip64_(force_zip64) {}

void NpzWriter::put(const void* bytes, std::size_t count) {
  out_.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(count));
  written_ += count;
}

namespace {
void put_little(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}
// The zip64 extra field: the 64-bit values of the fields that say 0xffffffff, in field order.
std::string zip64_extra(std::initializer_list<std::uint64_t> values) {
  std::string extra;
  put_little(extra, kZip64Extra, 2);
  put_little(extra, 8 * values.size(), 2);
  for (std::uint64_t v : values) put_little(extra, v, 8);
  return extra;
}
}  // namespace

void NpzWriter::add(const std::string& name, const std::string& descr,
                    const std::vector<std::size_t>& shape, const void* data, std::size_t bytes) {
  const std::string header = npy_header(descr, shape);
  const char* values = static_cast<const char*>(data);
  Entry e;
  e.name = name + ".npy";
  e.size = header.size() + bytes;
  e.offset = written_;
  e.crc = crc32_of(values, bytes, crc32_of(header.data(), header.size()));
  std::vector<std::string> pieces;
  if (compress_) {  // independent pieces on all cores, joined by their byte-aligned flushes
    const Ranges slices(bytes, 4 * std::size_t(host_threads()), std::size_t(1) << 20);
    pieces.resize(slices.count + 1);
    pieces[0] = deflate_piece(header.data(), header.size(), false);
    parallel_for(slices.count, [&](std::size_t s) {
      pieces[s + 1] = deflate_piece(values + slices.begin(s), slices.end(s) - slices.begin(s),
                                    s + 1 == slices.count);
    });
    e.compressed = 0;
    for (const auto& p : pieces) e.compressed += p.size();
  } else {
    e.compressed = e.size;
  }
  const bool zip64 = force_zip64_ || e.size >= k32 || e.compressed >= k32;
  std::string local;
  put_little(local, kLocalHeader, 4);
  put_little(local, zip64 ? 45 : 20, 2);  // version needed
  put_little(local, 0, 2);                // flags
  put_little(local, compress_ ? kDeflated : kStored, 2);
  put_little(local, 0, 2);     // time 00:00
  put_little(local, 0x21, 2);  // date 1980-01-01
  put_little(local, e.crc, 4);
  put_little(local, zip64 ? k32 : e.compressed, 4);
  put_little(local, zip64 ? k32 : e.size, 4);
  put_little(local, e.name.size(), 2);
  put_little(local, zip64 ? 20 : 0, 2);
  local += e.name;
  if (zip64) local += zip64_extra({e.size, e.compressed});
  put(local.data(), local.size());
  if (compress_) {
    for (const auto& p : pieces) put(p.data(), p.size());
  } else {
    put(header.data(), header.size());
    put(values, bytes);
  }
  entries_.push_back(std::move(e));
}

void NpzWriter::finish() {
  const std::uint64_t directory = written_;
  for (const Entry& e : entries_) {
    const bool zip64 = force_zip64_ || e.size >= k32 || e.compressed >= k32 || e.offset >= k32;
    std::string central;
    put_little(central, kCentralHeader, 4);
    put_little(central, zip64 ? 45 : 20, 2);  // made by (MS-DOS attributes)
    put_little(central, zip64 ? 45 : 20, 2);  // needed
    put_little(central, 0, 2);
    put_little(central, compress_ ? kDeflated : kStored, 2);
    put_little(central, 0, 2);
    put_little(central, 0x21, 2);
    put_little(central, e.crc, 4);
    put_little(central, zip64 ? k32 : e.compressed, 4);
    put_little(central, zip64 ? k32 : e.size, 4);
    put_little(central, e.name.size(), 2);
    put_little(central, zip64 ? 28 : 0, 2);
    put_little(central, 0, 2);  // comment
    put_little(central, 0, 2);  // disk
    put_little(central, 0, 2);  // internal attributes
    put_little(central, 0, 4);  // external attributes
    put_little(central, zip64 ? k32 : e.offset, 4);
    central += e.name;
    if (zip64) central += zip64_extra({e.size, e.compressed, e.offset});
    put(central.data(), central.size());
  }
  const std::uint64_t directory_size = written_ - directory;
  const bool zip64 = force_zip64_ || directory >= k32 || entries_.size() >= 0xffff;
  std::string end;
  if (zip64) {
    const std::uint64_t record = written_;
    put_little(end, kZip64End, 4);
    put_little(end, 44, 8);  // size of the rest of this record
    put_little(end, 45, 2);
    put_little(end, 45, 2);
    put_little(end, 0, 4);
    put_little(end, 0, 4);
    put_little(end, entries_.size(), 8);
    put_little(end, entries_.size(), 8);
    put_little(end, directory_size, 8);
    put_little(end, directory, 8);
    put_little(end, kZip64Locator, 4);
    put_little(end, 0, 4);
    put_little(end, record, 8);
    put_little(end, 1, 4);
  }
  put_little(end, kEndOfDirectory, 4);
  put_little(end, 0, 2);
  put_little(end, 0, 2);
  put_little(end, zip64 ? 0xffff : entries_.size(), 2);
  put_little(end, zip64 ? 0xffff : entries_.size(), 2);
  put_little(end, zip64 ? k32 : directory_size, 4);
  put_little(end, zip64 ? k32 : directory, 4);
  put_little(end, 0, 2);
  put(end.data(), end.size());
}

}  // namespace treefix
