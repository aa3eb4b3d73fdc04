// The IP and CIDR checks Kubernetes (1.32+) applies to new API fields
// (k8s.io/apimachinery/pkg/util/validation/ip.go IsValidIP / IsValidCIDR): stricter than the
// legacy checks of names.ts — no leading zeros, no IPv4-mapped IPv6, no zones, CIDRs without host
// bits — and the canonical text of an address, as Go's netip prints it.
import { fieldError, type FieldError } from './field-errors.js';
import { parseIP } from './names.js';

/** netip.Addr.String(): dotted decimal, or RFC 5952 IPv6 (lower case, the longest zero run as ::). */
export function canonicalIP(bytes: readonly number[]): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  if (isIPv4Mapped(bytes)) return `::ffff:${bytes.slice(12).join('.')}`;
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (best < 0) return hex(groups);
  return `${hex(groups.slice(0, best))}::${hex(groups.slice(best + bestLen))}`;
}

function isIPv4Mapped(bytes: readonly number[]): boolean {
  return bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/** What netip.ParseAddr accepts: leading zeros refused; a zone is split off. */
function parseStrict(value: string): { bytes: number[]; zone: string } | undefined {
  const pct = value.indexOf('%');
  const addr = pct >= 0 ? value.slice(0, pct) : value;
  const zone = pct >= 0 ? value.slice(pct + 1) : '';
  if (pct >= 0 && (!addr.includes(':') || zone === '')) return undefined;
  const bytes = parseIP(addr, false);
  return bytes ? { bytes, zone } : undefined;
}

function parsePrefix(value: string): { bytes: number[]; bits: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(value.slice(0, slash), false);
  const len = value.slice(slash + 1);
  if (!ip || !/^(0|[1-9]\d{0,2})$/.test(len) || Number(len) > ip.length * 8) return undefined;
  return { bytes: ip, bits: Number(len) };
}

function sloppyCIDR(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const ip = parseIP(value.slice(0, slash), true);
  const len = value.slice(slash + 1);
  return ip !== undefined && /^\d+$/.test(len) && Number(len) <= ip.length * 8;
}

/** IsValidIP for new fields: the address must also be written in canonical form. */
export function validateIPStrict(path: string, value: string): FieldError[] {
  if (value === '') return [fieldError.required(path, 'expected an IP address')];
  const parsed = parseStrict(value);
  if (!parsed) {
    if (parseIP(value, true)) return [fieldError.invalid(path, value, 'IP address cannot have leading 0s')];
    if (parsePrefix(value)) return [fieldError.invalid(path, value, 'expected an IP address (e.g. 10.9.8.7 or 2001:db8::ffff), got CIDR value')];
    return [fieldError.invalid(path, value, 'must be a valid IP address (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  }
  const errs: FieldError[] = [];
  if (parsed.zone !== '') errs.push(fieldError.invalid(path, value, 'IP address with zone specifier is not allowed'));
  if (isIPv4Mapped(parsed.bytes)) errs.push(fieldError.invalid(path, value, 'IPv4-mapped IPv6 address is not allowed'));
  if (errs.length > 0) return errs;
  const canonical = canonicalIP(parsed.bytes);
  if (value !== canonical) errs.push(fieldError.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`));
  return errs;
}

/** IsValidCIDR for new fields. */
export function validateCIDRStrict(path: string, value: string): FieldError[] {
  if (value === '') return [fieldError.required(path, 'expected a CIDR value')];
  const prefix = parsePrefix(value);
  if (!prefix) {
    if (sloppyCIDR(value)) {
      const leadingZeroLength = value.includes('/0') && !value.endsWith('/0');
      return [fieldError.invalid(path, value, leadingZeroLength ? 'prefix length in CIDR cannot have leading 0s' : 'IP address in CIDR cannot have leading 0s')];
    }
    if (parseStrict(value)) return [fieldError.invalid(path, value, 'expected a valid CIDR value (e.g. 10.9.8.0/24 or 2001:db8::/64), got IP address')];
    return [fieldError.invalid(path, value, 'must be a valid CIDR value (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
  }
  if (isIPv4Mapped(prefix.bytes)) return [fieldError.invalid(path, value, 'CIDR containing IPv4-mapped IPv6 address is not allowed')];
  if (!prefixMasked(prefix.bytes, prefix.bits)) return [fieldError.invalid(path, value, 'CIDR value should not have any bits set beyond the prefix length')];
  return [];
}

function prefixMasked(bytes: readonly number[], bits: number): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    const mask = keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff;
    if ((bytes[i]! & ~mask & 0xff) !== 0) return false;
  }
  return true;
}

/** The IP family of a CIDR string (netutils.IPFamilyOfCIDRString): '4', '6' or '' when it does not parse. */
export function cidrFamily(value: string): '4' | '6' | '' {
  const slash = value.indexOf('/');
  if (slash < 0 || !sloppyCIDR(value)) return '';
  return parseIP(value.slice(0, slash), true)!.length === 4 ? '4' : '6';
}
