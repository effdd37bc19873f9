// morton.cl: the first steps of a device tree build (include/treefix/spatial/device_build.hpp):
//   frame_partial  per work-group minimum and maximum of every coordinate (grid-stride)
//   frame_finish   one work-group folds the partials into the frame (below)
//   morton_codes   per point the Morton code of its quantised coordinates
// Options: -DDIM, -DBITS (bits per coordinate; DIM * BITS <= 63), -DCUBE (one cube for every
// coordinate, the octree's cells; without it each coordinate spans its own extent), -DWG_SIZE.
// Traffic: the coordinates are read twice (frame, codes); 8 bytes a point are written.
//
// The frame (float[FRAME_SIZE]):
//   [0]  s, a power of two: 1, or small enough that every |x * s| < 2^40. Positions times s keep
//        squared differences and their 3/2 powers finite in float (Barnes-Hut), and the frame's
//        own arithmetic never overflows, whatever finite coordinates come in; s is exact.
//   [1]  the side of the root cube (CUBE), in units of s
//   [2 + k], [2 + DIM + k]: origin and factor of coordinate k: q = (x * s - origin) * factor,
//        clamped to 0 .. 2^BITS - 1. All equal points give factor 0 (without CUBE): code 0.
#include "primitives/workgroup.clh"
#include "spatial/morton_frame.clh"

#define WG_MIN(a, b) fmin(a, b)
#define WG_MAX(a, b) fmax(a, b)
WG_DEFINE_SCAN(wg_min_float, float, WG_MIN, INFINITY)
WG_DEFINE_SCAN(wg_max_float, float, WG_MAX, -INFINITY)

kernel void frame_partial(const uint n, global const float* restrict coord,
                          global float* restrict partial) {
  local float scratch[WG_SIZE];
  for (uint k = 0; k < DIM; ++k) {
    float lo = INFINITY, hi = -INFINITY;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
      const float x = coord[k * n + i];
      lo = fmin(lo, x);
      hi = fmax(hi, x);
    }
    lo = wg_min_float_reduce(lo, scratch);
    hi = wg_max_float_reduce(hi, scratch);
    if (get_local_id(0) == 0) {
      partial[(get_group_id(0) * DIM + k) * 2] = lo;
      partial[(get_group_id(0) * DIM + k) * 2 + 1] = hi;
    }
  }
}

kernel void frame_finish(const uint groups, global const float* restrict partial,
                         global float* restrict frame) {
  local float scratch[WG_SIZE];
  local float lo[DIM], hi[DIM];
  for (uint k = 0; k < DIM; ++k) {
    float l = INFINITY, h = -INFINITY;
    for (uint g = get_local_id(0); g < groups; g += WG_SIZE) {
      l = fmin(l, partial[(g * DIM + k) * 2]);
      h = fmax(h, partial[(g * DIM + k) * 2 + 1]);
    }
    l = wg_min_float_reduce(l, scratch);
    h = wg_max_float_reduce(h, scratch);
    if (get_local_id(0) == 0) {
      lo[k] = l;
      hi[k] = h;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) != 0) return;
  float largest = 0.0f;
  for (uint k = 0; k < DIM; ++k) largest = fmax(largest, fmax(fabs(lo[k]), fabs(hi[k])));
  int e = 0;
  frexp(largest, &e);  // largest < 2^e
  const float s = e > 40 ? ldexp(1.0f, 40 - e) : 1.0f;
  const float cells = ldexp(1.0f, BITS);
#ifdef CUBE
  float radius = 0.0f;
  for (uint k = 0; k < DIM; ++k) radius = fmax(radius, 0.5f * (hi[k] * s - lo[k] * s));
  radius = radius * 1.0001f + 1e-30f;  // every point strictly inside the root cube
  frame[1] = 2.0f * radius;
  for (uint k = 0; k < DIM; ++k) {
    frame[2 + k] = 0.5f * (lo[k] * s) + 0.5f * (hi[k] * s) - radius;
    frame[2 + DIM + k] = cells / (2.0f * radius);
  }
#else
  frame[1] = 0.0f;
  for (uint k = 0; k < DIM; ++k) {
    const float extent = hi[k] * s - lo[k] * s;
    frame[2 + k] = lo[k] * s;
    frame[2 + DIM + k] = extent > 0.0f ? cells / extent : 0.0f;
  }
#endif
  frame[0] = s;
}

// Bits interleaved from the most significant down, coordinate 0 first: code bit DIM*BITS-1 is
// the top bit of q_0, so a prefix of length p splits coordinate p % DIM at level p / DIM.
kernel void morton_codes(const uint n, global const float* restrict coord,
                         global const float* restrict frame, global ulong* restrict code) {
  for (uint i = get_global_id(0); i < n; i += get_global_size(0)) {
    uint q[DIM];
    for (uint k = 0; k < DIM; ++k) q[k] = morton_cell(coord[k * n + i], k, frame);
    ulong c = 0;
    for (int b = BITS - 1; b >= 0; --b)
      for (uint k = 0; k < DIM; ++k) c = (c << 1) | (ulong)((q[k] >> b) & 1u);
    code[i] = c;
  }
}
