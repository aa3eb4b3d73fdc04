// The IP and CIDR checks Kubernetes 1.33 applies to new API fields
// (k8s.io/apimachinery/pkg/util/validation/ip.go IsValidIP / IsValidCIDR): stricter than the
// legacy checks of names.ts — no leading zeros, no IPv4-mapped IPv6, CIDRs without host bits —
// and only the canonical text of a value, as Go prints it.
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

function parsePrefix(value: string, sloppy: boolean): { bytes: number[]; bits: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(value.slice(0, slash), sloppy);
  const len = value.slice(slash + 1);
  if (!ip || !(sloppy ? /^\d+$/ : /^(0|[1-9]\d{0,2})$/).test(len) || Number(len) > ip.length * 8) return undefined;
  return { bytes: ip, bits: Number(len) };
}

/**
 * IsValidIP for new fields (1.33, with the strict checks of KEP-4858): what the legacy sloppy
 * parse refuses first, then leading zeros and IPv4-mapped IPv6, then anything not canonical.
 */
export function validateIPStrict(path: string, value: string): FieldError[] {
  if (!parseIP(value, true)) return [fieldError.invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const strict = parseIP(value, false);
  if (!strict) return [fieldError.invalid(path, value, 'must not have leading 0s')];
  if (isIPv4Mapped(strict)) return [fieldError.invalid(path, value, 'must not be an IPv4-mapped IPv6 address')];
  const canonical = canonicalIP(strict);
  return value === canonical ? [] : [fieldError.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}

/** IsValidCIDR for new fields (1.33): a subnet, written strictly and canonically. */
export function validateCIDRStrict(path: string, value: string): FieldError[] {
  if (!parsePrefix(value, true)) return [fieldError.invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
  const prefix = parsePrefix(value, false);
  if (!prefix) return [fieldError.invalid(path, value, 'must not have leading 0s in IP or prefix length')];
  if (isIPv4Mapped(prefix.bytes)) return [fieldError.invalid(path, value, 'must not have an IPv4-mapped IPv6 address')];
  if (!prefixMasked(prefix.bytes, prefix.bits)) return [fieldError.invalid(path, value, 'must not have bits set beyond the prefix length')];
  const canonical = `${canonicalIP(prefix.bytes)}/${prefix.bits}`;
  return value === canonical ? [] : [fieldError.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
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
  const prefix = parsePrefix(value, true);
  if (!prefix) return '';
  return prefix.bytes.length === 4 ? '4' : '6';
}

/**
 * GetWarningsForCIDR: the warnings for a legacy CIDR field whose value the sloppy parse accepts
 * but is ambiguous (host bits set), non-standard (leading zeros, IPv4-mapped) or, for IPv6, not
 * in RFC 5952 form.
 */
export function cidrWarnings(path: string, value: string): string[] {
  const sloppy = parsePrefix(value, true);
  if (!sloppy) return [];
  // Go's ParseCIDR turns an IPv4-mapped prefix into the IPv4 one it covers.
  const mapped = isIPv4Mapped(sloppy.bytes) && sloppy.bits >= 96;
  const bytes = mapped ? sloppy.bytes.slice(12) : sloppy.bytes;
  const bits = mapped ? sloppy.bits - 96 : sloppy.bits;
  const masked = bytes.map((b, i) => b & ((0xff << (8 - Math.max(0, Math.min(8, bits - i * 8)))) & 0xff));
  const net = `${canonicalIP(masked)}/${bits}`;
  const warnings: string[] = [];
  if (!prefixMasked(bytes, bits)) warnings.push(`${path}: CIDR value ${JSON.stringify(value)} is ambiguous in this context (should be ${JSON.stringify(net)} or ${JSON.stringify(`${canonicalIP(bytes)}/${bytes.length * 8}`)}?)`);
  const strict = parsePrefix(value, false);
  if (!strict || isIPv4Mapped(strict.bytes)) warnings.push(`${path}: non-standard CIDR value ${JSON.stringify(value)} will be considered invalid in a future Kubernetes release: use ${JSON.stringify(net)}`);
  if (warnings.length === 0 && strict && strict.bytes.length === 16) {
    const canonical = `${canonicalIP(strict.bytes)}/${strict.bits}`;
    if (canonical !== value) warnings.push(`${path}: IPv6 CIDR value ${JSON.stringify(value)} should be in RFC 5952 canonical format (${JSON.stringify(canonical)})`);
  }
  return warnings;
}
