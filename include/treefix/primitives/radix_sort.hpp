#pragma once
// Stable radix sort of (uint key, int value) pairs on the device, our own kernels
// (kernels/primitives/radix_sort.cl): least-significant digit first, 8 bits a pass, only as many
// passes as the keys have bits. Built and cached like every other program of the library (the
// Boost.Compute sort of sort.hpp compiles its kernels afresh in every process), deterministic, no
// inter-work-group waits. For keys of a known small range (parents, depths) it is the cheaper
// choice: a 2^24-vertex tree's parents need 25 bits, 4 passes.
//
//   radix_sort_by_key(runtime, keys, values, n, 25);          // values sorted along with keys
//   radix_sort_by_key(runtime, keys, order, n, 25, true);     // order = the stable permutation
#include <cstddef>

#include "treefix/core/runtime.hpp"

namespace treefix {

// Sorts keys[0 .. count) by their low `key_bits` bits (1 ..32; higher bits must be zero), in
// place, moving values along; equal keys keep their order. With identity_values the values'
// input is ignored and taken to be 0, 1, ..., count - 1, so that values receives the sorting
// permutation. count < 2^31. Kernels are recorded under the "sort" phase.
void radix_sort_by_key(Runtime& runtime, const cl::Buffer& keys, const cl::Buffer& values,
                       std::size_t count, unsigned key_bits, bool identity_values = false,
                       Profile* profile = nullptr);

// The same for 64-bit (ulong) keys of key_bits bits (1 .. 64): two stable passes over the halves
// of the keys (the low 32 bits, then the high bits in that order), then one gather of the pairs.
// Traffic beyond the passes: the halves split off and the pairs gathered once (about 24 bytes a
// pair). The spatial trees sort their 63-bit Morton codes so.
void radix_sort_by_key64(Runtime& runtime, const cl::Buffer& keys, const cl::Buffer& values,
                         std::size_t count, unsigned key_bits, bool identity_values = false,
                         Profile* profile = nullptr);

// Bits needed for keys up to max_key (at least 1).
unsigned key_bits_for(std::size_t max_key);

}  // namespace treefix
