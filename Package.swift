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
    .executable(name: "notif-expire", targets: ["notif-expire"]),
    .executable(name: "notif-mark", targets: ["notif-mark"]),
    .library(name: "NotifModel", targets: ["NotifModel"]),
  ],
  targets: [
    .target(name: "NotifModel"),
    .executableTarget(name: "notif-parse", dependencies: ["NotifModel"]),
    .executableTarget(name: "notif-group", dependencies: ["NotifModel"]),
    .executableTarget(name: "notif-summarize", dependencies: ["NotifModel"]),
    .executableTarget(name: "notif-expire", dependencies: ["NotifModel"]),
    .executableTarget(name: "notif-mark", dependencies: ["NotifModel"]),
    .testTarget(name: "NotifModelTests", dependencies: ["NotifModel"]),
    .testTarget(name: "NotifParseTests", dependencies: ["notif-parse", "NotifModel"]),
    .testTarget(name: "NotifGroupTests", dependencies: ["notif-group", "NotifModel"]),
    .testTarget(
      name: "NotifSummarizeTests", dependencies: ["notif-summarize", "NotifModel"],
      exclude: ["Fixtures"]),
    .testTarget(name: "NotifExpireTests", dependencies: ["notif-expire", "NotifModel"]),
    .testTarget(name: "NotifMarkTests", dependencies: ["notif-mark", "NotifModel"]),
    .testTarget(
      name: "EndToEndTests", dependencies: ["NotifModel"], exclude: ["cases", "Fixtures"]),
  ]
)
