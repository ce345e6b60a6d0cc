import Foundation
import ReckonSupport

/// One Cloud Pub/Sub push request: the message Google Play published, and the subscription that
/// pushed it.
public struct PubSubPush: Hashable, Sendable {
  /// The message's id, unique per topic: what a redelivery repeats.
  public let messageId: String
  /// When Pub/Sub received the message, as the push writes it (RFC 3339), if given.
  public let publishTime: String?
  /// The message's attributes.
  public let attributes: [String: String]
  /// The message's payload, decoded from base64.
  public let data: Data
  /// The full name of the subscription (`projects/P/subscriptions/S`).
  public let subscription: String

  /// Creates a push.
  public init(
    messageId: String, publishTime: String? = nil, attributes: [String: String] = [:], data: Data,
    subscription: String
  ) {
    self.messageId = messageId
    self.publishTime = publishTime
    self.attributes = attributes
    self.data = data
    self.subscription = subscription
  }

  /// Reads a push request's body.
  public init(body: Data) throws(GooglePlayPayloadError) {
    let root: JSONValue
    do throws(JSONParseError) { root = try JSONValue.parse(body) } catch {
      throw .notAPush(error.description)
    }
    guard let members = root.objectValue, let message = members["message"]?.objectValue else {
      throw .notAPush("no \"message\" object")
    }
    guard case .string(let subscription)? = members["subscription"] else {
      throw .notAPush("no \"subscription\" string")
    }
    // Pub/Sub writes both spellings of the message id; either names the message.
    guard let messageId = (message["messageId"] ?? message["message_id"])?.stringValue,
      !messageId.isEmpty
    else { throw .notAPush("the message has no messageId") }
    guard case .string(let encoded)? = message["data"], let data = Data(base64Encoded: encoded)
    else { throw .undecodableData("\"data\" is not base64") }
    var attributes: [String: String] = [:]
    for (name, value) in message["attributes"]?.objectValue ?? [:] {
      if case .string(let text) = value { attributes[name] = text }
    }
    self.init(
      messageId: messageId,
      publishTime: (message["publishTime"] ?? message["publish_time"])?.stringValue,
      attributes: attributes, data: data, subscription: subscription)
  }

  /// The push as Pub/Sub would send it, for a stand-in and tests.
  public func body() -> Data {
    var message: [String: JSONValue] = [
      "data": .string(data.base64EncodedString()), "messageId": .string(messageId),
    ]
    if let publishTime { message["publishTime"] = .string(publishTime) }
    if !attributes.isEmpty {
      message["attributes"] = .object(attributes.mapValues(JSONValue.string))
    }
    return GooglePlayJSON.encode(
      JSONValue.object(["message": .object(message), "subscription": .string(subscription)]))
  }
}
