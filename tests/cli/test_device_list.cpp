// --devices (cli/device_list.hpp): what parses, what is refused as a usage error, and a device index the
// machine lacks as an input error naming it.
#include <doctest/doctest.h>

#include "cli/device_list.hpp"
#include "cli/usage_error.hpp"

using namespace cascade;
using cascade::cli::DeviceList;

TEST_CASE("--devices all and index lists parse, a repeated index stays repeated") {
    CHECK(cli::parse_device_list("--devices", "all").all);
    const DeviceList list = cli::parse_device_list("--devices", "1,0,1");
    CHECK_FALSE(list.all);
    CHECK(list.indices == std::vector<int>{1, 0, 1});
    CHECK(cli::parse_device_list("--devices", "0,0").indices == std::vector<int>{0, 0});
    CHECK(cli::parse_device_list("--devices", "3").indices == std::vector<int>{3});
    for (const char* text : {"all", "0", "1,0,1"})
        CHECK(cli::device_list_text(cli::parse_device_list("--devices", text)) == text);
}

TEST_CASE("--devices bad values are usage errors naming the option") {
    for (const char* bad : {"", ",", "0,", ",1", "0,,1", "a", "1.5", "-1", "0,-2", "ALL", "all,0", " 0"}) {
        INFO("value '" << bad << "'");
        try {
            cli::parse_device_list("--devices", bad);
            FAIL("accepted");
        } catch (const cli::UsageError& e) {
            CHECK(e.subject() == "--devices");
        }
    }
}

TEST_CASE("--devices resolve: all is every device, a missing index is an input error naming it") {
    CHECK(cli::resolve_devices("--devices", cli::parse_device_list("--devices", "all"), 2) == std::vector<int>{0, 1});
    CHECK(cli::resolve_devices("--devices", cli::parse_device_list("--devices", "0,0"), 1) == std::vector<int>{0, 0});
    try {
        cli::resolve_devices("--devices", cli::parse_device_list("--devices", "0,2"), 2);
        FAIL("accepted device 2 on a machine with 2");
    } catch (const cli::UsageError&) {
        FAIL("a missing device is not a usage error");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == "--devices: there is no CUDA device 2 (this machine has 2: 0..1)");
    }
    CHECK_THROWS_AS(cli::resolve_devices("--devices", cli::parse_device_list("--devices", "all"), 0), InputError);
}
