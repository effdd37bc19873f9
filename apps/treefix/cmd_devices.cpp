// treefix devices: the OpenCL devices present, and which one the default choice takes; with
// --tuning, every tuning row with its value on that device.
#include <iostream>
#include <memory>

#include "command.hpp"

namespace treefix::cli {
namespace {

void setup_devices(CLI::App& app) {
  auto* command = app.add_subcommand("devices", "List OpenCL platforms and devices");
  auto tuning = std::make_shared<bool>(false);
  command->add_flag("--tuning", *tuning,
                    "also list every tuning knob with its value on the default device, its "
                    "default there and its environment variable");
  command->callback([tuning] {
    auto devices = list_devices();
    if (devices.empty()) {
      std::cout << "no OpenCL device found\n";
      return;
    }
    for (auto& d : devices)
      std::cout << d.platform_index << ":" << d.device_index << "  " << d.summary() << "\n";
    Runtime chosen;  // honours $TREEFIX_DEVICE
    std::cout << "default: " << chosen.description().platform_index << ":"
              << chosen.description().device_index << "  " << chosen.description().device_name
              << "\n";
    if (*tuning) std::cout << "\n" << tuning_listing(chosen.tuning(), chosen.description());
  });
}

TREEFIX_COMMAND("devices", setup_devices);

}  // namespace
}  // namespace treefix::cli
