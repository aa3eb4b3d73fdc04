// List continue tokens in Kubernetes' own format, so tokens look and fail the same way:
// base64url (no padding) of {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the
// resource prefix>\u0000"}. rv -1 marks an "inconsistent" token (continue at the newest revision),
// which a 410 Expired answer offers the client.

const TOKEN_VERSION = 'meta.k8s.io/v1';

export interface ContinuePosition {
  /** The snapshot revision of the list, or -1 for "continue at the newest revision". */
  revision: number;
  /** Continue strictly after this full storage key. */
  startAfter: string;
}

export class ContinueTokenError extends Error {
  constructor(detail: string) {
    super(`invalid continue token: continue key is not valid: ${detail}`);
    this.name = 'ContinueTokenError';
  }
}

/** The token for the page after `lastKey` (a full storage key under `keyPrefix`). */
export function encodeContinue(keyPrefix: string, lastKey: string, revision: number): string {
  const start = `${lastKey.startsWith(keyPrefix) ? lastKey.slice(keyPrefix.length) : lastKey}\u0000`;
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, rv: revision, start })).toString('base64url');
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Decodes a client's token for a list under `keyPrefix`; throws ContinueTokenError when it is not one of ours. */
export function decodeContinue(token: string, keyPrefix: string): ContinuePosition {
  const bad = BASE64URL.exec(token) ? -1 : [...token].findIndex((c) => !/[A-Za-z0-9_-]/.test(c));
  if (bad >= 0 || token.length % 4 === 1) {
    throw new ContinueTokenError(`illegal base64 data at input byte ${bad >= 0 ? bad : token.length - 1}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch (err) {
    throw new ContinueTokenError(err instanceof Error ? err.message : String(err));
  }
  if (typeof parsed !== 'object' || parsed === null) throw new ContinueTokenError('not an object');
  const { v, rv, start } = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  // Go unmarshals "v" into a string: another JSON type is an unmarshal error, null leaves it "".
  if (v !== null && v !== undefined && typeof v !== 'string') throw new ContinueTokenError(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field continueToken.v of type string`);
  if (v !== TOKEN_VERSION) throw new ContinueTokenError(`server does not recognize this encoded version ${v ?? ''}`);
  if (typeof rv !== 'number' || !Number.isInteger(rv) || rv === 0 || rv < -1) {
    throw new ContinueTokenError(`incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
  }
  if (typeof start !== 'string' || start.length === 0) throw new ContinueTokenError('encoded start key empty');
  // Refuse keys that would leave the resource's prefix (path traversal), as Kubernetes does.
  if (cleanPath(`/${start}`) !== `/${start}`) throw new ContinueTokenError(start);
  // The token's start is the last key of the previous page plus "\u0000": the next key after it.
  const startKey = keyPrefix + start;
  return { revision: rv, startAfter: startKey.endsWith('\u0000') ? startKey.slice(0, -1) : startKey };
}

/** How encoding/json names a JSON value's type in an unmarshal error. */
function goJsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

/** Go's path.Clean: the shortest equivalent slash-separated path. */
export function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(seg);
  }
  const joined = out.join('/');
  if (rooted) return `/${joined}`;
  return joined === '' ? '.' : joined;
}
