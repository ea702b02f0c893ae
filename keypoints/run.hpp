// One run of cascade-keypoints: the corners of every frame of the inputs, the report and the annotated outputs
// (detect/frame_loop.hpp). Throws UsageError or InputError; when it throws, nothing has been left behind.
#pragma once

#include "keypoints/options.hpp"

namespace cascade::keypoints {

void run(const Options& options);

}  // namespace cascade::keypoints
