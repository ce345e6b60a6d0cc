import ReckonAppStore

/// The App Store sender of a service configured to answer Google Play only: an App Store
/// reply queued there (by hand, or before `appStore` was removed) pauses its app with the
/// reason, rather than going anywhere.
struct UnconfiguredAppStoreSender: ConsumptionSender {
  func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp) async
    -> ConsumptionDelivery
  {
    .notSigned("appStore is not configured in reckon.json, so no App Store reply can be sent")
  }
}
