// Single IEEE operations rounded to nearest, for host and device code that must give the CPU's bits on the GPU
// (hog_eval.hpp, haar_eval.hpp). On the device each is an explicit _rn intrinsic, which nvcc never contracts
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

// 1 / a, rounded once (as OpenCV's 1./nf).
CASCADE_HD double reciprocal(double a) {
#if defined(__CUDA_ARCH__)
    return __drcp_rn(a);
#else
    return 1. / a;
#endif
}

}  // namespace cascade::exact
