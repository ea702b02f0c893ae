// parallel_for (common/parallel.hpp): every index runs once, and a failure is reported as the lowest failing
// index's, whatever the threads' timing (a bad file in a list gives the same error on every run).
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/parallel.hpp"

using cascade::parallel_for;

TEST_CASE("parallel_for runs every index once on any number of threads") {
    for (const int threads : {1, 2, 4, 16}) {
        std::vector<std::atomic<int>> runs(100);
        parallel_for(100, [&](int i) { ++runs[static_cast<std::size_t>(i)]; }, threads);
        for (const auto& r : runs) CHECK(r.load() == 1);
    }
}

TEST_CASE("parallel_for rethrows the lowest failing index's exception, not the first thrown") {
    for (int repeat = 0; repeat < 5; ++repeat) {
        std::string what;
        try {
            parallel_for(
                64,
                [](int i) {
                    // Index 1 throws last in time: it sleeps while index 9 (another thread) throws.
                    if (i == 1) {
                        std::this_thread::sleep_for(std::chrono::milliseconds(30));
                        throw std::runtime_error("index 1");
                    }
                    if (i == 9) throw std::runtime_error("index 9");
                },
                4);
        } catch (const std::runtime_error& e) {
            what = e.what();
        }
        CHECK(what == "index 1");
    }
}
