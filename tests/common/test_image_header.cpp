// common/image_header: the size each image format's header declares, read without decoding, and the pixel
// limit the tools apply before they decode (a small file declaring 30000x30000 allocated 7 GB).
#include <doctest/doctest.h>

#include <cstdlib>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>

#include "common/error.hpp"
#include "common/image_header.hpp"
#include "tests/support/scratch_files.hpp"
#include "tests/support/tool_run.hpp"

namespace {

using cascade::Size;
using cascade::test::ScratchDir;
using cascade::test::write_text;

}  // namespace

TEST_CASE("declared_image_size reads the size from the header of every format the tools meet") {
    ScratchDir dir("image-header");
    cv::Mat image(23, 37, CV_8UC3, cv::Scalar(10, 20, 30));
    for (const char* name : {"a.png", "a.jpg", "a.bmp", "a.pgm", "a.ppm", "a.tif", "a.webp"}) {
        CAPTURE(name);
        const std::string path = dir.file(name);
        cv::Mat written = image;
        if (std::string(name) == "a.pgm") cv::cvtColor(image, written, cv::COLOR_BGR2GRAY);
        REQUIRE(cv::imwrite(path, written));
        const std::optional<Size> size = cascade::declared_image_size(path);
        REQUIRE(size);
        CHECK(size->width == 37);
        CHECK(size->height == 23);
    }
    write_text(dir.file("text.png"), "not an image at all");
    CHECK(!cascade::declared_image_size(dir.file("text.png")));
    CHECK(!cascade::declared_image_size(dir.file("missing.png")));
}

TEST_CASE("a small PNG declaring 30000x30000 pixels is refused by name before it is decoded") {
    ScratchDir dir("image-header-big");
    const std::string big = dir.file("big.png");
    cascade::test::write_png_declaring(big, 30000, 30000);
    const std::string message = cascade::test::input_error([&] { cascade::check_image_file_pixels(big); });
    CHECK(message == big + ": declares 30000x30000 pixels, more than the limit of 100000000 (set "
                           "CASCADE_MAX_IMAGE_PIXELS to allow more)");

    // The limit is the environment's where set.
    REQUIRE(setenv("CASCADE_MAX_IMAGE_PIXELS", "1000000000", 1) == 0);
    CHECK_NOTHROW(cascade::check_image_file_pixels(big));
    REQUIRE(setenv("CASCADE_MAX_IMAGE_PIXELS", "0", 1) == 0);
    CHECK(cascade::test::input_error([&] { cascade::max_image_pixels(); }) ==
          "CASCADE_MAX_IMAGE_PIXELS: '0' is not a positive integer");
    unsetenv("CASCADE_MAX_IMAGE_PIXELS");
}
