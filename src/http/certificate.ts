// The TLS certificate: from TLS_CERT_FILE/TLS_KEY_FILE, or self-signed for localhost and 127.0.0.1,
// generated once into the data directory and reused on every later start.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface Certificate {
  cert: string;
  key: string;
  /** Where the certificate came from, for the start-up message. */
  source: string;
}

export async function loadCertificate(tls: { certFile?: string; keyFile?: string }, dataDir: string): Promise<Certificate> {
  if (tls.certFile && tls.keyFile) {
    const [cert, key] = await Promise.all([fs.readFile(tls.certFile, 'utf8'), fs.readFile(tls.keyFile, 'utf8')]);
    return { cert, key, source: tls.certFile };
  }
  const certFile = path.join(dataDir, 'tls-cert.pem');
  const keyFile = path.join(dataDir, 'tls-key.pem');
  try {
    const [cert, key] = await Promise.all([fs.readFile(certFile, 'utf8'), fs.readFile(keyFile, 'utf8')]);
    return { cert, key, source: certFile };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // Loaded only here: a start that finds its certificate never holds the library (≈ 2.4 MB of heap).
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 825 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(keyFile, pems.private, { mode: 0o600 });
  await fs.writeFile(certFile, pems.cert);
  return { cert: pems.cert, key: pems.private, source: `${certFile} (generated)` };
}
