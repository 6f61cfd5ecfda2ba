// swift-tools-version:6.0
import PackageDescription

// An outline of notes with expansion, reorder, delete, undo (Edit menu, ⌘Z, shake) and a journal
// on disk. NotesCore is everything but the views and is tested on any platform; OutlineNotes is
// the SwiftUI app (run it from Xcode: open this Package.swift, pick the OutlineNotes scheme).
let package = Package(
  name: "OutlineNotes",
  platforms: [.macOS(.v14), .iOS(.v17)],
  // NotesCore is a product so that an iOS app project can link it (README).
  products: [
    .library(name: "NotesCore", targets: ["NotesCore"]),
    .executable(name: "OutlineNotes", targets: ["OutlineNotes"]),
  ],
  dependencies: [.package(name: "ListJournal", path: "../..")],
  targets: [
    .target(
      name: "NotesCore",
      dependencies: [
        .product(name: "ListJournal", package: "ListJournal"), .product(name: "ListPresenter", package: "ListJournal"),
      ]),
    .executableTarget(
      name: "OutlineNotes",
      dependencies: ["NotesCore", .product(name: "ListPresenter", package: "ListJournal")]),
    .testTarget(
      name: "NotesCoreTests",
      dependencies: [
        "NotesCore", .product(name: "ListJournal", package: "ListJournal"),
        .product(name: "ListPresenter", package: "ListJournal"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
