#include "common/pyramid.hpp"

namespace cascade {

std::vector<PyramidLevel> pyramid_levels(Size image, Size window, const PyramidParams& params) {
    const Size max_object = params.max_object.width > 0 && params.max_object.height > 0 ? params.max_object : image;
    std::vector<PyramidLevel> levels;
    for (double factor = 1.0;; factor *= params.scale_factor) {
        const Size scaled{static_cast<int>(std::lrint(window.width * factor)),
                          static_cast<int>(std::lrint(window.height * factor))};
        if (scaled.width > max_object.width || scaled.height > max_object.height || scaled.width > image.width ||
            scaled.height > image.height)
            break;
        if (scaled.width < params.min_object.width || scaled.height < params.min_object.height) continue;
        PyramidLevel level;
        level.scale = static_cast<float>(factor);
        level.size = {static_cast<int>(std::lrint(static_cast<float>(image.width) / level.scale)),
                      static_cast<int>(std::lrint(static_cast<float>(image.height) / level.scale))};
        level.window = {static_cast<int>(std::lrint(static_cast<float>(window.width) * level.scale)),
                        static_cast<int>(std::lrint(static_cast<float>(window.height) * level.scale))};
        levels.push_back(level);
    }
    return levels;
}

}  // namespace cascade
