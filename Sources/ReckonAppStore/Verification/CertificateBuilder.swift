import COpenSSL
import Foundation

/// Issues X.509 certificates with OpenSSL, for the local test CA.
struct CertificateBuilder {
  var subject: String
  var key: PrivateKey
  var issuer: (name: String, key: PrivateKey)?
  var validity: ClosedRange<Date>
  var isAuthority: Bool
  var markerOIDs: [String]
  var serial: Int

  func build() throws(SigningError) -> X509Certificate {
    guard let certificate = X509_new() else { throw .generationFailed }
    // Wrapped only when complete: `X509Certificate` keeps its DER from the moment it is made.
    var finished = false
    defer { if !finished { X509_free(certificate) } }
    X509_set_version(certificate, 2)
    ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial)
    var notBefore = time_t(validity.lowerBound.timeIntervalSince1970)
    var notAfter = time_t(validity.upperBound.timeIntervalSince1970)
    X509_time_adj_ex(X509_getm_notBefore(certificate), 0, 0, &notBefore)
    X509_time_adj_ex(X509_getm_notAfter(certificate), 0, 0, &notAfter)
    X509_set_pubkey(certificate, key.key)
    try setName(subject, X509_get_subject_name(certificate))
    try setName(issuer?.name ?? subject, X509_get_issuer_name(certificate))
    try addExtension(
      NID_basic_constraints, isAuthority ? "critical,CA:TRUE" : "critical,CA:FALSE", certificate)
    try addExtension(
      NID_key_usage, isAuthority ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature",
      certificate)
    for oid in markerOIDs { try addMarker(oid, certificate) }
    guard X509_sign(certificate, (issuer?.key ?? key).key, EVP_sha256()) > 0 else {
      throw .signatureFailed(step: "X509_sign")
    }
    finished = true
    return X509Certificate(taking: certificate)
  }

  private func setName(_ commonName: String, _ name: OpaquePointer?) throws(SigningError) {
    guard let name, X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0) == 1
    else {
      throw .generationFailed
    }
  }

  private func addExtension(_ nid: Int32, _ value: String, _ certificate: OpaquePointer)
    throws(SigningError)
  {
    var context = X509V3_CTX()
    X509V3_set_ctx(&context, certificate, certificate, nil, nil, 0)
    guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else { throw .generationFailed }
    defer { X509_EXTENSION_free(ext) }
    guard X509_add_ext(certificate, ext, -1) == 1 else { throw .generationFailed }
  }

  /// Apple's marker extensions hold an ASN.1 NULL.
  private func addMarker(_ oid: String, _ certificate: OpaquePointer) throws(SigningError) {
    guard let object = OBJ_txt2obj(oid, 1), let value = ASN1_OCTET_STRING_new() else {
      throw .generationFailed
    }
    defer {
      ASN1_OBJECT_free(object)
      ASN1_OCTET_STRING_free(value)
    }
    let null: [UInt8] = [0x05, 0x00]
    guard ASN1_OCTET_STRING_set(value, null, 2) == 1,
      let ext = X509_EXTENSION_create_by_OBJ(nil, object, 0, value)
    else { throw .generationFailed }
    defer { X509_EXTENSION_free(ext) }
    guard X509_add_ext(certificate, ext, -1) == 1 else { throw .generationFailed }
  }
}
