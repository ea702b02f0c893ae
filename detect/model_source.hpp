// The model a run uses: --model FILE (the project's XML, OpenCV's LBP cascade XML, or a packed binary written
// by cascade-export, recognised by its magic bytes), or, when no --model is given, the embedded default: the
// pedestrian HoG cascade models/pedestrian_hog.xml, packed by cascade-export into a header at build time
// (detect/CMakeLists.txt) and unpacked here with the same checks as a packed file. A bad model file is an
// InputError naming it.
#pragma once

#include <optional>
#include <string>

#include "common/model.hpp"

namespace cascade::detect {

// The name the embedded default model carries in messages and outputs.
constexpr const char* kDefaultModelName = "embedded:pedestrian_hog";

Model load_detection_model(const std::optional<std::string>& path);

}  // namespace cascade::detect
