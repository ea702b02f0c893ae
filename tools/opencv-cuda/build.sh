#!/usr/bin/env bash
# Builds OpenCV 4.6's CUDA cascade detectors (cv::cuda::CascadeClassifier, contrib module cudaobjdetect: LBP, and
# Haar through cudalegacy) for the H100 (sm_90) with CUDA 13, from the source Debian ships, into an install
# prefix that cascade-bench-opencv-cuda links (CMake: -DCASCADE_OPENCV_CUDA_DIR=PREFIX; docs/benchmarks.md, issue 24).
#
#   tools/opencv-cuda/build.sh        (ROOT=/work/opencv-cuda: source, build and, by default, PREFIX=ROOT/install)
#
# Steps, each skipped when done: a deb-src entry for bookworm (when `apt-cache showsrc opencv` finds none);
# `apt-get source opencv=4.6.0+dfsg-12` in ROOT (OpenCV 4.6.0 and its contrib tarball, Debian's patches
# applied); this folder's patches; the files detection never reaches removed (below); CMake; ninja -j2
# under nice -n 19 with ccache (CCACHE_DIR=/work/.ccache unless set); install. Never inside a git tree of ours.
#
# What is built: core (with CUDA: the system's libopencv_core has none), cudev, cudaarithm, cudawarping,
# cudalegacy and cudaobjdetect; CUDA_ARCH_BIN=9.0, no PTX; no cuBLAS, cuFFT, cuDNN, NPP (CUDA 13's toolkit here
# has no NPP), OpenCL, IPP, codecs, GUI, tests, apps, Python or Java; CPU_DISPATCH empty (CPU_BASELINE SSE2,
# as Debian's).
# OpenCV's CPU modules that these depend on (imgproc, objdetect, video) are NOT rebuilt: they contain no CUDA
# code, and the system's 4.6.0 libraries, built by Debian from this same source, load the CUDA-enabled core
# built here (same soname; the script checks that every core symbol they import is defined here).
#
# Patches (CUDA 13 removals and the reduced module set; each file says why):
#   npp-optional.patch         NPP optional (HAVE_NPP): private.cuda.hpp, cuda_info.cpp, cvconfig.h.in, CMake;
#                              core/cuda/filters.hpp's NPP_MIN_32S/NPP_MAX_32S as INT_MIN/INT_MAX
#   device-prop-attributes.patch  cudaDeviceProp fields CUDA 13 removed (clockRate, memoryClockRate,
#                              kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear, deviceOverlap) read
#                              with cudaDeviceGetAttribute (core/src/cuda_info.cpp)
#   texture-objects.patch      texture references (removed in CUDA 12): cudev's Texture uses its texture-object
#                              branch only, core's bindTexture helper is compiled out, cudawarping's resize.cu
#                              reads through texture objects, cudalegacy's Haar detector and NPP_staging read
#                              through __ldg (NPP_staging's filters, frame interpolation, warp and resize, which
#                              the Haar path never calls, are left out)
#   system-cpu-modules.patch   cudawarping, cudaobjdetect and cudalegacy link the system's imgproc/objdetect/
#                              video; cudaarithm, reduced to integral.cu, links as C++; core exports the four
#                              OpenCL entry points the system's modules import (ocl_disabled_exports.cpp)
# Source files removed (never reached by detection: cuda::CascadeClassifier's LBP path calls only
# cuda::resize INTER_LINEAR, cuda::integral and its own kernels in lbp.cu; its Haar path NCV (NCV.cpp, NCV.cu),
# NCVHaarObjectDetection.cu and NPP_staging.cu's integral, squared integral, rectangle deviation, decimation and
# compaction):
#   cudaarithm/src/{arithm,core,element_operations,lut,reductions}.cpp, lut.hpp, every cuda/*.cu but integral.cu
#   cudawarping/src/{pyramids,remap,warp}.cpp, cuda/{pyr_down,pyr_up,remap,warp}.cu
#   cudaobjdetect/src/hog.cpp, cuda/hog.cu (cuda::HOG)
#   cudalegacy/src/{bm,bm_fast,calib3d,fgd,gmg,graphcuts,image_pyramid,interpolate_frames,needle_map}.cpp,
#     cuda/{NCVBroxOpticalFlow,NCVPyramid,bm,bm_fast,calib3d,ccomponetns,fgd,gmg,needle_map}.cu
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=${ROOT:-/work/opencv-cuda}
prefix=${PREFIX:-$root/install}
src=$root/opencv-4.6.0+dfsg
build=$root/build
export CCACHE_BASEDIR=$root CCACHE_DIR=${CCACHE_DIR:-/work/.ccache}
mkdir -p "$root"

