// householder.cuh: what the Householder-reflector kernels (gebrd.cu, labrd.cu) share.
#pragma once

// Magnitudes for which up to 1024 squares sum without overflow, and entries whose squares
// underflow contribute below 2^-30 (float, even with flush-to-zero) / 2^-64 (double) of the
// largest square; the largest scaling exponent used otherwise (2^+-max_exp and the scaled values
// stay normal); the smallest normal number; 2^sub_exp times a subnormal number is normal.
template <typename T> struct norm_limits;
template <> struct norm_limits<float> {
    __device__ static float lo() { return 0x1p-40f; }
    __device__ static float hi() { return 0x1p+50f; }
    __device__ static float tiny() { return 0x1p-126f; }
    static constexpr int max_exp = 120, sub_exp = 24;
};
template <> struct norm_limits<double> {
    __device__ static double lo() { return 0x1p-500; }
    __device__ static double hi() { return 0x1p+500; }
    __device__ static double tiny() { return 0x1p-1022; }
    static constexpr int max_exp = 1000, sub_exp = 54;
};
