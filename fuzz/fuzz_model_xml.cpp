// Model XML, the project's format and OpenCV's cascade XML (load_model_from_string dispatches on the root):
// built twice, as fuzz_model_xml on the project's models and as fuzz_opencv_xml on OpenCV's cascades.
#include "common/model_io.hpp"
#include "fuzz/harness.hpp"
#include "fuzz/model_round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    const std::string text = fuzz::text_of(data, size);
    fuzz::accept_input_errors([&] { fuzz::check_round_trip(load_model_from_string(text, "fuzz.xml")); });
    return 0;
}
