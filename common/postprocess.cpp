#include "common/postprocess.hpp"

#include <algorithm>

#include "common/grouping.hpp"

namespace cascade {

std::vector<Detection> clip_to_image(std::vector<Detection> detections, Size image) {
    std::vector<Detection> kept;
    kept.reserve(detections.size());
    for (Detection d : detections) {
        const int x0 = std::max(d.rect.x, 0), y0 = std::max(d.rect.y, 0);
        const int x1 = std::min(d.rect.x + d.rect.width, image.width);
        const int y1 = std::min(d.rect.y + d.rect.height, image.height);
        if (x1 <= x0 || y1 <= y0) continue;
        d.rect = {x0, y0, x1 - x0, y1 - y0};
        kept.push_back(d);
    }
    return kept;
}

std::vector<Detection> group_and_clip(const std::vector<Detection>& raw, const GroupingParams& params, Size image,
                                      Size window) {
    switch (params.method) {
        case Grouping::opencv: return clip_to_image(group_detections(raw, params.min_neighbors), image);
        case Grouping::nms: return clip_to_image(nms_iou(raw, params.nms_iou), image);
        case Grouping::mean_shift: return clip_to_image(mean_shift_modes(raw, window, params.mean_shift), image);
        case Grouping::none: break;
    }
    return clip_to_image(raw, image);
}

}  // namespace cascade
