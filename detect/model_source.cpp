#include "detect/model_source.hpp"

#include "common/model_io.hpp"
#include "detect/usage_error.hpp"

namespace cascade::detect {

namespace {

// The default model compiled into the tool; none yet. When one exists, unpack it here with
// unpack_model(bytes, size, "embedded:<name>").
Model embedded_default_model() {
    throw UsageError("--model", "no model given, and this build has no embedded default model");
}

}  // namespace

Model load_detection_model(const std::optional<std::string>& path) {
    if (!path) return embedded_default_model();
    return load_model(*path);
}

}  // namespace cascade::detect
