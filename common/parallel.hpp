// parallel_for over [0, n) on all cores (or `threads`), handing out indices one at a time so that uneven
// tasks (big and small pyramid levels) balance. Exceptions from tasks are rethrown in the caller.
#pragma once

#include <functional>

namespace cascade {

void parallel_for(int n, const std::function<void(int)>& task, int threads = 0);

}  // namespace cascade
