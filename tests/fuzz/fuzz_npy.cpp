// Fuzz target: .npy arrays, through every reader that takes them: parse_npy (in memory, then
// values<T> of every type), read_npy_values<T> (weights: exact conversions), the tree reader
// (int32/int64 parents) and the point and body readers ((n, d) float arrays).
#include "fuzz_support.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/spatial/points_io.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace {

template <class T>
void read_as(const treefix::NpyArray* array, const std::string& path) {
  using treefix::fuzz::expect_refusal;
  if (array) expect_refusal([&] { array->values<T>("fuzz.npy", 1); });
  expect_refusal([&] { treefix::read_npy_values<T>(path, "weight"); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace treefix;
  NpyArray array;
  const bool parsed =
      fuzz::expect_refusal([&] { array = parse_npy(fuzz::as_text(data, size), "fuzz.npy"); });
  if (parsed)
    fuzz::require(array.data.size() == array.size() * array.item_bytes,
                  "the data holds exactly the shape's elements");
  const std::string& path = fuzz::as_file(data, size);
  const NpyArray* checked = parsed ? &array : nullptr;
  read_as<std::int32_t>(checked, path);
  read_as<std::int64_t>(checked, path);
  read_as<float>(checked, path);
  read_as<double>(checked, path);
  TreeReadOptions tree;
  tree.format = TreeFormat::npy;
  fuzz::expect_refusal([&] { read_tree_input(path, tree); });
  fuzz::expect_refusal([&] { read_points(path, PointFormat::npy); });
  fuzz::expect_refusal([&] { read_bodies(path, PointFormat::npy); });
  return 0;
}
