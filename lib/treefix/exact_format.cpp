// The fixed-point formats of the exact floating-point sums, and the pass that fits one to the
// weights (kernels/treefix/exact_range.cl).
#include "treefix/treefix/detail/exact_format.hpp"

#include <climits>
#include <cstdint>

#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"

namespace treefix::detail {

namespace {
constexpr int kGrowthBits = 32;  // EXACT_GROWTH: sums of up to 2^32 terms

int floor_to_word(int bit) { return bit >= 0 ? bit / 32 * 32 : -((-bit + 31) / 32 * 32); }
}  // namespace

constexpr int kDigitBits = 31;  // payload bits of a digit
constexpr int kMaxLanes = 16;   // the widest OpenCL vector

int lanes(const ExactFormat& f) { return f.count + (f.zero_sign ? 2 : 0); }
int vector_width(int lanes) {
  int width = 1;
  while (width < lanes) width *= 2;
  return width;
}

std::string ExactFormat::options() const {
  std::string o = " -DEXACT_LSB=" + std::to_string(lsb) + (zero_sign ? " -DEXACT_ZERO_SIGN=1" : "");
  if (!digits) return o + " -DEXACT_WORDS=" + std::to_string(count);
  const int width = vector_width(lanes(*this));
  return o + " -DEXACT_DIGITS=" + std::to_string(count) + " -DEXACT_VEC=long" +
         (width > 1 ? std::to_string(width) : "") + " -DEXACT_VEC_WIDTH=" + std::to_string(width);
}

std::size_t ExactFormat::value_bytes() const {
  if (digits) return 8 * static_cast<std::size_t>(vector_width(lanes(*this)));
  return 4 * static_cast<std::size_t>(count + (zero_sign ? 2 : 0));
}

template <class T>
ExactFormat fitted_exact_format(Runtime& runtime, const DeviceArray<T>& weights, Profile* profile) {
  const Phase phase{profile, "exact range"};
  cl::Buffer& range = runtime.scratch("treefix.exact_range", 4 * sizeof(cl_int));
  const cl_int none[4] = {INT_MAX, INT_MIN, 0, static_cast<cl_int>(UINT_MAX)};
  write_buffer(runtime, range, none, sizeof none, profile);
  Kernels kernels(runtime, "treefix/exact_range.cl", value_op_options(value_type_of<T>(), Op::sum),
                  phase);
  const std::size_t n = weights.size();
  const bool wide = n > 0xFFFFFFFFull;
  kernels.run("exact_range", kernels.grid_stride(n), weights, Index{n, wide}, range);
  cl_int found[4];
  read_buffer(runtime, range, found, sizeof found, profile);
  ExactFormat format;
  format.nonfinite = static_cast<cl_uint>(found[3]) != UINT_MAX;
  if (format.nonfinite) format.first_nonfinite = static_cast<cl_uint>(found[3]);
  format.zero_sign = found[2] != 0;
  if (found[0] == INT_MAX) {  // every weight is zero
    format.count = 1;
    return format;
  }
  const int low = found[0], high = found[1];
  // digits while they fit a vector, from the lowest set bit rounded down to a multiple of 32
  // (fewer distinct programs); else words, whose carries take any span
  format.lsb = floor_to_word(low);
  format.count = (high - format.lsb) / kDigitBits + 1;
  if (lanes(format) <= kMaxLanes) return format;
  format.digits = false;
  // the highest bit of a sum of 2^32 terms, then the sign bit above it
  format.count = (high - format.lsb + kGrowthBits + 1) / 32 + 1;
  return format;
}

template <class T>
void split_nonfinite(Runtime& runtime, const DeviceArray<T>& weights, DeviceArray<T>& finite,
                     DeviceArray<std::int64_t>& term_class, Profile* profile) {
  Kernels kernels(runtime, "treefix/exact_range.cl", value_op_options(value_type_of<T>(), Op::sum),
                  {profile, "non-finite"});
  const std::size_t n = weights.size();
  kernels.run("split_nonfinite", kernels.grid_stride(n), weights, Index{n, n > 0xFFFFFFFFull},
              finite, term_class);
}

template <class T>
void apply_nonfinite(Runtime& runtime, DeviceArray<T>& result,
                     const DeviceArray<std::int64_t>& class_sum, Profile* profile) {
  Kernels kernels(runtime, "treefix/exact_range.cl", value_op_options(value_type_of<T>(), Op::sum),
                  {profile, "non-finite"});
  const std::size_t n = result.size();
  kernels.run("apply_nonfinite", kernels.grid_stride(n), result, class_sum,
              Index{n, n > 0xFFFFFFFFull});
}

template ExactFormat fitted_exact_format<float>(Runtime&, const DeviceArray<float>&, Profile*);
template ExactFormat fitted_exact_format<double>(Runtime&, const DeviceArray<double>&, Profile*);

}  // namespace treefix::detail

namespace treefix::detail {
#define TREEFIX_NONFINITE_INSTANTIATE(T)                                                       \
  template void split_nonfinite<T>(Runtime&, const DeviceArray<T>&, DeviceArray<T>&,           \
                                   DeviceArray<std::int64_t>&, Profile*);                      \
  template void apply_nonfinite<T>(Runtime&, DeviceArray<T>&, const DeviceArray<std::int64_t>&, \
                                   Profile*);
TREEFIX_NONFINITE_INSTANTIATE(float)
TREEFIX_NONFINITE_INSTANTIATE(double)
#undef TREEFIX_NONFINITE_INSTANTIATE
}  // namespace treefix::detail
