// YAML text of the `Any` values in gnostic's openapi.v2 protobuf (v2-protobuf.ts): a JSON value
// as gnostic's compiler.Marshal writes it, go-yaml v3 over a yaml.Node (styles cleared, 4-space
// indentation, sequence items aligned after "- ", no line folding, strings quoted only when they
// would read back as another type).
import { isYamlBreak, isYamlPrintable, scalarFacts } from '../codec/yaml-scalar.js';

type Obj = Record<string, unknown>;

const BEST_INDENT = 4;

/** Strings go-yaml v3 resolves to another tag when plain, so must be quoted. */
const V3_SPECIAL = new Set([
  '', '~', 'null', 'Null', 'NULL',
  'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
  '<<',
]);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's strconv.ParseInt(s, 0, 64) || ParseUint(s, 0, 64) succeeds (underscores already removed). */
function goParsesAsInt(s: string): boolean {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return false;
  let body = m[2]!;
  if (body.length > 1 && body[0] === '0' && /[0-7]/.test(body[1]!)) body = `0o${body.slice(1)}`;
  const mag = BigInt(body);
  if (m[1] === '-') return -mag >= INT64_MIN;
  if (mag <= INT64_MAX) return true;
  return m[1] === '' && mag <= UINT64_MAX;
}

/** go-yaml v3's timestamp formats (2006-1-2, with an optional time part). */
function isV3Timestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s);
  if (!m) return false;
  const [, y, mo, d, sep, h, mi, sec, zone] = m;
  if (sep !== undefined && (sep === ' ') === (zone !== undefined)) return false;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > days[month - 1]!) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59)) return false;
  return true;
}

/** Whether go-yaml v3's resolve("", s) gives anything but !!str. */
function resolvesAsNonString(s: string): boolean {
  if (V3_SPECIAL.has(s)) return true;
  const c = s.charAt(0);
  if (c === '.') return /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/.test(s) && Number.isFinite(Number(s));
  if (c !== '+' && c !== '-' && !(c >= '0' && c <= '9')) return false;
  if (isV3Timestamp(s)) return true;
  const plain = s.replace(/_/g, '');
  if (goParsesAsInt(plain)) return true;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(plain)) return Number.isFinite(Number(plain));
  return false;
}

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

/** libyaml's yaml_emitter_analyze_scalar as go-yaml v3 uses it: tabs rule out plain and single-quoted styles, not literal blocks. */
function analyze(s: string): Analysis {
  if (s === '') return { multiline: false, blockPlain: true, singleQuoted: true, block: false };
  const f = scalarFacts(s);
  const blockPlain = !(f.leadingSpace || f.leadingBreak || f.trailingSpace || f.trailingBreak || f.breakSpace || f.spaceBreak || f.tab || f.special || f.lineBreaks || f.blockIndicators);
  const singleQuoted = !(f.breakSpace || f.spaceBreak || f.tab || f.special);
  const block = !(f.trailingSpace || f.spaceBreak || f.special);
  return { multiline: f.lineBreaks, blockPlain, singleQuoted, block };
}

