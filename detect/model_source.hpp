// The model a run uses: --model FILE (the project's XML, OpenCV's LBP cascade XML, or a packed binary written
// by cascade-export, recognised by its magic bytes), or, when no --model is given, the embedded default.
// This build embeds none, so no --model is a UsageError; a bad model file is an InputError naming it.
#pragma once

#include <optional>
#include <string>

#include "common/model.hpp"

namespace cascade::detect {

Model load_detection_model(const std::optional<std::string>& path);

}  // namespace cascade::detect
