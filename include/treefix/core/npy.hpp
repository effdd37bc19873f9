#pragma once
// NumPy .npy arrays (np.save / np.load), so that Python hands arrays over without text.
// A small strict reader and writer of our own: the format is a magic string, a Python-dict
// header ('descr', 'fortran_order', 'shape') and the raw bytes, and what matters here is refusing
// everything else clearly (byte order, Fortran order, dtype, shape, truncation) with the file's
// name; a general library (xtensor's xnpy) would add a template dependency and its own messages.
//
//   NpyArray a = read_npy("parents.npy");             // any dtype; checks the header and size
//   std::vector<std::int64_t> p = a.values<std::int64_t>("parents.npy", 1);   // 1-D, exact dtype
//   write_npy(out, values.data(), {values.size()});  // '<i4' '<i8' '<f4' '<f8' from T
//
// Accepted: format versions 1, 2 and 3; little-endian ('<'), or byte order not applicable ('|');
// C order (fortran_order False; a 1-D array may say either).
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

// Reads and checks a .npy file; InputError "path: ..." for anything malformed or not accepted.
NpyArray read_npy(const std::string& path);
// The same from bytes already in memory (a member of an .npz archive); `name` is for messages.
NpyArray parse_npy(std::string_view bytes, const std::string& name);

// The .npy descr of T ('<i4', '<i8', '<f4', '<f8').
const char* npy_descr(ValueType type);

// Writes elements (C order) of T in `shape` as a version 1.0 .npy stream.
template <class T>
void write_npy(std::ostream& out, const T* values, const std::vector<std::size_t>& shape);

// Whether a path names a .npy file (by its extension).
bool is_npy_path(const std::string& path);

}  // namespace treefix
