// Marks functions that compile for both the host and the device.
// Everything that evaluates a window is written once with this marker and shared by the CPU reference
// detector and the CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define CASCADE_HD __host__ __device__ __forceinline__
#else
#define CASCADE_HD inline
#endif

// Loop unrolling hint for device code; host compilers do their own.
#if defined(__CUDA_ARCH__)
#define CASCADE_UNROLL _Pragma("unroll")
#else
#define CASCADE_UNROLL
#endif
