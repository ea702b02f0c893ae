#include "common/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace cascade {

void parallel_for(int n, const std::function<void(int)>& task, int threads) {
    if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    threads = std::min(threads, n);
    if (threads <= 1) {
        for (int i = 0; i < n; ++i) task(i);
        return;
    }
    std::atomic<int> next{0};
    // The failure of the lowest index is rethrown, whatever the threads' timing: indices are handed out in order
    // and every one below a failing index has been handed out and runs to its end, so the same input always
    // gives the same error (the first bad file of a list, not whichever a thread met first).
    std::exception_ptr failure;
    int failed_at = n;
    std::mutex failure_mutex;
    auto worker = [&] {
        for (int i = next++; i < n; i = next++) {
            try {
                task(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(failure_mutex);
                if (i < failed_at) {
                    failed_at = i;
                    failure = std::current_exception();
                }
                next = n;
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace cascade
