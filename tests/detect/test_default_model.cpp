// The embedded default model: cascade-detect without --model runs models/pedestrian_hog.xml, compiled in as
// the header cascade-export wrote at build time, and gives exactly the detections of the XML on real
// images and video frames (opencv-doc's vtest.avi and sample pictures). Skips with a message without them.
#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kSamples = "/usr/share/doc/opencv-doc/examples/data/";
const std::string kModelXml = std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_hog.xml";

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

// Runs cascade-detect with `args` plus --output FILE.json and returns the JSON text (empty on failure).
std::string detections_json(std::vector<std::string> args) {
    const fs::path out = fs::temp_directory_path() / ("cascade-default-model-" + std::to_string(::getpid()) + ".json");
    std::string command = CASCADE_DETECT_EXE;
    args.insert(args.end(), {"-q", "--output", out.string()});
    for (const std::string& a : args) command += " '" + a + "'";
    const int status = std::system(command.c_str());
    std::string text = WIFEXITED(status) && WEXITSTATUS(status) == 0 ? read_text(out) : std::string();
    fs::remove(out);
    return text;
}

// The "detections" array of a report, as text (everything from the key to the "frames" key after it).
std::string detections_of(const std::string& json) {
    const std::size_t begin = json.find("\"detections\"");
    const std::size_t end = json.find("\"frames\"", begin);
    REQUIRE(begin != std::string::npos);
    REQUIRE(end != std::string::npos);
    return json.substr(begin, end - begin);
}

int count_of(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("cascade-detect without --model runs the embedded pedestrian model: the XML's detections exactly") {
    std::vector<std::string> inputs;
    for (const char* name : {"vtest.avi", "basketball1.png", "messi5.jpg"})
        if (cascade::test::system_file(kSamples + name)) inputs.push_back(kSamples + name);
    if (inputs.empty()) return;
    // Upsampled first levels (vtest's people are 60-110 px tall), 12 frames spread over the video.
    std::vector<std::string> args = {"--first-scale", "0.5", "--stride", "4", "--every", "60", "--max-frames", "12"};
    args.insert(args.end(), inputs.begin(), inputs.end());

    const std::string embedded = detections_json(args);
    std::vector<std::string> with_xml = {"--model", kModelXml};
    with_xml.insert(with_xml.end(), args.begin(), args.end());
    const std::string from_xml = detections_json(with_xml);
    REQUIRE(!embedded.empty());
    REQUIRE(!from_xml.empty());
    CHECK(embedded.find("\"model\": \"embedded:pedestrian_hog\"") != std::string::npos);
    CHECK(count_of(detections_of(embedded), "\"x\"") > 0);
    CHECK(detections_of(embedded) == detections_of(from_xml));
}
