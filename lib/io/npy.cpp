// NumPy .npy reader and writer (treefix/io/npy.hpp).
#include "treefix/io/npy.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "treefix/core/host_memory.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/file_kind.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;

std::uint32_t little_endian(const unsigned char* p, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// A strict reader of the header dict: {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  void parse(NpyArray& array, bool& fortran) {
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    for (;;) {
      skip();
      if (peek() == '}') break;
      const std::string key = string_literal();
      expect(':');
      if (key == "descr") {
        array.descr = string_literal();
        have_descr = true;
      } else if (key == "fortran_order") {
        fortran = boolean();
        have_order = true;
      } else if (key == "shape") {
        array.shape = tuple();
        have_shape = true;
      } else {
        fail("unknown header key '" + key + "'");
      }
      skip();
      if (peek() == ',') ++at_;
    }
    if (!have_descr || !have_order || !have_shape)
      fail("the header lacks 'descr', 'fortran_order' or 'shape'");
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ": malformed .npy header: " + what);
  }
  void skip() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n' || text_[at_] == '\t'))
      ++at_;
  }
  char peek() {
    skip();
    if (at_ >= text_.size()) fail("it ends early");
    return text_[at_];
  }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++at_;
  }
  std::string string_literal() {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail("expected a quoted string");
    const auto end = text_.find(quote, at_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(text_.substr(at_ + 1, end - at_ - 1));
    at_ = end + 1;
    return s;
  }
  bool boolean() {
    skip();
    if (text_.substr(at_, 4) == "True") return at_ += 4, true;
    if (text_.substr(at_, 5) == "False") return at_ += 5, false;
    fail("expected True or False");
  }
  std::vector<std::size_t> tuple() {
    expect('(');
    std::vector<std::size_t> dims;
    for (;;) {
      if (peek() == ')') break;
      std::size_t v = 0;
      bool digits = false;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') {
        if (v > (std::size_t(1) << 60)) fail("a dimension is too large");
        v = v * 10 + static_cast<std::size_t>(text_[at_++] - '0');
        digits = true;
      }
      if (!digits) fail("expected a non-negative dimension");
      dims.push_back(v);
      if (peek() == ',') ++at_;
    }
    ++at_;
    return dims;
  }

  std::string_view text_;
  const std::string& name_;
  std::size_t at_ = 0;
};

std::size_t item_bytes_of(const std::string& descr, const std::string& name) {
  if (descr.size() < 3) throw InputError(name + ": unsupported .npy dtype '" + descr + "'");
  const char order = descr[0], kind = descr[1];
  if (order == '>')
    throw InputError(
        name + ": big-endian .npy data ('" + descr +
        "') is not accepted; save it little-endian (arr.astype(arr.dtype.newbyteorder('<')))");
  if (order != '<' && order != '|' && order != '=')
    throw InputError(name + ": unsupported .npy dtype '" + descr + "'");
  std::size_t count = 0;
  for (std::size_t i = 2; i < descr.size(); ++i) {
    if (descr[i] < '0' || descr[i] > '9' || count > 4096)
      throw InputError(name + ": unsupported .npy dtype '" + descr + "'");
    count = count * 10 + static_cast<std::size_t>(descr[i] - '0');
  }
  const std::size_t width = kind == 'U' ? 4 * count : count;  // 'U': UCS-4 characters
  if (width == 0 || std::string("biufcSU").find(kind) == std::string::npos)
    throw InputError(name + ": unsupported .npy dtype '" + descr + "'");
  return width;
}

template <class T>
ValueType type_of() {
  return value_type_of<T>();
}

}  // namespace

