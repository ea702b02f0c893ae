// Single IEEE operations rounded to nearest, for host and device code that must give the CPU's bits on the GPU
// (hog_eval.hpp, haar_eval.hpp, cov_eval.hpp, spd_distance.hpp). On the device each is an explicit _rn intrinsic, which nvcc never contracts
// into an FMA; on the host a plain SSE operation (the project builds without -mfma; a host build with FMA
// enabled would need -ffp-contract=off).
#pragma once

#include <cmath>

#include "common/hd.hpp"

namespace cascade::exact {

CASCADE_HD float add(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

CASCADE_HD float mul(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

CASCADE_HD float div(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}

CASCADE_HD float sqrt(float a) {
#if defined(__CUDA_ARCH__)
    return __fsqrt_rn(a);
#else
    return std::sqrt(a);
#endif
}

CASCADE_HD double add(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

CASCADE_HD double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

CASCADE_HD double sub(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
}

CASCADE_HD double sqrt(double a) {
#if defined(__CUDA_ARCH__)
    return __dsqrt_rn(a);
#else
    return std::sqrt(a);
#endif
}

CASCADE_HD double div(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __ddiv_rn(a, b);
#else
    return a / b;
#endif
}

// 1 / a, rounded once (as OpenCV's 1./nf).
CASCADE_HD double reciprocal(double a) {
#if defined(__CUDA_ARCH__)
    return __drcp_rn(a);
#else
    return 1. / a;
#endif
}

// ln(a) for a finite a > 0, from the operations above only, so that host and device give the same bits (the
// C library's log and CUDA's differ in the last place): a = m 2^e with m in [sqrt(1/2), sqrt(2)), then
// ln m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, by its series to s^27 (the next term is below 2^-70 of
// the sum), in Horner form. Within a few units in the last place of the true value.
CASCADE_HD double log(double a) {
    int e = 0;
    double m = frexp(a, &e);  // exact
    if (m < 0.70710678118654752) {
        m = mul(m, 2.0);  // exact
        --e;
    }
    const double s = div(sub(m, 1.0), add(m, 1.0)), s2 = mul(s, s);
    double series = 1.0 / 27;
    CASCADE_UNROLL
    for (int k = 12; k >= 0; --k) series = add(mul(series, s2), div(1.0, 2.0 * k + 1));
    return add(mul(static_cast<double>(e), 0.69314718055994531), mul(mul(2.0, s), series));
}

}  // namespace cascade::exact
