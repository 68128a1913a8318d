import NIOSSL

/// The user's certificate and key for `--tls-cert` / `--tls-key`, read once at start.
enum TLSFiles {
    /// A server configuration from a PEM certificate chain and a PEM private key.
    static func configuration(certificate: String, key: String) throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
        let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        return TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
    }
}
