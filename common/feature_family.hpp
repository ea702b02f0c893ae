// Feature families: what the scan of one pyramid level needs from a cascade of one kind. The pyramid
// (pyramid.hpp: levels, resize_exact.hpp: their pixels), the family (this file: planes and window) and the
// scan (scan.hpp: positions, scan_pyramid.hpp: the loop) are separate parts, as dlib composes its scanner.
//
// Contract of a family F (LbpFamily, HogFamily, HaarFamily and CovFamily below; a new family is a struct like them plus its window
// code, and scan_pyramid, the CPU detectors, the miners and the eval tool take it as it is):
//   F::Cascade, F::View         the model (model.hpp) and its POD view for host and device (view_of(cascade))
//   F::Planes                   what one pyramid level needs, in host memory; reusable for the next level
//   F::build(cascade, pixels, planes)  fills `planes` from one level's pixels (host), the planes `cascade` reads
//   F::Sampler                  what windows read; F::sampler(planes) on the CPU (the GPU builds its own
//                               samplers of the same planes in device memory)
//   F::Window<S>                __host__ __device__: F::Window<S>{view, sampler, x, y}(i) is weak learner i's
//                               response for the window whose top-left corner is (x, y); run_stages
//                               (cascade_eval.hpp) sums them into the stages' decisions
//   F::kAllLevelsAtOnce         true: planes are small, so the CPU scan builds every level first and spreads
//                               rows over the threads; false: one level per thread at a time (less memory)
// FamilyOf<Cascade>::type is the family of a cascade type.
#pragma once

#include <type_traits>
#include <utility>

#include "common/cascade_eval.hpp"
#include "common/cov_eval.hpp"
#include "common/cov_features.hpp"
#include "common/haar_eval.hpp"
#include "common/haar_integrals.hpp"
#include "common/hog_block_cache.hpp"
#include "common/hog_eval.hpp"
#include "common/hog_features.hpp"
#include "common/image.hpp"
#include "common/integral.hpp"
#include "common/lbp_uniform.hpp"
#include "common/model.hpp"

namespace cascade {

// One level of an LBP cascade: its integral image and, for a final histogram SVM, each pixel's uniform LBP bin.
struct LbpLevelPlanes {
    IntegralImage integral;
    LbpBinPlane bins;  // empty without a final histogram SVM
};

// The integral image's sampler (IntegralView) that also reads the level's LBP bins.
struct LbpLevelSampler : IntegralView {
    LbpBinView bins;

    CASCADE_HD std::uint8_t lbp_bin(int x, int y) const { return bins.lbp_bin(x, y); }
};

// Multi-block LBP (OpenCV's LBP cascades, cascade-train lbp): one integral image per level, and the plane of
// LBP bins where the cascade ends in a histogram SVM.
struct LbpFamily {
    using Cascade = LbpCascade;
    using View = LbpCascadeView;
    using Planes = LbpLevelPlanes;
    using Sampler = LbpLevelSampler;
    template <class S>
    using Window = LbpWindow<S>;
    static constexpr bool kAllLevelsAtOnce = true;

    static void build(const Cascade& cascade, const GrayView& pixels, Planes& planes) {
        compute_integral(pixels, planes.integral);
        if (cascade.final_svm)
            planes.bins = build_lbp_bin_plane(pixels);
        else
            planes.bins = {};
    }
    static Sampler sampler(const Planes& planes) { return {planes.integral.view(), planes.bins.view()}; }
};

// HoG blocks (cascade-train hog): nine integral histograms of gradient orientation per level, the gradient
// planes that Dalal-Triggs blocks read and, for a model with LBP-histogram learners, the uniform-LBP bin plane.
// On the CPU each level's Dalal-Triggs descriptors and LBP cell counts are computed once and shared by the
// windows that read them (common/hog_block_cache.hpp: the level's cache, which one task fills).
struct HogFamily {
    using Cascade = HogCascade;
    using View = HogCascadeView;
    using Planes = HogCpuPlanes;
    using Sampler = HogCachedSampler;
    template <class S>
    using Window = HogWindow<S>;
    static constexpr bool kAllLevelsAtOnce = false;  // nine uint32 planes per pixel; and one thread per cache

    static void build(const Cascade& cascade, const GrayView& pixels, Planes& planes) {
        build_planes(pixels, planes, uses_lbp_bins(cascade));
    }
    static Sampler sampler(const Planes& planes) { return planes.cached_sampler(); }

protected:
    static void build_planes(const GrayView& pixels, Planes& planes, bool with_lbp_bins) {
        compute_hog_planes(pixels, planes, with_lbp_bins);
        planes.cache.reset(pixels.size());
    }
};

// HogFamily with the LBP bin plane on every level, whatever the cascade reads (the HoG trainer's miner, whose
// windows feed a final stage of LBP-histogram learners).
struct HogLbpFamily : HogFamily {
    static void build(const Cascade&, const GrayView& pixels, Planes& planes) { build_planes(pixels, planes, true); }
};

// Haar features (OpenCV's Haar cascades): integral, squared and tilted integral images per level.
struct HaarFamily {
    using Cascade = HaarCascade;
    using View = HaarCascadeView;
    using Planes = HaarIntegrals;
    using Sampler = HaarIntegralView;
    template <class S>
    using Window = HaarWindow<S>;
    static constexpr bool kAllLevelsAtOnce = false;  // three uint32 planes per pixel

    static void build(const Cascade&, const GrayView& pixels, Planes& planes) { compute_haar_integrals(pixels, planes); }
    static Sampler sampler(const Planes& planes) { return planes.view(); }
};

// Region covariance (cascade-train cov): 44 int64 integrals at the corners of a kCovGrid grid per level and, for a
// model with LBP-histogram learners, the uniform-LBP bin plane. Windows must sit on that grid: the detectors refuse
// strides that are not multiples of kCovGrid.
struct CovFamily {
    using Cascade = CovCascade;
    using View = CovCascadeView;
    using Planes = CovPlanes;
    using Sampler = CovLbpGridView;
    template <class S>
    using Window = CovWindow<S>;
    static constexpr bool kAllLevelsAtOnce = false;  // 352 bytes per grid corner

    static void build(const Cascade& cascade, const GrayView& pixels, Planes& planes) {
        compute_cov_planes(pixels, planes, uses_lbp_bins(cascade));
    }
    static Sampler sampler(const Planes& planes) { return planes.lbp_sampler(); }
};

template <class Cascade>
struct FamilyOf;
template <>
struct FamilyOf<LbpCascade> {
    using type = LbpFamily;
};
template <>
struct FamilyOf<HogCascade> {
    using type = HogFamily;
};
template <>
struct FamilyOf<HaarCascade> {
    using type = HaarFamily;
};
template <>
struct FamilyOf<CovCascade> {
    using type = CovFamily;
};

// Weak learners evaluated by a window that run_stages ended at stage `rejected_at` (num_stages: accepted;
// kWindowRefused: none): every visited stage evaluates all its weak learners, and the stages cover the weak
// learners in order.
template <class View>
CASCADE_HD int weaks_evaluated(const View& cascade, int rejected_at) {
    if (cascade.num_stages == 0 || rejected_at < 0) return 0;
    const Stage last = cascade.stages[rejected_at < cascade.num_stages ? rejected_at : cascade.num_stages - 1];
    return last.first + last.count;
}

}  // namespace cascade
