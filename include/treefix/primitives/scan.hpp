#pragma once
// Device-wide primitives shared by every algorithm (the CUB "device" layer). Their work-group
// building blocks live in kernels/primitives/workgroup.clh and are included by the algorithm
// kernels.
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/types.hpp"

namespace treefix {

enum class ScanKind { inclusive, exclusive };

// out[i] = in[0] op ... op in[i] (inclusive) or in[0] op ... op in[i-1] (exclusive, out[0] =
// identity) over n values of `type`. in and out may be the same buffer. When total is given,
// total[0] receives the reduction of all n values (identity for n = 0), on the device.
//
// Portable reduce-then-scan: (1) each work-group reduces a contiguous run of tiles, (2) one
// work-group scans those partials, (3) each work-group rescans its run seeded with its partial.
// No work-group waits on another, so it is correct without inter-group forward progress.
// Traffic: 2 reads + 1 write of n values.
void scan(Runtime& runtime, ValueType type, Op op, ScanKind kind, const cl::Buffer& in,
          const cl::Buffer& out, std::size_t n, Profile* profile = nullptr,
          const char* phase = "scan", const cl::Buffer* total = nullptr);

template <class T>
void inclusive_scan(Runtime& runtime, const DeviceArray<T>& in, DeviceArray<T>& out,
                    Op op = Op::sum, Profile* profile = nullptr) {
  scan(runtime, value_type_of<T>(), op, ScanKind::inclusive, in.buffer(), out.buffer(), in.size(),
       profile);
}

template <class T>
void exclusive_scan(Runtime& runtime, const DeviceArray<T>& in, DeviceArray<T>& out,
                    Op op = Op::sum, Profile* profile = nullptr) {
  scan(runtime, value_type_of<T>(), op, ScanKind::exclusive, in.buffer(), out.buffer(), in.size(),
       profile);
}

}  // namespace treefix
