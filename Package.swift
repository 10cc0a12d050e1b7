// swift-tools-version:6.0
// notif: Unix filters for push and inbox notifications. The toolchain only: no package
// dependencies (see CONTRIBUTING.md).
import PackageDescription

let package = Package(
  name: "notif",
  products: [
    .executable(name: "notif-parse", targets: ["notif-parse"]),
    .executable(name: "notif-group", targets: ["notif-group"]),
    .executable(name: "notif-summarize", targets: ["notif-summarize"]),
    .library(name: "NotifModel", targets: ["NotifModel"]),
  ],
  targets: [
    .target(name: "NotifModel"),
    .executableTarget(name: "notif-parse", dependencies: ["NotifModel"]),
    .executableTarget(name: "notif-group", dependencies: ["NotifModel"]),
    .executableTarget(name: "notif-summarize", dependencies: ["NotifModel"]),
    .testTarget(name: "NotifModelTests", dependencies: ["NotifModel"]),
    .testTarget(name: "NotifParseTests", dependencies: ["notif-parse", "NotifModel"]),
    .testTarget(name: "NotifGroupTests", dependencies: ["notif-group", "NotifModel"]),
    .testTarget(
      name: "NotifSummarizeTests", dependencies: ["notif-summarize", "NotifModel"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "EndToEndTests", dependencies: ["NotifModel"], exclude: ["cases", "Fixtures"]),
  ]
)
