// Image list files (data/image_files.hpp list_images): one path per line, '#' comments, relative paths
// resolved beside the list and up to two folders up.
#include "data/image_files.hpp"
#include "fuzz/harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    const std::string path = fuzz::scratch_file("images.lst", data, size);
    fuzz::accept_input_errors([&] { data::list_images(path); });
    return 0;
}
