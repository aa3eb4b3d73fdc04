// k8s.io/apiserver pkg/cel/library/ip.go and cidr.go: ip(), isIP(), cidr(), isCIDR() and the
// methods of IP and CIDR values, with netip's strict parsing (no leading zeros, no zones, no
// IPv4-mapped IPv6) and its canonical text.
import { parseIP } from '../../validation/names.js';
import { canonicalIP } from '../../validation/ip-strict.js';
import { OpaqueValue } from './opaque.js';
import { fn, method, type K8sOverload } from './types.js';

class IPValue extends OpaqueValue {
  readonly typeName = 'net.IP';
  constructor(readonly bytes: number[]) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof IPValue && other.bytes.length === this.bytes.length && other.bytes.every((b, i) => b === this.bytes[i]);
  }
  override toString(): string {
    return canonicalIP(this.bytes);
  }
}

class CIDRValue extends OpaqueValue {
  readonly typeName = 'net.CIDR';
  constructor(readonly ip: IPValue, readonly bits: number) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof CIDRValue && other.bits === this.bits && other.ip.equals(this.ip);
  }
  override toString(): string {
    return `${this.ip}/${this.bits}`;
  }
  masked(): CIDRValue {
    return new CIDRValue(new IPValue(mask(this.ip.bytes, this.bits)), this.bits);
  }
  contains(ip: IPValue): boolean {
    return ip.bytes.length === this.ip.bytes.length && mask(ip.bytes, this.bits).every((b, i) => b === mask(this.ip.bytes, this.bits)[i]);
  }
}

function mask(bytes: number[], bits: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

const isMapped = (b: number[]) => b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

function parseAddr(raw: string): IPValue | string {
  if (raw.includes('%')) return `IP address ${JSON.stringify(raw)} with zone value is not allowed`;
  const b = parseIP(raw, false);
  if (!b) return `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${JSON.stringify(raw)}): unable to parse IP`;
  if (isMapped(b)) return `IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`;
  return new IPValue(b);
}

function parseCIDR(raw: string): CIDRValue | string {
  const slash = raw.indexOf('/');
  const err = `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(raw)}): `;
  if (slash < 0) return `${err}no '/'`;
  const b = parseIP(raw.slice(0, slash), false);
  if (!b || raw.slice(0, slash).includes('%')) return `${err}ParseAddr(${JSON.stringify(raw.slice(0, slash))}): unable to parse IP`;
  const len = raw.slice(slash + 1);
  if (!/^(0|[1-9]\d*)$/.test(len) || Number(len) > b.length * 8) return `${err}bad bits after slash: ${JSON.stringify(len)}`;
  if (isMapped(b)) return `IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`;
  return new CIDRValue(new IPValue(b), Number(len));
}

const orThrow = <T>(v: T | string): T => {
  if (typeof v === 'string') throw new Error(v);
  return v;
};
const ip = (t: unknown, f: (x: IPValue) => unknown) => (t instanceof IPValue ? f(t) : undefined);
const cidr = (t: unknown, f: (x: CIDRValue) => unknown) => (t instanceof CIDRValue ? f(t) : undefined);
const v4 = (b: number[]) => b.length === 4;

export const ipLibrary: K8sOverload[] = [
  fn('ip', ([s]) => (typeof s === 'string' ? orThrow(parseAddr(s)) : undefined)),
  fn('isIP', ([s]) => (typeof s === 'string' ? typeof parseAddr(s) !== 'string' : undefined)),
  fn('ip.isCanonical', ([s]) => (typeof s === 'string' ? orThrow(parseAddr(s)).toString() === s : undefined)),
  fn('string', ([v]) => (v instanceof IPValue || v instanceof CIDRValue ? v.toString() : undefined)),
  method('family', (t) => ip(t, (x) => (v4(x.bytes) ? 4n : 6n))),
  method('isUnspecified', (t) => ip(t, (x) => x.bytes.every((b) => b === 0))),
  method('isLoopback', (t) => ip(t, (x) => (v4(x.bytes) ? x.bytes[0] === 127 : x.bytes.slice(0, 15).every((b) => b === 0) && x.bytes[15] === 1))),
  method('isLinkLocalMulticast', (t) => ip(t, (x) => (v4(x.bytes) ? x.bytes[0] === 224 && x.bytes[1] === 0 && x.bytes[2] === 0 : x.bytes[0] === 0xff && (x.bytes[1]! & 0x0f) === 0x02))),
  method('isLinkLocalUnicast', (t) => ip(t, (x) => (v4(x.bytes) ? x.bytes[0] === 169 && x.bytes[1] === 254 : x.bytes[0] === 0xfe && (x.bytes[1]! & 0xc0) === 0x80))),
  method('isGlobalUnicast', (t) => ip(t, (x) => {
    const b = x.bytes;
    if (v4(b)) return !(b.every((y) => y === 0) || b.every((y) => y === 255) || b[0] === 127 || b[0]! >= 224 || (b[0] === 169 && b[1] === 254));
    return !(b.every((y) => y === 0) || (b.slice(0, 15).every((y) => y === 0) && b[15] === 1) || b[0] === 0xff || (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80));
  })),
  fn('cidr', ([s]) => (typeof s === 'string' ? orThrow(parseCIDR(s)) : undefined)),
  fn('isCIDR', ([s]) => (typeof s === 'string' ? typeof parseCIDR(s) !== 'string' : undefined)),
  method('containsIP', (t, [o]) => cidr(t, (c) => (o instanceof IPValue ? c.contains(o) : typeof o === 'string' ? c.contains(orThrow(parseAddr(o))) : undefined))),
  method('containsCIDR', (t, [o]) => cidr(t, (c) => {
    const other = o instanceof CIDRValue ? o : typeof o === 'string' ? orThrow(parseCIDR(o)) : undefined;
    return other && other.bits >= c.bits && c.contains(other.ip);
  })),
  method('ip', (t) => cidr(t, (c) => c.ip)),
  method('masked', (t) => cidr(t, (c) => c.masked())),
  method('prefixLength', (t) => cidr(t, (c) => BigInt(c.bits))),
];