if [ ! -d "$src" ]; then
  if ! apt-cache showsrc opencv 2>/dev/null | grep -q '^Version: 4.6.0+dfsg-12'; then
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm' 'Components: main' \
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' >/etc/apt/sources.list.d/debian-src.sources
    apt-get update
  fi
  (cd "$root" && apt-get source opencv=4.6.0+dfsg-12)
  for p in npp-optional device-prop-attributes texture-objects system-cpu-modules; do
    patch -d "$src" -p1 --forward <"$here/$p.patch"
  done
  m=$src/contrib/modules
  rm "$m"/cudaarithm/src/{arithm,core,element_operations,lut,reductions}.cpp "$m"/cudaarithm/src/lut.hpp
  find "$m/cudaarithm/src/cuda" -name '*.cu' ! -name integral.cu -delete
  rm "$m"/cudawarping/src/{pyramids,remap,warp}.cpp "$m"/cudawarping/src/cuda/{pyr_down,pyr_up,remap,warp}.cu
  rm "$m"/cudaobjdetect/src/hog.cpp "$m"/cudaobjdetect/src/cuda/hog.cu
  rm "$m"/cudalegacy/src/{bm,bm_fast,calib3d,fgd,gmg,graphcuts,image_pyramid,interpolate_frames,needle_map}.cpp
  rm "$m"/cudalegacy/src/cuda/{NCVBroxOpticalFlow,NCVPyramid,bm,bm_fast,calib3d,ccomponetns,fgd,gmg,needle_map}.cu
fi

# nvcc through ccache (FindCUDA runs CUDA_NVCC_EXECUTABLE in its own custom commands).
mkdir -p "$root/bin"
printf '#!/bin/sh\nexec ccache /usr/local/cuda/bin/nvcc "$@"\n' >"$root/bin/nvcc"
chmod +x "$root/bin/nvcc"

off=(-DBUILD_TESTS -DBUILD_PERF_TESTS -DBUILD_EXAMPLES -DBUILD_opencv_apps -DBUILD_JAVA -DBUILD_opencv_python2
     -DBUILD_opencv_python3 -DBUILD_DOCS -DWITH_CUBLAS -DWITH_CUFFT -DWITH_CUDNN -DWITH_NVCUVID -DWITH_NVCUVENC
     -DWITH_OPENCL -DWITH_IPP -DWITH_ITT -DWITH_EIGEN -DWITH_LAPACK -DWITH_TBB -DWITH_OPENMP -DWITH_ADE -DWITH_PROTOBUF
     -DWITH_QUIRC -DWITH_FFMPEG -DWITH_GSTREAMER -DWITH_GTK -DWITH_QT -DWITH_OPENGL -DWITH_V4L -DWITH_1394 -DWITH_VTK
     -DWITH_JPEG -DWITH_PNG -DWITH_TIFF -DWITH_WEBP -DWITH_OPENJPEG -DWITH_JASPER -DWITH_OPENEXR -DWITH_IMGCODEC_HDR
     -DWITH_IMGCODEC_SUNRASTER -DWITH_IMGCODEC_PXM -DWITH_IMGCODEC_PFM -DWITH_CAROTENE -DENABLE_PRECOMPILED_HEADERS
     -DENABLE_CCACHE)
nice -n 19 cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DOPENCV_EXTRA_MODULES_PATH="$src/contrib/modules" \
  -DBUILD_LIST=core,cudev,cudaarithm,cudawarping,cudalegacy,cudaobjdetect \
  -DWITH_CUDA=ON -DCUDA_TOOLKIT_ROOT_DIR=/usr/local/cuda -DCUDA_NVCC_EXECUTABLE="$root/bin/nvcc" \
  -DCUDA_ARCH_BIN=9.0 -DCUDA_ARCH_PTX= -DCUDA_NVCC_FLAGS=--std=c++17 \
  -DCPU_BASELINE=SSE2 -DCPU_BASELINE_DISABLE=SSE3 -DCPU_DISPATCH= -DOPENCV_DOWNLOAD_TRIES_LIST= \
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  "${off[@]/%/=OFF}" >"$root/configure.log"
nice -n 19 ninja -C "$build" -j2
nice -n 19 ninja -C "$build" install >/dev/null
# cudalegacy's Haar detector (NCV) loads only the old cascade format: OpenCV ships those in data/haarcascades_cuda
# (the same classifiers as data/haarcascades; this toolkit reads both and detects the same windows with either).
mkdir -p "$prefix/share/opencv4/haarcascades_cuda"
cp "$src"/data/haarcascades_cuda/*.xml "$prefix/share/opencv4/haarcascades_cuda/"

# The system's CPU modules must find every symbol they import from the system's core in the core built here.
sys=/usr/lib/x86_64-linux-gnu
defined() { nm -D --defined-only "$@" | awk '{print $3}' | sort -u; }
missing=$(comm -12 <(defined "$sys/libopencv_core.so.406") \
    <(for m in imgproc objdetect calib3d features2d flann dnn video; do
        nm -D --undefined-only "$sys/libopencv_$m.so.406"
      done | awk '{print $2}' | sort -u) | comm -23 - <(defined "$prefix/lib/libopencv_core.so.406"))
if [ -n "$missing" ]; then
  echo "build.sh: the system's OpenCV modules import core symbols this core lacks:" >&2
  echo "$missing" | head -20 >&2
  exit 1
fi
echo "build.sh: installed in $prefix ($(du -sh "$prefix/lib" | cut -f1) of libraries)"
