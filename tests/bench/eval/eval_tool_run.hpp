// What the cascade-eval end-to-end tests share: the project's two pedestrian models and running the tool
// (CASCADE_EVAL_EXE, set by tests/CMakeLists.txt for each test program that includes this).
#pragma once

#include <string>
#include <vector>

#include "tests/support/tool_run.hpp"

namespace cascade::test {

inline const std::string kHogModel = std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_hog.xml";
inline const std::string kLbpModel = std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_lbp_64x128.xml";

inline ToolResult run_eval(const std::vector<std::string>& args) { return run_tool(CASCADE_EVAL_EXE, args); }

// A one-line cascade-eval error naming `subject`, with exit code `code`.
inline void check_error(const ToolResult& r, int code, const std::string& subject) {
    check_error(r, code, "cascade-eval", subject);
}

}  // namespace cascade::test
