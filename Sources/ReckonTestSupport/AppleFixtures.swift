import Foundation

/// Apple's test vectors (MIT, with their licence beside them), kept once in Tests/Fixtures/apple
/// for every test target and benchmark that needs them.
public enum AppleFixtures {
  /// The folder that holds them, found from this file's place in the repository.
  public static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tests/Fixtures/apple")

  /// The file called `name`.
  public static func url(_ name: String) -> URL {
    folder.appendingPathComponent(name)
  }

  /// The bytes of the file called `name`.
  public static func data(_ name: String) throws -> Data {
    try Data(contentsOf: url(name))
  }
}
