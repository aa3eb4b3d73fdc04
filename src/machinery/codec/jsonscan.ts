// JSON text scanners for the decoder.
// - countKeys: counts the keys of the text by jumping with indexOf from one `":` to the next.
//   Compared with the number of keys JSON.parse produced, it tells whether the text has duplicate
//   keys (JSON.parse silently keeps the last) without a full parse in JavaScript on the common path.
// - preciseScan: a complete JSON parser (validation only) that yields Go's encoding/json syntax
//   error messages, finds duplicate keys where Kubernetes reports them (struct fields and map keys,
//   following the schema), and records key positions to order strict-decoding messages as Go
//   does. Used only when countKeys or JSON.parse says something is wrong.
import type { StructType, Type } from '../../api/schema/dsl.js';
import { MAX_DEPTH, SEG_FIELD, SEG_INDEX, SEG_KEY } from './common.js';

/**
 * The number of object keys in JSON text: colons directly preceded by an unescaped quote (a string
 * followed by a colon is a key). Keys written with whitespace before the colon are not counted;
 * the result is then -1 when that may have happened (the caller takes the precise path).
 */
export function countKeys(text: string): number {
  // Whitespace before a colon: rare formatting that this count would miss. (Patterns starting with
  // a rare character: indexOf skips through the text at memchr speed.)
  if (text.indexOf(' :') !== -1 || text.indexOf('\n:') !== -1 || text.indexOf('\t:') !== -1 || text.indexOf('\r:') !== -1)
    return -1;
  let n = 0;
  let i = text.indexOf(':');
  while (i !== -1) {
    if (text.charCodeAt(i - 1) === 34) {
      if (text.charCodeAt(i - 2) !== 92) n++;
      else {
        let b = i - 2;
        while (b >= 0 && text.charCodeAt(b) === 92) b--;
        if ((i - 2 - b) % 2 === 0) n++;
      }
    }
    i = text.indexOf(':', i + 1);
  }
  return n;
}

/** A syntax error with Go's encoding/json message. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** Nesting deeper than the limit; `path` is where (marker form). */
export class JsonDepthError extends Error {
  constructor(readonly path: string) {
    super(`nesting deeper than ${MAX_DEPTH} levels`);
    this.name = 'JsonDepthError';
  }
}

/** Go's quoteChar. */
export function quoteChar(c: string): string {
  if (c === "'") return `'\\''`;
  if (c === '"') return `'"'`;
  const code = c.codePointAt(0)!;
  switch (code) {
    case 7:
      return `'\\a'`;
    case 8:
      return `'\\b'`;
    case 9:
      return `'\\t'`;
    case 10:
      return `'\\n'`;
    case 11:
      return `'\\v'`;
    case 12:
      return `'\\f'`;
    case 13:
      return `'\\r'`;
    case 92:
      return `'\\\\'`;
  }
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  if (code >= 0x80 && code < 0xa0) return `'\\u${code.toString(16).padStart(4, '0')}'`;
  return `'${c}'`;
}

export interface DuplicateKey {
  /** Marker path of the duplicated key. */
  path: string;
  /** Offset of the second occurrence. */
  offset: number;
}

export interface PreciseScan {
  duplicates: DuplicateKey[];
  /** First offset of every schema key path (marker form), when requested. */
  positions?: Map<string, number>;
}

/** What the schema says about the value being scanned. */
type Ctx = StructType | { kind: 'map'; of: Type } | { kind: 'list'; of: Type } | null;

function ctxOf(t: Type | undefined): Ctx {
  if (t === undefined) return null;
  switch (t.kind) {
    case 'struct':
      return t;
    case 'map':
      return t;
    case 'list':
      return t;
    default:
      return null;
  }
}

/**
 * Parses `text` completely. Throws JsonSyntaxError (Go's message) or JsonDepthError. With a
 * schema type, reports duplicate keys of struct fields and map keys (not inside raw extensions or
 * unknown fields, which Go keeps as raw bytes or skips).
 */
