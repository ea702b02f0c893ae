#include "common/pyramid.hpp"

namespace cascade {

namespace {

// The window's size at `scale`, rounded as OpenCV rounds it: float product, round half to even.
Size scaled_window(Size window, float scale) {
    return {static_cast<int>(std::lrint(static_cast<float>(window.width) * scale)),
            static_cast<int>(std::lrint(static_cast<float>(window.height) * scale))};
}

PyramidLevel make_level(Size image, Size window, float scale) {
    PyramidLevel level;
    level.scale = scale;
    level.size = {static_cast<int>(std::lrint(static_cast<float>(image.width) / scale)),
                  static_cast<int>(std::lrint(static_cast<float>(image.height) / scale))};
    level.window = scaled_window(window, scale);
    return level;
}

}  // namespace

std::vector<PyramidLevel> pyramid_levels(Size image, Size window, const PyramidParams& params) {
    if (image.width < window.width || image.height < window.height) return {};
    const Size max_object = params.max_object.width > 0 && params.max_object.height > 0 ? params.max_object : image;

    // Every scale whose window (rounded in double) fits the image...
    std::vector<float> all_scales;
    for (double factor = params.first_scale;; factor *= params.scale_factor) {
        if (std::lrint(window.width * factor) > image.width || std::lrint(window.height * factor) > image.height)
            break;
        all_scales.push_back(static_cast<float>(factor));
    }
    // ...then those within the size limits (window rounded from the float scale).
    std::vector<PyramidLevel> levels;
    for (const float scale : all_scales) {
        const Size w = scaled_window(window, scale);
        if (w.width > max_object.width || w.height > max_object.height) break;
        if (w.width < params.min_object.width || w.height < params.min_object.height) continue;
        levels.push_back(make_level(image, window, scale));
    }
    // No scale within the limits (typically min == max between two scales): OpenCV scans the one scale whose
    // window is nearest the minimum size instead (squared distance, first of equals).
    if (levels.empty() && !all_scales.empty()) {
        std::size_t best = 0;
        double best_distance = 0;
        for (std::size_t i = 0; i < all_scales.size(); ++i) {
            const Size w = scaled_window(window, all_scales[i]);
            const double dx = params.min_object.width - w.width, dy = params.min_object.height - w.height;
            const double distance = dx * dx + dy * dy;
            if (i == 0 || distance < best_distance) best = i, best_distance = distance;
        }
        levels.push_back(make_level(image, window, all_scales[best]));
    }
    return levels;
}

}  // namespace cascade
