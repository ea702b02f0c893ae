// The template's side of a matching score (common/template_score.hpp's TemplateStats), computed as OpenCV 4.6's
// matchTemplate does (meanStdDev in double), so that scores follow cv::matchTemplate's rounding.
#pragma once

#include "common/template_score.hpp"

namespace cascade {

// template_stats: requires templ.channels in [1, 3], a non-empty template.
TemplateStats template_stats(const MatchPlanes& templ, MatchMethod method);

}  // namespace cascade
