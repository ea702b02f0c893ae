// A frame written into a matcher's pinned staging strip by strip (host code): gpu::CovarianceMatcherGpu uploads each
// strip while the next is written; match/cv_planes.hpp's split_rows_into is what cascade-match writes with.
#pragma once

#include <functional>

namespace cascade {

// Writes rows [top, top + rows) of every plane of the frame into the staging.
using StagingFill = std::function<void(int top, int rows)>;

}  // namespace cascade
