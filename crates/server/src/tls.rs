//! Serving over TLS (rustls): seat tokens travel in WebSocket URLs, so a server other machines
//! reach must be reached over `https://` and `wss://`.

use std::path::Path;
use std::sync::Arc;

use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject as _;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// The TLS settings of a server: a certificate chain and its private key, both PEM files (as
/// Let's Encrypt and most tools write them: `fullchain.pem`, `privkey.pem`).
///
/// # Errors
/// A message in words naming the file when a file cannot be read, holds no certificate or no
/// key, or the key does not go with the certificate.
pub fn config(certificate: &Path, key: &Path) -> Result<Arc<ServerConfig>, String> {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(certificate)
        .map_err(|e| format!("cannot read the certificate {}: {e}", certificate.display()))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot read the certificate {}: {e}", certificate.display()))?;
    if chain.is_empty() {
        return Err(format!(
            "{} holds no certificate (a PEM file with `BEGIN CERTIFICATE`)",
            certificate.display()
        ));
    }
    let key = PrivateKeyDer::from_pem_file(key)
        .map_err(|e| format!("cannot read the private key {}: {e}", key.display()))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| format!("the private key does not go with the certificate: {e}"))?;
    Ok(Arc::new(config))
}
