// Loading and saving models.
//
// load_model reads a packed binary (common/packed_model.hpp, written by cascade-export), the project's own
// XML format (docs/model-format.md, root <cascade_model>) or OpenCV's cascade XML (root <opencv_storage>,
// featureType LBP, stageType BOOST), and validates the result.
// Every failure (missing file, not XML, unsupported kind, inconsistent content) throws InputError naming the
// file and the problem.
// save_model writes the project's format through a temporary file renamed into place, so a failed or
// interrupted save never leaves a half-written model. Floats are written so that they read back
// bit-identical.
#pragma once

#include <string>

#include "common/model.hpp"

namespace cascade {

Model load_model(const std::string& path);
// The bytes of a model file, unparsed; InputError naming it when it cannot be read.
std::string read_model_file(const std::string& path);
// Parses XML text held in memory (an embedded model); `name` is used in messages.
Model load_model_from_string(const std::string& xml, const std::string& name);
void save_model(const Model& model, const std::string& path);
// The text save_model writes (validated the same way; `path` names the model in messages).
std::string model_xml(const Model& model, const std::string& path);

}  // namespace cascade
