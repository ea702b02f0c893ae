// The tools' error contract (cli/tool_main.hpp): one line on stderr, exit 2 for usage and 1 for input.
#include <doctest/doctest.h>

#include <iostream>
#include <sstream>
#include <stdexcept>

#include "cli/tool_main.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"

namespace {

// Runs `body` under run_tool with stderr captured; the exit code and what stderr received.
std::pair<int, std::string> run_captured(const std::function<int()>& body) {
    std::ostringstream captured;
    std::streambuf* saved = std::cerr.rdbuf(captured.rdbuf());
    const int code = cascade::cli::run_tool("tool", body);
    std::cerr.rdbuf(saved);
    return {code, captured.str()};
}

}  // namespace

TEST_CASE("run_tool: the body's exit code, 2 for a usage error, 1 for bad input, one line each") {
    using cascade::cli::UsageError;
    CHECK(run_captured([] { return 0; }) == std::pair<int, std::string>{0, ""});
    CHECK(run_captured([] { return 3; }) == std::pair<int, std::string>{3, ""});
    CHECK(run_captured([]() -> int { throw UsageError("--stride", "'x' is not an integer"); }) ==
          std::pair<int, std::string>{2, "tool: error: --stride: 'x' is not an integer\n"});
    CHECK(run_captured([]() -> int { throw cascade::InputError("a.png", "cannot be read"); }) ==
          std::pair<int, std::string>{1, "tool: error: a.png: cannot be read\n"});
    CHECK(run_captured([]() -> int { throw std::runtime_error("line one\nline two\n"); }) ==
          std::pair<int, std::string>{1, "tool: error: line one line two\n"});
    CHECK(run_captured([]() -> int { throw 42; }) ==
          std::pair<int, std::string>{1, "tool: error: unexpected failure\n"});
    // A file name from a list file cannot drive the terminal: its escape sequences are printed as text.
    CHECK(run_captured([]() -> int { throw cascade::InputError("a\x1b]0;title\x07" "b.jpg", "names no file"); }) ==
          std::pair<int, std::string>{1, "tool: error: a\\x1b]0;title\\x07b.jpg: names no file\n"});
}

TEST_CASE("strict values: the whole text is the value, or a usage error naming the option") {
    using namespace cascade::cli;
    CHECK(parse_int("--n", "12") == 12);
    CHECK(parse_real("--f", "1.5") == 1.5);
    CHECK(parse_size("--s", "24x32") == cascade::Size{24, 32});
    CHECK(parse_size("--s", "24") == cascade::Size{24, 24});
    CHECK(size_text({64, 128}) == "64x128");
    CHECK_THROWS_WITH_AS(parse_int("--n", "12a"), "--n: '12a' is not an integer", UsageError);
    CHECK_THROWS_WITH_AS(parse_int("--n", " 12"), "--n: ' 12' is not an integer", UsageError);
    CHECK_THROWS_WITH_AS(parse_int("--n", "99999999999"), "--n: '99999999999' is out of range", UsageError);
    CHECK_THROWS_WITH_AS(parse_real("--f", "nan"), "--f: 'nan' is out of range", UsageError);
    CHECK_THROWS_AS(parse_size("--s", "0x4"), UsageError);
    CHECK_THROWS_AS(parse_size("--s", "4x"), UsageError);
    CHECK_THROWS_WITH_AS(parse_size("--window", "64y128"),
                         "--window: '64y128' is not a size (WxH, e.g. 24x24, or one integer)", UsageError);
}
