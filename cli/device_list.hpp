// --devices: the CUDA devices a tool spreads its frames over (cascade-detect, cascade-bench).
//   "all"       every device of the machine;
//   "0,1,..."   those device indices, in that order; a device listed twice gets two detectors of its own
//               ("0,0": two on device 0).
#pragma once

#include <string>
#include <vector>

namespace cascade::cli {

struct DeviceList {
    bool all = false;
    std::vector<int> indices;  // when not all
};

// Throws UsageError naming `option` for anything else (empty, an empty item, not a number, negative).
DeviceList parse_device_list(const std::string& option, const std::string& text);

// "all" or "0,1": the list as parse_device_list reads it.
std::string device_list_text(const DeviceList& list);

// The device indices on a machine with `count` devices; throws InputError naming `option` when it has none or
// lacks a listed one.
std::vector<int> resolve_devices(const std::string& option, const DeviceList& list, int count);

}  // namespace cascade::cli
