import Foundation
import ReckonGooglePlay
import ReckonSupport

/// A Google Play review read from a file for `reckon eval`: the decoded developer notification
/// (`{"packageName": …, "pendingRefundReviewNotification": {…}}`) or a whole Pub/Sub push body.
public enum GooglePlayRequestFile {
  /// The review in the file at `path`, received at `now` (default: its `eventTimeMillis`); nil
  /// when the file is not a Google Play notification at all (an App Store request, say), and
  /// `RequestFile.Failure.malformed` when it is one that cannot be read or is no review.
  public static func load(path: String, now: Date?) throws(RequestFile.Failure)
    -> GooglePlayReviewRequest?
  {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.data(at: path) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    guard let members = (try? JSONValue.parse(data))?.objectValue else { return nil }
    let notificationData: Data
    if members["packageName"] != nil {
      notificationData = data
    } else if members["message"] != nil, members["subscription"] != nil {
      do throws(GooglePlayPayloadError) { notificationData = try PubSubPush(body: data).data } catch
      {
        throw .malformed(path: path, reason: error.description)
      }
    } else {
      return nil
    }
    let notification: DeveloperNotification
    do throws(GooglePlayPayloadError) {
      notification = try DeveloperNotification(data: notificationData)
    } catch {
      throw .malformed(path: path, reason: error.description)
    }
    guard
      let request = GooglePlayReviewRequest(notification, receivedAt: now ?? notification.eventTime)
    else {
      throw .malformed(
        path: path,
        reason:
          "is a Google Play \(GooglePlayStore.notificationType(of: notification.kind)) notification, not a pending refund review"
      )
    }
    return request
  }
}