std::size_t NpyArray::size() const {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

namespace {
// The .npy dtype of each value type, little-endian, in ValueType's order (types.hpp).
constexpr const char* kValueTypeDescr[] = {"<i4", "<i8", "<f4", "<f8"};
}  // namespace

std::optional<ValueType> NpyArray::value_type() const {
  if (descr.empty() || (descr[0] != '<' && descr[0] != '=' && descr[0] != '|')) return std::nullopt;
  for (int t = 0; t < static_cast<int>(std::size(kValueTypeDescr)); ++t)
    if (descr.compare(1, std::string::npos, kValueTypeDescr[t] + 1) == 0)
      return static_cast<ValueType>(t);
  return std::nullopt;
}

const char* npy_descr(ValueType type) { return kValueTypeDescr[static_cast<int>(type)]; }

template <class T>
std::vector<T> NpyArray::values(const std::string& name, std::size_t dimensions) const {
  const auto type = value_type();
  if (!type || *type != type_of<T>())
    throw InputError(name + ": .npy dtype '" + descr + "', expected '" + npy_descr(type_of<T>()) +
                     "' (" + to_string(type_of<T>()) + ")");
  if (dimensions && shape.size() != dimensions)
    throw InputError(name + ": a .npy array of " + std::to_string(shape.size()) +
                     " dimensions, expected " + std::to_string(dimensions));
  std::vector<T> out = prefaulted_vector<T>(size());
  if (!out.empty()) std::memcpy(out.data(), data.data(), out.size() * sizeof(T));
  return out;
}

template std::vector<std::int32_t> NpyArray::values(const std::string&, std::size_t) const;
template std::vector<std::int64_t> NpyArray::values(const std::string&, std::size_t) const;
template std::vector<float> NpyArray::values(const std::string&, std::size_t) const;
template std::vector<double> NpyArray::values(const std::string&, std::size_t) const;

std::size_t NpyHeader::size() const {
  std::size_t n = 1;
  for (std::size_t d : shape) n *= d;
  return n;
}

std::optional<ValueType> NpyHeader::value_type() const {
  NpyArray view;
  view.descr = descr;
  return view.value_type();
}

NpyHeader parse_npy_header(std::string_view bytes, const std::string& name) {
  if (bytes.size() < kMagicBytes + 4 || std::memcmp(bytes.data(), kMagic, kMagicBytes) != 0)
    throw InputError(name + ": not a .npy file (no \\x93NUMPY magic)");
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
  const int major = raw[6];
  if (major < 1 || major > 3)
    throw InputError(name + ": .npy format version " + std::to_string(major) + " is not supported");
  const int length_bytes = major == 1 ? 2 : 4;
  const std::size_t header_start = 8 + static_cast<std::size_t>(length_bytes);
  if (bytes.size() < header_start) throw InputError(name + ": truncated .npy header");
  const std::size_t header_length = little_endian(raw + 8, length_bytes);
  if (bytes.size() < header_start + header_length)
    throw InputError(name + ": truncated .npy header (" + std::to_string(header_length) +
                     " header bytes promised, the file has " +
                     std::to_string(bytes.size() - header_start) + ")");
  NpyArray array;
  bool fortran = false;
  HeaderParser(bytes.substr(header_start, header_length), name).parse(array, fortran);
  NpyHeader header;
  header.descr = array.descr;
  header.shape = array.shape;
  header.item_bytes = item_bytes_of(header.descr, name);
  if (fortran && header.shape.size() > 1)
    throw InputError(name +
                     ": Fortran-ordered .npy data is not accepted; save a C-ordered array "
                     "(np.ascontiguousarray)");
  header.data_offset = header_start + header_length;
  // The product of the dimensions, refused before it can overflow.
  std::size_t elements = 1;
  for (std::size_t d : header.shape) {
    if (d && elements > (std::size_t(1) << 62) / header.item_bytes / d)
      throw InputError(name + ": the .npy shape is too large");
    elements *= d;
  }
  const std::size_t need = elements * header.item_bytes, have = bytes.size() - header.data_offset;
  if (have < need)
    throw InputError(name + ": truncated .npy data: the header promises " + std::to_string(need) +
                     " bytes (" + std::to_string(elements) + " elements of " + header.descr +
                     "), the file holds " + std::to_string(have));
  if (have > need)
    throw InputError(name + ": " + std::to_string(have - need) +
                     " bytes after the .npy data that its header describes");
  return header;
}

NpyArray parse_npy(std::string_view bytes, const std::string& name) {
  const NpyHeader header = parse_npy_header(bytes, name);
  const std::size_t need = header.size() * header.item_bytes;
  require_host_memory(need,
                      name + ": a .npy array of " + std::to_string(header.size()) + " elements");
  NpyArray array;
  array.descr = header.descr;
  array.item_bytes = header.item_bytes;
  array.shape = header.shape;
  array.data.assign(bytes.data() + header.data_offset, bytes.data() + header.data_offset + need);
  return array;
}

NpyArray read_npy(const std::string& path) {
  TextFile file(path);
  return parse_npy(file.text(), path);
}

std::optional<ValueType> npy_value_type(const std::string& path) {
  TextFile file(path);
  return parse_npy_header(file.text(), path).value_type();
}

namespace {

// "0.1", "-3", "1e+300": a value for a message.
template <class S>
std::string shown(S value) {
  char text[64];
  auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

// The value of `from` as T when the conversion is exact and a floating value is finite; else the
// reason ("is not finite", "is not exactly a float").
template <class T, class S>
const char* convert_exactly(S from, T& to) {
  if constexpr (std::is_floating_point_v<S>)
    if (!std::isfinite(from)) return "is not finite";
  if constexpr (std::is_same_v<S, T>) {
    to = from;
    return "";
  } else if constexpr (std::is_integral_v<T>) {
    // An integer from a wider integer or from a floating value: in range and integral.
    const long double wide = static_cast<long double>(from);
    if (wide < static_cast<long double>(std::numeric_limits<T>::min()) ||
        wide > static_cast<long double>(std::numeric_limits<T>::max()) || std::trunc(wide) != wide)
      return sizeof(T) == 4 ? "is not exactly a 32-bit integer" : "is not exactly a 64-bit integer";
    to = static_cast<T>(from);
    return "";
  } else {
    // A floating value from an integer or another floating type: the round trip is exact
    // (long double holds every int64 and every double).
    const T converted = static_cast<T>(from);
    if (!std::isfinite(converted) ||
        static_cast<long double>(converted) != static_cast<long double>(from))
      return std::is_same_v<T, float> ? "is not exactly a float" : "is not exactly a double";
    to = converted;
    return "";
  }
}

template <class T, class S>
void convert_all(const char* data, std::size_t n, T* out, const std::string& name, const char* what,
                 const std::string& descr) {
  const Ranges pieces(n, 4 * std::size_t(host_threads()), std::size_t(1) << 16);
  std::vector<std::size_t> first_bad(pieces.count, n);
  std::vector<const char*> reason(pieces.count, "");
  parallel_for(pieces.count, [&](std::size_t p) {
    for (std::size_t i = pieces.begin(p); i < pieces.end(p); ++i) {
      S value;
      std::memcpy(&value, data + i * sizeof(S), sizeof(S));  // the mapping may be unaligned
      if (const char* problem = convert_exactly(value, out[i]); *problem) {
        first_bad[p] = i;
        reason[p] = problem;
        return;
      }
    }
  });
  for (std::size_t p = 0; p < pieces.count; ++p)
    if (first_bad[p] < n) {
      S value;
      std::memcpy(&value, data + first_bad[p] * sizeof(S), sizeof(S));
      throw InputError(name + ": " + what + " " + std::to_string(first_bad[p]) + " (" +
                       shown(value) + ") " + reason[p] + " (the file holds " + descr + ")");
    }
}

}  // namespace

template <class T>
std::vector<T> read_npy_values(const std::string& path, const char* what) {
  TextFile file(path);
  const NpyHeader header = parse_npy_header(file.text(), path);
  const auto type = header.value_type();
  if (!type)
    throw InputError(path + ": .npy dtype '" + header.descr +
                     "', expected int32, int64, float32 or float64 ('<i4' '<i8' '<f4' '<f8')");
  if (header.shape.size() != 1)
    throw InputError(path + ": a .npy array of " + std::to_string(header.shape.size()) +
                     " dimensions, expected 1");
  const std::size_t n = header.size();
  require_host_memory(bytes_for(n, sizeof(T)),
                      path + ": " + std::to_string(n) + " values of " + to_string(type_of<T>()));
  std::vector<T> out = prefaulted_vector<T>(n);
  const char* data = file.text().data() + header.data_offset;
  visit_value_type(*type, [&](auto stored) {
    using S = decltype(stored);
    if constexpr (std::is_same_v<S, T> && std::is_integral_v<T>) {
      // Same integer type: every value is fine, copy the bytes on all cores.
      parallel_memcpy(out.data(), data, n * sizeof(T));
    } else {
      convert_all<T, S>(data, n, out.data(), path, what, header.descr);
    }
  });
  return out;
}

template std::vector<std::int32_t> read_npy_values<std::int32_t>(const std::string&, const char*);
template std::vector<std::int64_t> read_npy_values<std::int64_t>(const std::string&, const char*);
template std::vector<float> read_npy_values<float>(const std::string&, const char*);
template std::vector<double> read_npy_values<double>(const std::string&, const char*);

std::string npy_header(const std::string& descr, const std::vector<std::size_t>& shape) {
  std::string dims;
  for (std::size_t d : shape) dims += std::to_string(d) + ", ";
  if (shape.size() > 1) dims.erase(dims.size() - 1);  // "(3, 4)" but "(3,)"
  if (shape.empty()) dims.clear();                    // a scalar: "()"
  std::string dict =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // Pad with spaces so that magic + version + length + header + '\n' is a multiple of 64.
  const std::size_t unpadded = kMagicBytes + 2 + 2 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string header(kMagic, kMagicBytes);
  header += '\x01';  // version 1.0
  header += '\x00';
  header += static_cast<char>(dict.size() & 0xff);
  header += static_cast<char>(dict.size() >> 8);
  return header + dict;
}

template <class T>
void write_npy(std::ostream& out, const T* values, const std::vector<std::size_t>& shape) {
  std::size_t count = 1;
  for (std::size_t d : shape) count *= d;
  const std::string header = npy_header(npy_descr(value_type_of<T>()), shape);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(values), static_cast<std::streamsize>(count * sizeof(T)));
}

template void write_npy(std::ostream&, const std::int32_t*, const std::vector<std::size_t>&);
template void write_npy(std::ostream&, const std::int64_t*, const std::vector<std::size_t>&);
template void write_npy(std::ostream&, const float*, const std::vector<std::size_t>&);
template void write_npy(std::ostream&, const double*, const std::vector<std::size_t>&);

bool is_npy_path(const std::string& path) { return file_kind(path) == FileKind::npy; }

}  // namespace treefix
