#include "cli/device_list.hpp"

#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"

namespace cascade::cli {

DeviceList parse_device_list(const std::string& option, const std::string& text) {
    DeviceList list;
    if (text == "all") {
        list.all = true;
        return list;
    }
    if (text.empty()) throw UsageError(option, "empty device list (all, or indices such as 0,1)");
    std::size_t begin = 0;
    while (true) {
        const std::size_t end = text.find(',', begin);
        const std::string item = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
        if (item.empty()) throw UsageError(option, "'" + text + "' has an empty item (all, or indices such as 0,1)");
        const int index = parse_int(option, item);
        if (index < 0) throw UsageError(option, "device index " + item + " is negative");
        list.indices.push_back(index);
        if (end == std::string::npos) return list;
        begin = end + 1;
    }
}

std::string device_list_text(const DeviceList& list) {
    if (list.all) return "all";
    std::string text;
    for (int d : list.indices) text += (text.empty() ? "" : ",") + std::to_string(d);
    return text;
}

std::vector<int> resolve_devices(const std::string& option, const DeviceList& list, int count) {
    if (count <= 0) throw InputError(option, "no CUDA device is available");
    if (list.all) {
        std::vector<int> every;
        for (int d = 0; d < count; ++d) every.push_back(d);
        return every;
    }
    for (int d : list.indices)
        if (d >= count)
            throw InputError(option, "there is no CUDA device " + std::to_string(d) + " (this machine has " +
                                         std::to_string(count) + ": 0.." + std::to_string(count - 1) + ")");
    return list.indices;
}

}  // namespace cascade::cli
