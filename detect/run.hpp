// One run of cascade-detect: load the model, expand the inputs, detect on every frame, then write the
// report and the annotated outputs. Throws UsageError (bad options) or InputError (bad input file); when it
// throws, no output file, annotated image or video has been left behind.
#pragma once

#include "detect/options.hpp"

namespace cascade::detect {

void run(const Options& options);

}  // namespace cascade::detect
