// Marks functions that compile for both the host and the device.
// Everything that evaluates a window is written once with this marker and shared by the CPU reference
// detector and the CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define CASCADE_HD __host__ __device__ __forceinline__
#else
#define CASCADE_HD inline
#endif