export function preciseScan(text: string, type?: StructType, recordPositions = false): PreciseScan {
  const duplicates: DuplicateKey[] = [];
  const positions = recordPositions ? new Map<string, number>() : undefined;
  const n = text.length;
  let i = 0;

  const eof = (): never => {
    throw new JsonSyntaxError('unexpected end of JSON input', n);
  };
  const bad = (context: string): never => {
    const c = String.fromCodePoint(text.codePointAt(i)!);
    throw new JsonSyntaxError(`invalid character ${quoteChar(c)} ${context}`, i);
  };
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

  /** Scans a string starting at the opening quote; returns its decoded value if `want`. */
  const string = (want: boolean): string => {
    const start = i;
    i++;
    let escaped = false;
    for (;;) {
      if (i >= n) eof();
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 0x20) bad('in string literal');
      if (c === 92) {
        escaped = true;
        i++;
        if (i >= n) eof();
        const e = text.charCodeAt(i);
        if (e === 117 /* u */) {
          for (let k = 0; k < 4; k++) {
            i++;
            if (i >= n) eof();
            if (!isHex(text.charCodeAt(i))) bad('in \\u hexadecimal character escape');
          }
        } else if (!(e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116))
          bad('in string escape code');
      }
      i++;
    }
    i++;
    if (!want) return '';
    const raw = text.slice(start + 1, i - 1);
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : raw;
  };

  const literal = (word: string): void => {
    for (let k = 1; k < word.length; k++) {
      i++;
      if (i >= n) eof();
      if (text[i] !== word[k]) bad(`in literal ${word} (expecting ${quoteChar(word[k]!)})`);
    }
    i++;
  };

  const digit = (c: number): boolean => c >= 48 && c <= 57;
  const number = (): void => {
    if (text.charCodeAt(i) === 45) {
      i++;
      if (i >= n) eof();
      if (!digit(text.charCodeAt(i))) bad('in numeric literal');
    }
    if (text.charCodeAt(i) === 48) i++;
    else while (i < n && digit(text.charCodeAt(i))) i++;
    if (i < n && text.charCodeAt(i) === 46) {
      i++;
      if (i >= n) eof();
      if (!digit(text.charCodeAt(i))) bad('after decimal point in numeric literal');
      while (i < n && digit(text.charCodeAt(i))) i++;
    }
    if (i < n && (text.charCodeAt(i) === 101 || text.charCodeAt(i) === 69)) {
      i++;
      if (i >= n) eof();
      if (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45) {
        i++;
        if (i >= n) eof();
      }
      if (!digit(text.charCodeAt(i))) bad('in exponent of numeric literal');
      while (i < n && digit(text.charCodeAt(i))) i++;
    }
  };

  /** Past the opening `{` or `[`: true (and past it) when `close` follows at once (an empty object or array). */
  const empty = (close: number): boolean => {
    i++;
    ws();
    if (i >= n) eof();
    if (text.charCodeAt(i) !== close) return false;
    i++;
    return true;
  };
  /** After a member or element: true past a comma (another follows), false past `close`. */
  const more = (close: number, context: string): boolean => {
    ws();
    if (i >= n) eof();
    const d = text.charCodeAt(i);
    if (d !== 44 && d !== close) bad(context);
    i++;
    return d === 44;
  };

  // ctx: the schema of this value; report: whether duplicates here are reported.
  const value = (ctx: Ctx, path: string, depth: number): void => {
    ws();
    if (i >= n) eof();
    const c = text.charCodeAt(i);
    switch (c) {
      case 123 /* { */: {
        if (depth > MAX_DEPTH) throw new JsonDepthError(path);
        if (empty(125)) return;
        const tracked = ctx !== null && (ctx.kind === 'struct' || ctx.kind === 'map');
        const seen = tracked ? new Set<string>() : undefined;
        for (;;) {
          ws();
          if (i >= n) eof();
          if (text.charCodeAt(i) !== 34) bad('looking for beginning of object key string');
          const keyAt = i;
          const key = string(tracked);
          let childCtx: Ctx = null;
          let childPath = path;
          if (tracked) {
            if (ctx.kind === 'struct') {
              const f = ctx.fields[key];
              childPath = path + SEG_FIELD + key;
              childCtx = f === undefined ? null : ctxOf(f.type);
            } else {
              childPath = path + SEG_KEY + key;
              childCtx = ctxOf(ctx.of);
            }
            if (seen!.has(key)) duplicates.push({ path: childPath, offset: keyAt });
            else {
              seen!.add(key);
              if (positions && !positions.has(childPath)) positions.set(childPath, keyAt);
            }
          }
          ws();
          if (i >= n) eof();
          if (text.charCodeAt(i) !== 58) bad('after object key');
          i++;
          value(childCtx, childPath, depth + 1);
          if (!more(125, 'after object key:value pair')) return;
        }
      }
      // eslint-disable-next-line no-fallthrough
      case 91 /* [ */: {
        if (depth > MAX_DEPTH) throw new JsonDepthError(path);
        if (empty(93)) return;
        const elem = ctx !== null && ctx.kind === 'list' ? ctxOf(ctx.of) : null;
        for (let k = 0; ; k++) {
          value(elem, elem === null ? path : path + SEG_INDEX + k, depth + 1);
          if (!more(93, 'after array element')) return;
        }
      }
      // eslint-disable-next-line no-fallthrough
      case 34:
        string(false);
        return;
      case 116:
        literal('true');
        return;
      case 102:
        literal('false');
        return;
      case 110:
        literal('null');
        return;
      default:
        if (c === 45 || digit(c)) {
          number();
          return;
        }
        bad('looking for beginning of value');
    }
  };

  value(type ?? null, '', 1);
  ws();
  if (i < n) bad('after top-level value');
  return positions ? { duplicates, positions } : { duplicates };
}
