// One run of cascade-match: read the template, then find it in every frame of the inputs and write the report and
// the annotated outputs (detect/frame_loop.hpp). Throws UsageError or InputError; when it throws, nothing has
// been left behind.
#pragma once

#include "match/options.hpp"

namespace cascade::match {

void run(const Options& options);

}  // namespace cascade::match
