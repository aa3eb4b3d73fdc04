// The API server's identity as kube-apiserver derives it: `apiserver-` and the lower-case base32
// (no padding) of the first 16 bytes of SHA-256 over two uint16-length-prefixed strings, the
// host name and "kube-apiserver" (genericapiserver.NewConfig). Its Lease in kube-system carries
// that name; the holder identity adds a UUID per process start.
import { createHash } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32NoPadding(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(bytes.length);
  return Buffer.concat([prefix, bytes]);
}

export function apiserverIdentity(hostname: string): string {
  const hash = createHash('sha256').update(Buffer.concat([lengthPrefixed(hostname), lengthPrefixed('kube-apiserver')])).digest();
  return `apiserver-${base32NoPadding(hash.subarray(0, 16))}`;
}

/**
 * The host name hashed into the identity. Several kubelite API servers on one host (kubelite up
 * --apiservers N) advertise distinct loopback addresses; each adds its address so that each keeps
 * its own Lease. A server advertising the default 127.0.0.1 (or nothing) hashes the host name
 * alone, as kube-apiserver does.
 */
export function identityHostname(hostname: string, advertiseAddress: string | undefined): string {
  return advertiseAddress === undefined || advertiseAddress === '127.0.0.1' ? hostname : `${hostname}/${advertiseAddress}`;
}
