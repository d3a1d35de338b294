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

// Whether sqrt(alpha^2 + ss) (ss: the sum of the other entries' squares) is safe as it is: the
// common case of dlarfg's norm; otherwise the entries are scaled by 2^scale_exp first.
template <typename T>
__device__ __forceinline__ bool norm_safe(T ss, T alpha) {
    typedef norm_limits<T> lim;
    return ss >= lim::lo() * lim::lo() && ss <= lim::hi() * lim::hi() && fabs(alpha) <= lim::hi();
}

// k with 2^k bringing `big` (> 0) near 1, clamped so that 2^k and 2^-k stay normal.
template <typename T>
__device__ __forceinline__ int scale_exp(T big) {
    typedef norm_limits<T> lim;
    int k = -ilogb(big);
    return k > lim::max_exp ? lim::max_exp : (k < -lim::max_exp ? -lim::max_exp : k);
}

// dlarfg after its norm: beta, tau and v's multipliers (v = (x * pre) * scal) from alpha and
// norm = ||(alpha, x)|| > 0. v = x / (alpha - beta), |alpha - beta| >= norm > 0; where alpha - beta
// is subnormal its reciprocal would overflow, so x and it are scaled by 2^sub_exp first
// (|x| <= |alpha - beta|).
template <typename T>
__device__ __forceinline__ void larfg_finish(T alpha, T norm, T& beta, T& tau, T& pre, T& scal) {
    typedef norm_limits<T> lim;
    beta = -copysign(norm, alpha);
    tau = (beta - alpha) / beta;
    T denom = alpha - beta;
    pre = T(1);
    if (fabs(denom) < lim::tiny()) {
        pre = ldexp(T(1), lim::sub_exp);
        denom *= pre;
    }
    scal = T(1) / denom;
}
