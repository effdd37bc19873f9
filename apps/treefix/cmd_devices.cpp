// treefix devices: the OpenCL devices present, and which one the default choice takes.
#include <iostream>

#include "command.hpp"

namespace treefix::cli {
namespace {

void setup_devices(CLI::App& app) {
  auto* command = app.add_subcommand("devices", "List OpenCL platforms and devices");
  command->callback([] {
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
  });
}

TREEFIX_COMMAND("devices", setup_devices);

}  // namespace
}  // namespace treefix::cli
