import NIOSSL

/// The user's certificate and key for `--tls-cert` / `--tls-key`, read once at start.
enum TLSFiles {
    /// A server configuration from a PEM certificate chain and a PEM private key.
    static func configuration(certificate: String, key: String) throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
        let privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(privateKey))
        configuration.minimumTLSVersion = .tlsv12   // swift-nio-ssl's default still takes 1.0 and 1.1
        return configuration
    }
}
