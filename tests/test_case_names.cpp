// CTest registers each TEST_CASE by its name (doctest_discover_tests), and CMake splits that name at every ';'
// as a list: a case named "a; b" becomes a CTest test that selects no case and passes having run nothing.
// This test reads every test source and names any case whose title holds a ';'.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

// The title of every TEST_CASE in `code`: its adjacent string literals joined.
std::vector<std::string> case_titles(const std::string& code) {
    static const std::regex head(R"re(TEST_CASE\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+))re");
    static const std::regex literal(R"re("((?:[^"\\]|\\.)*)")re");
    std::vector<std::string> titles;
    for (std::sregex_iterator it(code.begin(), code.end(), head), end; it != end; ++it) {
        const std::string literals = (*it)[1].str();
        std::string title;
        for (std::sregex_iterator part(literals.begin(), literals.end(), literal); part != end; ++part)
            title += (*part)[1].str();
        titles.push_back(title);
    }
    return titles;
}

}  // namespace

TEST_CASE("case titles are read whole, across adjacent literals") {
    const auto titles = case_titles("TEST_CASE(\"one, \"\n    \"two\") {}\nTEST_CASE(\"three\") {}");
    REQUIRE(titles.size() == 2);
    CHECK(titles[0] == "one, two");
    CHECK(titles[1] == "three");
}

TEST_CASE("no test case title holds a semicolon, which CTest would cut into a test that runs nothing") {
    const fs::path tests = fs::path(CASCADE_SOURCE_DIR) / "tests";
    int cases = 0;
    for (const auto& entry : fs::recursive_directory_iterator(tests)) {
        if (entry.path().extension() != ".cpp") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream code;
        code << in.rdbuf();
        for (const std::string& title : case_titles(code.str())) {
            ++cases;
            CHECK_MESSAGE(title.find(';') == std::string::npos,
                          fs::relative(entry.path(), tests).string() << ": \"" << title << "\"");
        }
    }
    CHECK(cases > 100);  // the scan found the suite, not an empty folder
}