function escapeDouble(c: number): string {
  const named: Record<number, string> = {
    0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e',
    0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
  };
  const n = named[c];
  if (n !== undefined) return `\\${n}`;
  if (c <= 0xff) return `\\x${c.toString(16).toUpperCase().padStart(2, '0')}`;
  if (c <= 0xffff) return `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
  return `\\U${c.toString(16).toUpperCase().padStart(8, '0')}`;
}

class YamlV3 {
  out = '';
  column = 0;
  whitespace = true;
  indention = true;

  private put(s: string): void {
    this.out += s;
    this.column += [...s].length;
  }

  writeIndent(indent: number): void {
    const i = Math.max(indent, 0);
    if (!this.indention || this.column > i || (this.column === i && !this.whitespace)) {
      this.out += '\n';
      this.column = 0;
    }
    if (this.column < i) {
      this.out += ' '.repeat(i - this.column);
      this.column = i;
    }
    this.whitespace = true;
    this.indention = true;
  }

  indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** yaml_emitter_increase_indent as go-yaml v3 changed it. */
  static increase(indent: number, inSequenceItem: boolean, flow: boolean): number {
    if (indent < 0) return flow ? BEST_INDENT : 0;
    if (inSequenceItem) return indent + 2;
    return BEST_INDENT * Math.floor((indent + BEST_INDENT) / BEST_INDENT);
  }

  scalar(s: string, parentIndent: number, inSequenceItem: boolean, simpleKey: boolean): void {
    const a = analyze(s);
    let style: 'plain' | 'single' | 'double' | 'literal' = s.includes('\n') ? 'literal' : resolvesAsNonString(s) ? 'double' : 'plain';
    if (simpleKey && a.multiline) style = 'double';
    if (style === 'plain' && (!a.blockPlain || (s === '' && simpleKey))) style = 'single';
    if (style === 'single' && !a.singleQuoted) style = 'double';
    if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
    const indent = YamlV3.increase(parentIndent, inSequenceItem, true);
    switch (style) {
      case 'plain':
        if (!this.whitespace) this.put(' ');
        this.put(s);
        break;
      case 'single':
        this.indicator("'", true, false, false);
        this.put(s.replace(/'/g, "''"));
        this.indicator("'", false, false, false);
        break;
      case 'double': {
        this.indicator('"', true, false, false);
        let body = '';
        for (const ch of s) {
          const c = ch.codePointAt(0)!;
          body += !isYamlPrintable(c) || isYamlBreak(c) || ch === '"' || ch === '\\' ? escapeDouble(c) : ch;
        }
        this.put(body);
        this.indicator('"', false, false, false);
        break;
      }
      case 'literal': {
        this.indicator('|', true, false, false);
        const first = s.codePointAt(0)!;
        if (first === 0x20 || isYamlBreak(first)) this.indicator(String(BEST_INDENT), false, false, false);
        const last = s.charCodeAt(s.length - 1);
        if (!isYamlBreak(last)) this.indicator('-', false, false, false);
        else if (s.length === 1 || isYamlBreak(s.charCodeAt(s.length - 2))) this.indicator('+', false, false, false);
        this.out += '\n';
        this.column = 0;
        this.whitespace = true;
        this.indention = true;
        let breaks = true;
        for (const ch of s) {
          if (isYamlBreak(ch.codePointAt(0)!)) {
            this.out += '\n';
            this.column = 0;
            breaks = true;
          } else {
            if (breaks) {
              this.indention = true;
              this.writeIndent(indent);
            }
            this.put(ch);
            this.indention = false;
            breaks = false;
          }
        }
        break;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  node(v: unknown, parentIndent: number, inSequenceItem: boolean): void {
    if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'number') {
      // JSON numbers keep their JSON text (gnostic reads the document as YAML).
      const text = v === null || v === undefined ? 'null' : typeof v === 'number' ? JSON.stringify(v) ?? 'null' : String(v);
      if (!this.whitespace) this.put(' ');
      this.put(text);
      this.whitespace = false;
      this.indention = false;
      return;
    }
    if (typeof v === 'string') {
      this.scalar(v, parentIndent, inSequenceItem, false);
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) {
        this.indicator('[]', true, false, false);
        return;
      }
      const indent = YamlV3.increase(parentIndent, inSequenceItem, false);
      for (const item of v) {
        this.writeIndent(indent);
        this.indicator('-', true, false, true);
        this.node(item, indent, true);
      }
      return;
    }
    const entries = Object.entries(v as Obj).filter(([, x]) => x !== undefined);
    if (entries.length === 0) {
      this.indicator('{}', true, false, false);
      return;
    }
    const indent = YamlV3.increase(parentIndent, inSequenceItem, false);
    for (const [k, x] of entries) {
      this.writeIndent(indent);
      this.scalar(k, indent, false, true);
      this.indicator(':', false, false, false);
      this.node(x, indent, false);
    }
  }
}

/** A JSON value as go-yaml v3 marshals the yaml.Node gnostic parsed it into. */
export function goYamlV3(value: unknown): string {
  const e = new YamlV3();
  e.node(value, -1, false);
  if (e.column > 0 || !e.out.endsWith('\n')) e.out += '\n';
  return e.out;
}
