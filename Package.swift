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
    .executable(name: "notif-responses", targets: ["notif-responses"]),
    .executable(name: "notif-show", targets: ["notif-show"]),
    .executable(name: "notif-digest", targets: ["notif-digest"]),
    .library(name: "NotifModel", targets: ["NotifModel"]),
  ],
  targets: [
    // The byte-level engine every tool runs on: read, parse, write (CONTRIBUTING.md).
    .target(name: "NotifJSON", dependencies: ["CNotifSIMD"]),
    // The engine's vector first pass, in C for the instructions Swift does not reach (the
    // byte masks): part of this package, not a dependency.
    .target(name: "CNotifSIMD"),
    // The C library calls Swift's Glibc module leaves out: notif-group's allocator setting.
    .target(name: "CNotifSystem"),
    // The model every tool imports: record fields, group keys, times, diagnostics.
    .target(name: "NotifModel", dependencies: ["NotifJSON"]),
    // The command-line layer every tool stands on: options, usage, the tool skeleton, its
    // environment, the file operands.
    .target(name: "NotifCLI", dependencies: ["NotifModel", "NotifJSON"]),
    // An app's notification categories (--categories): notif-parse, notif-summarize, notif-show
    // and notif-digest.
    .target(name: "NotifCategories", dependencies: ["NotifModel", "NotifJSON"]),
    // Stores: in-place sweeps (notif-expire, notif-mark, notif-digest --store, notif-responses
    // --prune) and locked appends (notif-parse --store).
    .target(name: "NotifSweep", dependencies: ["NotifModel", "NotifCLI", "NotifJSON"]),
    // The order notifications are listed in, and group objects read: notif-group,
    // notif-summarize, notif-show and notif-digest.
    .target(name: "NotifListing", dependencies: ["NotifModel", "NotifCLI", "NotifJSON"]),
    // How much room text takes on screen: notif-parse's --lint and notif-show.
    .target(name: "NotifText"),
    // Push messages read and checked as each service reads them: notif-parse and
    // notif-responses.
    .target(name: "NotifPush", dependencies: ["NotifModel", "NotifJSON"]),
    // Summaries and digests in every language (CLDR plural rules and list patterns, strings
    // files): notif-summarize and notif-digest; notif-parse's plural check of a registry;
    // notif-show's day names.
    .target(
      name: "NotifLocalization",
      dependencies: ["NotifModel", "NotifCLI", "NotifJSON", "NotifCategories"]),
    .executableTarget(
      name: "notif-parse",
      dependencies: [
        "NotifModel", "NotifCLI", "NotifJSON", "NotifPush", "NotifCategories", "NotifText",
        "NotifSweep",
        "NotifLocalization",
      ]),
    .executableTarget(
      name: "notif-group",
      dependencies: ["NotifModel", "NotifCLI", "NotifJSON", "NotifListing", "CNotifSystem"]),
    .executableTarget(
      name: "notif-summarize",
      dependencies: [
        "NotifModel", "NotifCLI", "NotifJSON", "NotifCategories", "NotifListing",
        "NotifLocalization",
      ]),
    .executableTarget(
      name: "notif-expire", dependencies: ["NotifModel", "NotifCLI", "NotifJSON", "NotifSweep"]),
    .executableTarget(
      name: "notif-mark", dependencies: ["NotifModel", "NotifCLI", "NotifJSON", "NotifSweep"]),
    .executableTarget(
      name: "notif-responses",
      dependencies: ["NotifModel", "NotifCLI", "NotifJSON", "NotifPush", "NotifSweep"]),
    .executableTarget(
      name: "notif-show",
      dependencies: [
        "NotifModel", "NotifCLI", "NotifJSON", "NotifListing", "NotifText", "NotifCategories",
        "NotifLocalization",
      ]),
    .executableTarget(
      name: "notif-digest",
      dependencies: [
        "NotifModel", "NotifCLI", "NotifJSON", "NotifCategories", "NotifListing",
        "NotifLocalization",
        "NotifSweep",
      ]),
    // Helpers the test targets share (scratch files, captured output, parsed views).
    .target(name: "TestSupport", dependencies: ["NotifJSON"], path: "Tests/TestSupport"),
    .testTarget(
      name: "NotifJSONTests", dependencies: ["NotifJSON", "NotifModel", "TestSupport"]),
    .testTarget(name: "NotifModelTests", dependencies: ["NotifModel", "NotifJSON", "TestSupport"]),
    .testTarget(
      name: "NotifCLITests", dependencies: ["NotifCLI", "NotifModel", "NotifJSON", "TestSupport"]),
    .testTarget(
      name: "NotifSweepTests",
      dependencies: ["NotifSweep", "NotifModel", "NotifCLI", "NotifJSON", "TestSupport"]),
    .testTarget(name: "NotifTextTests", dependencies: ["NotifText"]),
    .testTarget(
      name: "NotifListingTests",
      dependencies: ["NotifListing", "NotifModel", "NotifCLI", "NotifJSON", "TestSupport"]),
    .testTarget(
      name: "NotifCategoriesTests",
      dependencies: ["NotifCategories", "NotifModel", "TestSupport"]),
    .testTarget(
      name: "NotifPushTests",
      dependencies: ["NotifPush", "NotifModel", "NotifJSON", "TestSupport"]),
    .testTarget(
      name: "NotifParseTests",
      dependencies: [
        "notif-parse", "NotifPush", "NotifModel", "NotifCLI", "NotifJSON", "NotifCategories",
        "NotifSweep",
        "TestSupport",
      ]),
    .testTarget(
      name: "NotifGroupTests",
      dependencies: [
        "notif-group", "NotifModel", "NotifCLI", "NotifJSON", "NotifListing", "CNotifSystem",
        "TestSupport",
      ]),
    .testTarget(
      name: "NotifLocalizationTests",
      dependencies: [
        "NotifLocalization", "NotifModel", "NotifCLI", "NotifCategories", "TestSupport",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "NotifSummarizeTests",
      dependencies: [
        "notif-summarize", "NotifModel", "NotifCLI", "NotifJSON", "NotifCategories", "NotifListing",
        "NotifLocalization", "TestSupport",
      ]),
    .testTarget(
      name: "NotifExpireTests",
      dependencies: [
        "notif-expire", "NotifModel", "NotifCLI", "NotifJSON", "NotifSweep", "TestSupport",
      ]),
    .testTarget(
      name: "NotifMarkTests",
      dependencies: [
        "notif-mark", "NotifModel", "NotifCLI", "NotifJSON", "NotifSweep", "TestSupport",
      ]),
    .testTarget(
      name: "NotifResponsesTests",
      dependencies: ["notif-responses", "NotifModel", "NotifCLI", "NotifJSON", "TestSupport"]),
    .testTarget(
      name: "NotifShowTests",
      dependencies: [
        "notif-show", "NotifModel", "NotifCLI", "NotifJSON", "NotifListing", "NotifText",
        "TestSupport",
      ]),
    .testTarget(
      name: "NotifDigestTests",
      dependencies: [
        "notif-digest", "NotifModel", "NotifCLI", "NotifJSON", "NotifSweep", "NotifLocalization",
        "NotifListing",
        "TestSupport",
      ]),
    .testTarget(
      name: "EndToEndTests", dependencies: ["NotifModel", "NotifCLI", "NotifJSON", "TestSupport"],
      exclude: ["cases", "Fixtures", "VendorCorpus.tsv"]),
  ]
)
