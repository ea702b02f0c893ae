#include "data/negative_images.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "data/image_files.hpp"

namespace cascade::data {

std::vector<NegativeImage> index_negative_images(const std::vector<std::string>& paths, Size window,
                                                 const std::string& subject, int threads) {
    if (paths.empty()) throw InputError(subject, "no negative images");
    std::vector<NegativeImage> images(paths.size());
    parallel_for(
        static_cast<int>(paths.size()),
        [&](int i) {
            const std::size_t k = static_cast<std::size_t>(i);
            images[k] = {paths[k], read_gray(paths[k]).size()};
        },
        threads);
    Size largest;
    bool fits = false;
    for (const NegativeImage& image : images) {
        fits = fits || (image.size.width >= window.width && image.size.height >= window.height);
        if (image.size.width * image.size.height > largest.width * largest.height) largest = image.size;
    }
    if (!fits)
        throw InputError(subject, "the " + std::to_string(window.width) + "x" + std::to_string(window.height) +
                                      " window is larger than every negative image (largest " +
                                      std::to_string(largest.width) + "x" + std::to_string(largest.height) +
                                      "): no window can be mined");
    return images;
}

}  // namespace cascade::data
