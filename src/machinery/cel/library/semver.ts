// k8s.io/apiserver pkg/cel/library/semverlib.go (SemverVersion 1, new in 1.33): semver(),
// isSemver() with optional normalization, and the comparisons of blang/semver versions.
import { OpaqueValue } from './opaque.js';
import { fn, method, type K8sOverload } from './types.js';

class Semver extends OpaqueValue {
  readonly typeName = 'kubernetes.Semver';
  constructor(readonly major: bigint, readonly minor: bigint, readonly patch: bigint, readonly pre: string[]) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof Semver && compare(this, other) === 0;
  }
}

const NUM = /^(0|[1-9]\d*)$/;

/** blang/semver Parse; the error texts are blang's. */
function parse(s: string): Semver | string {
  if (s.length === 0) return 'Version string empty';
  const parts = s.split('.');
  if (parts.length < 3) return 'No Major.Minor.Patch elements found';
  const rest = parts.slice(2).join('.');
  const cut = rest.search(/[+-]/);
  const patchStr = cut < 0 ? rest : rest.slice(0, cut);
  const nums: bigint[] = [];
  for (const [name, p] of [['major', parts[0]!], ['minor', parts[1]!], ['patch', patchStr]] as const) {
    if (!/^\d+$/.test(p)) return `Invalid character(s) found in ${name} number ${JSON.stringify(p)}`;
    if (!NUM.test(p)) return `${name[0]!.toUpperCase()}${name.slice(1)} number must not contain leading zeroes ${JSON.stringify(p)}`;
    nums.push(BigInt(p));
  }
  let tail = cut < 0 ? '' : rest.slice(cut);
  const plus = tail.indexOf('+');
  const build = plus >= 0 ? tail.slice(plus + 1) : undefined;
  if (plus >= 0) tail = tail.slice(0, plus);
  const pre = tail.startsWith('-') ? tail.slice(1).split('.') : [];
  for (const p of pre) {
    if (p === '') return 'Prerelease is empty';
    if (!/^[0-9A-Za-z-]+$/.test(p)) return `Invalid character(s) found in prerelease ${JSON.stringify(p)}`;
    if (/^\d+$/.test(p) && !NUM.test(p)) return `Numeric PreRelease version must not contain leading zeroes ${JSON.stringify(p)}`;
  }
  if (build !== undefined) for (const b of build.split('.')) if (!/^[0-9A-Za-z-]+$/.test(b)) return `Invalid character(s) found in build meta data ${JSON.stringify(b)}`;
  return new Semver(nums[0]!, nums[1]!, nums[2]!, pre);
}

/** semverlib normalizeAndParse: no leading "v", no leading zeros, missing minor/patch as 0. */
function normalizeAndParse(s: string): Semver | string {
  const parts = s.replace(/^v/, '').split('.');
  const head = parts.slice(0, 2);
  const tail = parts.slice(2).join('.');
  const all = parts.length > 2 ? [...head, tail] : head;
  const fixed = all.map((p) => {
    if (p.length <= 1) return p;
    let q = p.replace(/^0+/, '');
    if (q.length === 0 || !/[0-9]/.test(q[0]!)) q = `0${q}`;
    return q;
  });
  if (fixed.length < 3) {
    if (/[+-]/.test(fixed[fixed.length - 1]!)) return 'short version cannot contain PreRelease/Build meta data';
    while (fixed.length < 3) fixed.push('0');
  }
  return parse(fixed.join('.'));
}

function cmpBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compare(a: Semver, b: Semver): number {
  const c = cmpBig(a.major, b.major) || cmpBig(a.minor, b.minor) || cmpBig(a.patch, b.patch);
  if (c !== 0) return c;
  if (a.pre.length === 0 && b.pre.length === 0) return 0;
  if (a.pre.length === 0) return 1;
  if (b.pre.length === 0) return -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const [x, y] = [a.pre[i]!, b.pre[i]!];
    const [xn, yn] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    const d = xn && yn ? cmpBig(BigInt(x), BigInt(y)) : xn ? -1 : yn ? 1 : x < y ? -1 : x > y ? 1 : 0;
    if (d !== 0) return d;
  }
  return cmpBig(BigInt(a.pre.length), BigInt(b.pre.length));
}

const parsed = (s: unknown, normalize: unknown): Semver | string | undefined => {
  if (typeof s !== 'string' || (normalize !== undefined && typeof normalize !== 'boolean')) return undefined;
  return normalize ? normalizeAndParse(s) : parse(s);
};
const sv = (t: unknown, f: (x: Semver) => unknown) => (t instanceof Semver ? f(t) : undefined);
const two = (t: unknown, o: unknown, f: (c: number) => unknown) => (t instanceof Semver && o instanceof Semver ? f(compare(t, o)) : undefined);

export const semverLibrary: K8sOverload[] = [
  fn('semver', ([s, n]) => {
    const v = parsed(s, n);
    if (typeof v === 'string') throw new Error(v);
    return v;
  }),
  fn('isSemver', ([s, n]) => { const v = parsed(s, n); return v === undefined ? undefined : typeof v !== 'string'; }),
  method('major', (t) => sv(t, (x) => x.major)),
  method('minor', (t) => sv(t, (x) => x.minor)),
  method('patch', (t) => sv(t, (x) => x.patch)),
  method('isGreaterThan', (t, [o]) => two(t, o, (c) => c > 0)),
  method('isLessThan', (t, [o]) => two(t, o, (c) => c < 0)),
  method('compareTo', (t, [o]) => two(t, o, (c) => BigInt(c))),
];
