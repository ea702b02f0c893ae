// The model a run uses: --model FILE (the project's XML, OpenCV's LBP cascade XML, or a packed binary written
// by cascade-export, recognised by its magic bytes), or, when no --model is given, the embedded default: the
// pedestrian HoG cascade models/pedestrian_hog.xml, packed by cascade-export into a header at build time
// (detect/CMakeLists.txt) and unpacked here with the same checks as a packed file. Either way in packed form
// (common/packed_model.hpp): a packed file's kernel tables as written, an XML model's compiled. A bad model file
// is an InputError naming it.
#pragma once

#include <optional>
#include <string>

#include "common/packed_model.hpp"

namespace cascade::detect {

// The name the embedded default model carries in messages and outputs.
constexpr const char* kDefaultModelName = "embedded:pedestrian_hog";

PackedModel load_detection_model(const std::optional<std::string>& path);

}  // namespace cascade::detect
