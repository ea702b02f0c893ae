// parallel_for over [0, n) on all cores (or `threads`), handing out indices one at a time so that uneven
// tasks (big and small pyramid levels) balance. A task's exception stops the handing out; the caller gets
// the exception of the lowest index that threw.
#pragma once

#include <functional>

namespace cascade {

void parallel_for(int n, const std::function<void(int)>& task, int threads = 0);

}  // namespace cascade
