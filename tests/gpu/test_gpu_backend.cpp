// cascade-detect's GPU backend (detect/gpu_backend.hpp) against its CPU backend, through the Backend interface
// the tool uses: with the exact pyramid, the same raw windows for an LBP and a HoG model, whatever the
// compaction strategy, and for an LBP model whether its packed form carries stump tables or not (the detector
// runs the tables it is given), and with the last threshold lowered for --min-score; settings reach the
// detectors (a texture pyramid gives other, close windows).
#include <doctest/doctest.h>

#include <algorithm>

#include "detect/backend.hpp"
#include "tests/gpu/gpu_test_data.hpp"
#include "tests/gpu/window_compare.hpp"

using namespace cascade;

namespace {

std::vector<Detection> sorted_windows(detect::Backend& backend, const GrayView& frame) {
    std::vector<Detection> w = backend.windows(frame);
    std::sort(w.begin(), w.end(), test::by_rect_then_score);
    return w;
}

// Every frame through both backends; returns the number of windows compared.
long long compare_backends(const PackedModel& model, const ScanParams& params, const detect::GpuSettings& gpu,
                           const std::vector<test::Frame>& frames) {
    auto cpu = detect::make_backend("cpu", model, params, {});
    auto on_gpu = detect::make_backend("gpu", model, params, gpu);
    CHECK(on_gpu->window() == cpu->window());
    long long windows = 0;
    for (const auto& f : frames) {
        const auto expected = sorted_windows(*cpu, f.image.view());
        const auto found = sorted_windows(*on_gpu, f.image.view());
        INFO(model.model.source << " on " << f.label << ", compaction " << gpu.compaction << ", "
                                << (model.stumps.empty() ? "response" : "stump") << " tables");
        CHECK_MESSAGE(test::equal_windows(found, expected), test::difference(found, expected));
        windows += static_cast<long long>(expected.size());
    }
    return windows;
}

}  // namespace

TEST_CASE("--backend gpu with the exact pyramid gives the CPU backend's windows for LBP and HoG models") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 4);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    const auto people = test::load_hog_model(*dir, "pedestrian_hog.xml");
    if (frames.empty() || !face || !people) return;

    const PackedModel packed_face = compile_model({*face, "lbpcascade_frontalface.xml"});
    REQUIRE(!packed_face.stumps.empty());
    PackedModel face_tables = packed_face;
    face_tables.stumps.clear();
    long long windows = 0;
    for (const char* compaction : {"auto", "shared_atomic", "prefix_sum"}) {
        const detect::GpuSettings gpu{"exact", compaction};
        windows += compare_backends(packed_face, ScanParams{}, gpu, frames);
        windows += compare_backends(face_tables, ScanParams{}, gpu, frames);
        ScanParams hog;
        hog.rule.stride = 8;
        hog.pyramid.scale_factor = 1.05;
        hog.pyramid.first_scale = 0.5;  // upsampled first levels, as cascade-detect's demo runs the default model
        windows += compare_backends(compile_model({*people, "pedestrian_hog.xml"}), hog, gpu, frames);
    }
    MESSAGE(windows << " CPU windows compared");
    CHECK(windows > 100);

    // cascade-detect --min-score below the last threshold (detect::with_min_score): more windows, alike on both.
    const detect::GpuSettings automatic{"exact", "auto"};
    const PackedModel lowered = detect::with_min_score(packed_face, face->stages.back().threshold - 2.f);
    CHECK(compare_backends(lowered, ScanParams{}, automatic, frames) >
          compare_backends(packed_face, ScanParams{}, automatic, frames));
}

TEST_CASE("--backend gpu settings reach the detector: a texture pyramid samples other pixels") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 2);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    const PackedModel model = compile_model({*face, "lbpcascade_frontalface.xml"});
    auto exact = detect::make_backend("gpu", model, ScanParams{}, {"exact", "auto"});
    auto texture = detect::make_backend("gpu", model, ScanParams{}, {"texture", "auto"});
    bool differs = false;
    for (const auto& f : frames)
        differs = differs || !test::equal_windows(sorted_windows(*exact, f.image.view()),
                                                  sorted_windows(*texture, f.image.view()));
    CHECK(differs);
}
