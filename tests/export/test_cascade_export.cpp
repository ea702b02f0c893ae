// cascade-export end to end: runs the built binary on the project's HoG model and checks that its outputs
// never overwrite its input and that the header it writes names a valid C++ identifier.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support/tool_run.hpp"

namespace {

using cascade::test::read_text;
using cascade::test::TempDir;
using cascade::test::write_text;

const std::string kModel = std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_hog.xml";

cascade::test::ToolResult run_export(const std::vector<std::string>& args) {
    return cascade::test::run_tool(CASCADE_EXPORT_EXE, args);
}

}  // namespace

TEST_CASE("cascade-export refuses to write over its model, exit code 2, and leaves it as it was") {
    const TempDir dir;
    const std::string model = dir / "m.xml", original = read_text(kModel);
    write_text(model, original);
    for (const char* option : {"--binary", "--header"}) {
        CAPTURE(option);
        cascade::test::check_error(run_export({model, option, model}), 2, "cascade-export",
                                   std::string(option) + ": '" + model + "' is an input; it would be overwritten");
        CHECK(read_text(model) == original);
    }
    cascade::test::check_error(run_export({model, "--binary", dir / "no/such/m.cpk"}), 2, "cascade-export",
                               "--binary: folder '" + (dir / "no/such") + "' does not exist");
    cascade::test::check_error(run_export({model, "--binary", dir / "m.hpp", "--header", dir / "m.hpp"}), 2,
                               "cascade-export", "--header: '" + (dir / "m.hpp") + "' is the --binary file too");
}

TEST_CASE("cascade-export's header symbol: never a keyword, and --symbol only with --header") {
    const TempDir dir;
    cascade::test::check_error(run_export({kModel, "--header", dir / "m.hpp", "--symbol", "class"}), 2,
                               "cascade-export", "--symbol: 'class' is not a C++ identifier (a keyword)");
    cascade::test::check_error(run_export({kModel, "--binary", dir / "m.cpk", "--symbol", "pedestrian"}), 2,
                               "cascade-export", "--symbol: applies to --header only");
    write_text(dir / "int.xml", read_text(kModel));
    const auto r = run_export({dir / "int.xml", "--header", dir / "int.hpp"});
    REQUIRE(r.code == 0);
    const std::string header = read_text(dir / "int.hpp");
    CHECK(header.find("inline constexpr unsigned char model_int[") != std::string::npos);
}
