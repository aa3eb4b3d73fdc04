// k8s.io/apiserver pkg/cel/library/urls.go: url(), isURL() and the accessors of URL values, with
// Go's url.ParseRequestURI rules (an absolute URI or an absolute path; no fragment splitting).
import { celList, celMap } from '@bufbuild/cel';
import { OpaqueValue } from './opaque.js';
import { fn, method, type K8sOverload } from './types.js';

export interface ParsedURL { scheme: string; host: string; path: string; rawQuery: string; opaque: string }

/** Go's url.ParseRequestURI: the URL or its error text. */
export function parseRequestURI(s: string): ParsedURL | string {
  const bad = `parse ${JSON.stringify(s)}: invalid URI for request`;
  if (/[\x00-\x1f\x7f]/.test(s)) return `parse ${JSON.stringify(s)}: net/url: invalid control character in URL`;
  let rest = s;
  let rawQuery = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  let scheme = '';
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[^/]*:/.test(rest)) return `parse ${JSON.stringify(s)}: missing protocol scheme`;
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!scheme && !rest.startsWith('/')) return bad;
  if (scheme && !rest.startsWith('/')) return { scheme, host: '', path: '', rawQuery, opaque: rest };
  let host = '';
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? '' : rest.slice(end);
    const at = authority.lastIndexOf('@');
    host = at >= 0 ? authority.slice(at + 1) : authority;
    const port = /:(\d*)$/.exec(host.replace(/^\[[^\]]*\]/, ''));
    if (!port && /:[^\]]*$/.test(host.replace(/^\[[^\]]*\]/, ''))) return `parse ${JSON.stringify(s)}: invalid port ${JSON.stringify(host.slice(host.lastIndexOf(':')))} after host`;
  }
  return { scheme, host, path: rest, rawQuery, opaque: '' };
}

class URLValue extends OpaqueValue {
  readonly typeName = 'kubernetes.URL';
  constructor(readonly source: string, readonly u: ParsedURL) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof URLValue && other.source === this.source;
  }
  hostname(): string {
    const h = this.u.host;
    if (h.startsWith('[')) return h.slice(1, h.indexOf(']'));
    const c = h.lastIndexOf(':');
    return c >= 0 ? h.slice(0, c) : h;
  }
  port(): string {
    const h = this.u.host.replace(/^\[[^\]]*\]/, '');
    const c = h.lastIndexOf(':');
    return c >= 0 ? h.slice(c + 1) : '';
  }
}

function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Go's url.Values of the raw query: key → values in order; undecodable pairs are skipped. */
function query(raw: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const k = decode(eq >= 0 ? part.slice(0, eq) : part);
    const v = decode(eq >= 0 ? part.slice(eq + 1) : '');
    if (k === undefined || v === undefined) continue;
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

const u = (t: unknown, f: (x: URLValue) => unknown) => (t instanceof URLValue ? f(t) : undefined);

export const urlsLibrary: K8sOverload[] = [
  fn('url', ([s]) => {
    if (typeof s !== 'string') return undefined;
    const r = parseRequestURI(s);
    if (typeof r === 'string') throw new Error(`URL parse error during conversion from string: ${r}`);
    return new URLValue(s, r);
  }),
  fn('isURL', ([s]) => (typeof s === 'string' ? typeof parseRequestURI(s) !== 'string' : undefined)),
  method('getScheme', (t) => u(t, (x) => x.u.scheme)),
  method('getHost', (t) => u(t, (x) => x.u.host)),
  method('getHostname', (t) => u(t, (x) => x.hostname())),
  method('getPort', (t) => u(t, (x) => x.port())),
  method('getEscapedPath', (t) => u(t, (x) => x.u.path)),
  method('getQuery', (t) => u(t, (x) => celMap(new Map([...query(x.u.rawQuery)].map(([k, v]) => [k, celList(v)])) as never))),
];
