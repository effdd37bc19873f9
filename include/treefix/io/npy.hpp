#pragma once
// NumPy .npy arrays (np.save / np.load), so that Python hands arrays over without text.
// A small strict reader and writer of our own: the format is a magic string, a Python-dict
// header ('descr', 'fortran_order', 'shape') and the raw bytes, and what matters here is refusing
// everything else clearly (byte order, Fortran order, dtype, shape, truncation) with the file's
// name; a general library (xtensor's xnpy) would add a template dependency and its own messages.
//
//   NpyArray a = read_npy("parents.npy");             // any dtype; checks the header and size
//   std::vector<std::int64_t> p = a.values<std::int64_t>("parents.npy", 1);   // 1-D, exact dtype
//   std::vector<float> w = read_npy_values<float>("w.npy", "weight");  // 1-D, converted if exact
//   write_npy(out, values.data(), {values.size()});  // '<i4' '<i8' '<f4' '<f8' from T
//
// Accepted: format versions 1, 2 and 3; little-endian ('<'), or byte order not applicable ('|');
// C order (fortran_order False; a 1-D array may say either). Before allocating, the shape is
// compared with the file's size (a truncated file is refused) and with the host's memory.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/core/types.hpp"

namespace treefix {

struct NpyArray {
  std::string descr;               // as written: "<i8", "|u1", "<U3", ...
  std::size_t item_bytes = 0;      // bytes per element
  std::vector<std::size_t> shape;  // () for a scalar
  std::vector<char> data;          // elements in C order, little-endian

  std::size_t size() const;                     // elements: the product of the shape
  std::optional<ValueType> value_type() const;  // for '<i4' '<i8' '<f4' '<f8'
  // The elements as T when the dtype is exactly T's and the array has `dimensions` dimensions
  // (0: any); InputError "name: ..." otherwise.
  template <class T>
  std::vector<T> values(const std::string& name, std::size_t dimensions = 0) const;
};

// The header of a .npy file: dtype, shape and where the data starts, checked against the size of
// the bytes (InputError for a malformed header, an unaccepted dtype or order, a truncated file, or
// bytes after the data).
struct NpyHeader {
  std::string descr;
  std::size_t item_bytes = 0;
  std::vector<std::size_t> shape;
  std::size_t data_offset = 0;  // bytes before the data
  std::size_t size() const;     // elements
  std::optional<ValueType> value_type() const;
};
NpyHeader parse_npy_header(std::string_view bytes, const std::string& name);

// Reads and checks a .npy file; InputError "path: ..." for anything malformed or not accepted.
NpyArray read_npy(const std::string& path);

// The dtype of a .npy file as a value type (int32, int64, float, double), from its header alone;
// nullopt for any other dtype.
std::optional<ValueType> npy_value_type(const std::string& path);

// A 1-D .npy array of int32, int64, float32 or float64 as T, copied on all host cores straight
// from the mapped file. Elements of another of these dtypes are converted only when the conversion
// is exact, and floating-point elements must be finite (the number policy of parse_value):
// InputError "w.npy: weight 7 (0.1) is not exactly a float" otherwise. `what` names an element.
template <class T>
std::vector<T> read_npy_values(const std::string& path, const char* what = "element");
// The same from bytes already in memory (a member of an .npz archive); `name` is for messages.
NpyArray parse_npy(std::string_view bytes, const std::string& name);

// The .npy descr of T ('<i4', '<i8', '<f4', '<f8').
const char* npy_descr(ValueType type);

// The header of a version 1.0 .npy stream of `descr` elements in `shape` (the data follows it):
// what write_npy writes first, and what an .npz member of any dtype starts with.
std::string npy_header(const std::string& descr, const std::vector<std::size_t>& shape);

// Writes elements (C order) of T in `shape` as a version 1.0 .npy stream.
template <class T>
void write_npy(std::ostream& out, const T* values, const std::vector<std::size_t>& shape);

// Whether a path names a .npy file (by its extension).
bool is_npy_path(const std::string& path);

}  // namespace treefix
