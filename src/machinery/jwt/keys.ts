// Service account signing and verification keys, read as kube-apiserver and kube-controller-manager
// read them: PEM files holding RSA or ECDSA keys (PKCS#1, SEC1, PKCS#8 private keys; PKIX or PKCS#1
// public keys; certificates, whose public key is used). Each key knows its JWS algorithm and its
// `kid` (Kubernetes: base64url of the SHA-256 of the public key's PKIX DER).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export type JwsAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  alg: JwsAlgorithm;
  kid: string;
}

export interface VerificationKey {
  publicKey: KeyObject;
  alg: JwsAlgorithm;
  kid: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The JWS algorithm Kubernetes signs with for a key (RSA: RS256; ECDSA: by curve). */
export function algorithmOf(key: KeyObject): JwsAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1' || curve === 'P-256') return 'ES256';
    if (curve === 'secp384r1' || curve === 'P-384') return 'ES384';
    if (curve === 'secp521r1' || curve === 'P-521') return 'ES512';
    throw new Error(`unsupported ECDSA curve ${String(curve)}`);
  }
  throw new Error(`unsupported key type ${String(key.asymmetricKeyType)} (want RSA or ECDSA)`);
}

/** Kubernetes' keyIDFromPublicKey: base64url(sha256(PKIX DER)). */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

function pemBlocks(text: string, source: string): Array<{ type: string; pem: string }> {
  const blocks = [...text.matchAll(PEM_BLOCK)].map((m) => ({ type: m[1]!, pem: m[0] }));
  if (blocks.length === 0) throw new Error(`${source}: no PEM block found`);
  return blocks;
}

/** The first private key of a PEM file (Kubernetes' keyutil.PrivateKeyFromFile). */
export function parseSigningKey(text: string, source = 'key'): SigningKey {
  for (const block of pemBlocks(text, source)) {
    if (!block.type.endsWith('PRIVATE KEY')) continue;
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey(block.pem);
    } catch (err) {
      throw new Error(`${source}: ${block.type}: ${(err as Error).message}`);
    }
    const publicKey = createPublicKey(privateKey);
    return { privateKey, publicKey, alg: algorithmOf(privateKey), kid: keyIdOf(publicKey) };
  }
  throw new Error(`${source}: no private key found`);
}

/** Every public key of a PEM file: private keys' public halves, public keys, certificates' keys. */
export function parseVerificationKeys(text: string, source = 'key file'): VerificationKey[] {
  const keys: VerificationKey[] = [];
  for (const block of pemBlocks(text, source)) {
    let publicKey: KeyObject;
    try {
      if (block.type.endsWith('PRIVATE KEY')) publicKey = createPublicKey(createPrivateKey(block.pem));
      else if (block.type === 'CERTIFICATE') publicKey = new X509Certificate(block.pem).publicKey;
      else if (block.type.endsWith('PUBLIC KEY')) publicKey = createPublicKey(block.pem);
      else continue;
    } catch (err) {
      throw new Error(`${source}: ${block.type}: ${(err as Error).message}`);
    }
    keys.push({ publicKey, alg: algorithmOf(publicKey), kid: keyIdOf(publicKey) });
  }
  if (keys.length === 0) throw new Error(`${source}: no public or private key found`);
  return keys;
}

export function readSigningKey(path: string): SigningKey {
  return parseSigningKey(readFileSync(path, 'utf8'), path);
}

export function readVerificationKeys(path: string): VerificationKey[] {
  return parseVerificationKeys(readFileSync(path, 'utf8'), path);
}

/** A new ECDSA P-256 key as a PKCS#8 PEM (what `kubelite apiserver` creates when given no key). */
export function generateSigningKeyPem(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

/**
 * The key at `path`, created (0600, with its public half beside it as `<name>.pub`) when the file
 * does not exist yet, reused afterwards.
 */
export function ensureSigningKey(path: string, publicPath?: string): SigningKey {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const pem = generateSigningKeyPem();
    try {
      writeFileSync(path, pem, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process made it meanwhile: use theirs.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readSigningKey(path);
      throw err;
    }
    chmodSync(path, 0o600);
    const key = parseSigningKey(pem, path);
    if (publicPath !== undefined) writeFileSync(publicPath, key.publicKey.export({ type: 'spki', format: 'pem' }).toString(), { mode: 0o644 });
    return key;
  }
  return readSigningKey(path);
}
