// application/yaml.
//
// Decoding follows kube-apiserver: YAML 1.1 scalars as go-yaml v2 resolves them (yes/no/on/off
// are booleans, 0777 is octal, timestamps and 1:20 stay strings), converted to JSON and decoded
// like a JSON body (unknown fields, types, limits). Duplicate keys are reported as go-yaml words
// them (`yaml: unmarshal errors:\n  line 7: key "a" already set in map`), as a warning (Warn) or
// strict decoding error (Strict). The first document of a multi-document stream is decoded.
//
// Encoding reproduces sigs.k8s.io/yaml's JSONToYAML over go-yaml v2 (what kube-apiserver answers
// for Accept: application/yaml and what `kubectl get -o yaml` prints): map keys sorted in go-yaml's
// natural order, sequences not indented under their key, strings plain when they read back as
// strings, else single- or double-quoted, multi-line strings as literal blocks, long lines folded
// at 80 columns. `{ keyOrder: 'schema' }` keeps the canonical (schema) order instead.
import { createRequire } from 'node:module';
import type * as YamlLibrary from 'yaml';
import type { LineCounter, Node as YamlNode, Tags } from 'yaml';
import type { StructType } from '../../api/schema/dsl.js';
import { StatusError } from '../status.js';
import { kindOf, MAX_BODY_BYTES, MAX_DEPTH, summarizeBody, toBadRequest } from './common.js';
import { bodyText, cannotHandlePrefix, decodeParsed, type DecodeOptions, type DecodeResult } from './json.js';
import { countKeys } from './jsonscan.js';
import { isYamlBreak, isYamlPrintable, scalarFacts } from './yaml-scalar.js';

/**
 * go-yaml v2's resolution of plain scalars that start like numbers: strconv.ParseInt(base 0) /
 * ParseUint with underscores removed, then its YAML float syntax; anything else (timestamps,
 * "1:20", ".") stays a string.
 */
export function goYamlNumber(s: string): number | string {
  const c = s[0];
  if (c === '.') return /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/.test(s) ? Number(s) : s;
  const plain = s.replace(/_/g, '');
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(plain);
  if (m) {
    const sign = m[1] === '-' ? -1 : 1;
    const body = m[2]!;
    let n: number;
    if (/^0[xXoObB]/.test(body)) n = Number(body.toLowerCase());
    else if (body.length > 1 && body[0] === '0') n = parseInt(body, 8);
    else n = Number(body);
    return sign * n;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(plain)) return Number(plain);
  return s;
}

// The yaml package (some thirty modules) is loaded by the first YAML body that needs its parser,
// not when the API server starts.
let yamlLibrary: typeof YamlLibrary | undefined;
function yaml(): typeof YamlLibrary {
  return (yamlLibrary ??= createRequire(import.meta.url)('yaml') as typeof YamlLibrary);
}

const GO_NUMBER_TAG = {
  tag: 'tag:yaml.org,2002:int',
  default: true,
  test: /^(?:[-+]?[0-9][0-9a-zA-Z_.+-]*|[-+]?\.[0-9][0-9eE+-]*|[-+]?\.)$/,
  resolve: (str: string): number | string => goYamlNumber(str),
};

function tags(list: Tags): Tags {
  const kept = list.filter((t) => {
    const tag = (t as { tag?: string }).tag;
    const format = (t as { format?: string }).format;
    if (tag === 'tag:yaml.org,2002:timestamp' || format === 'TIME') return false;
    if (tag === 'tag:yaml.org,2002:int') return false;
    // Keep only the special floats (.inf, .nan); numbers are resolved as go-yaml does.
    if (tag === 'tag:yaml.org,2002:float') return String((t as { test?: RegExp }).test ?? '').includes('inf');
    return true;
  });
  return [...kept, GO_NUMBER_TAG as unknown as Tags[number]];
}

const PARSE_OPTIONS = {
  version: '1.1' as const,
  schema: 'yaml-1.1',
  merge: true,
  uniqueKeys: false,
  customTags: tags,
  strict: false,
};

/** A YAML syntax error in go-yaml's words where possible: `yaml: line N: message`. */
function yamlError(message: string, line: number | undefined): string {
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return line !== undefined ? `yaml: line ${line}: ${first}` : `yaml: ${first}`;
}

interface YamlDuplicate {
  line: number;
  key: string;
  /** User path of the duplicated key (`.metadata.name`). */
  path: string;
}

/** Duplicate keys in the document's mappings (merge keys excepted), with their lines. */
function findDuplicates(node: unknown, lc: LineCounter, path: string, out: YamlDuplicate[], depth: number): void {
  if (depth > MAX_DEPTH + 1) return;
  const { isMap, isScalar, isSeq } = yaml();
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const k = pair.key as YamlNode | null;
      let key: string;
      if (isScalar(k)) {
        if (typeof k.value === 'symbol') continue; // `<<` merge key
        key = k.value === null ? '' : String(k.value);
      } else key = String(k);
      if (seen.has(key)) {
        const offset = (k as { range?: [number, number, number] } | null)?.range?.[0] ?? 0;
        out.push({ line: lc.linePos(offset).line, key, path: `${path}.${key}` });
      } else seen.add(key);
      findDuplicates(pair.value, lc, `${path}.${key}`, out, depth + 1);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => findDuplicates(item, lc, `${path}[${i}]`, out, depth + 1));
  }
}

/**
 * Parses YAML text (the first document) to a JSON-like value, as sigs.k8s.io/yaml's YAMLToJSON
 * would. Throws a BadRequest StatusError with go-yaml-like wording on syntax errors.
 */
export function parseYaml(text: string, onDuplicates?: (d: YamlDuplicate[]) => void): unknown {
  // JSON is YAML: kubectl sends server-side apply bodies as JSON (application/apply-patch+yaml).
  // JSON.parse reads them as go-yaml would, fifty times faster; duplicate keys (JSON.parse keeps
  // the last, as go-yaml does) are looked for only when asked, and then by the YAML path below.
  const c = text.charCodeAt(0);
  if (c === 123 /* { */ || ((c === 32 || c === 10 || c === 13 || c === 9) && text.trimStart().startsWith('{'))) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (value !== undefined && (onDuplicates === undefined || countKeys(text) === countParsedKeys(value, 0))) return value;
  }
  const lc = new (yaml().LineCounter)();
  let docs;
  // The yaml library creates an Error per problem found; their stack traces are most of the cost
  // of rejecting a bad body, and never used.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    docs = yaml().parseAllDocuments(text, { ...PARSE_OPTIONS, lineCounter: lc, prettyErrors: false });
  } catch (e) {
    throw new YamlSyntax(yamlError(e instanceof Error ? e.message : String(e), undefined));
  } finally {
    Error.stackTraceLimit = limit;
  }
  const list = Array.isArray(docs) ? docs : [];
  const doc = list[0];
  if (doc === undefined) return null;
  if (doc.errors.length > 0) {
    const err = doc.errors[0]!;
    throw new YamlSyntax(yamlError(err.message, err.linePos?.[0]?.line ?? lc.linePos(err.pos[0]).line));
  }
  if (onDuplicates) {
    const dups: YamlDuplicate[] = [];
    findDuplicates(doc.contents, lc, '', dups, 0);
    if (dups.length > 0) onDuplicates(dups);
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new YamlSyntax(`yaml: ${e instanceof Error ? e.message : String(e)}`);
  }
}

class YamlSyntax extends Error {}

/** Number of keys in a parsed JSON value (-1 when nested absurdly deep: take the slow path). */
function countParsedKeys(v: unknown, depth: number): number {
  if (typeof v !== 'object' || v === null) return 0;
  if (depth > MAX_DEPTH) return -1;
  let n = 0;
  if (Array.isArray(v)) {
    for (const e of v) {
      const k = countParsedKeys(e, depth + 1);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  for (const key in v) {
    n++;
    const k = countParsedKeys((v as Record<string, unknown>)[key], depth + 1);
    if (k < 0) return -1;
    n += k;
  }
  return n;
}

/**
 * Decodes a YAML request body into the canonical form of `type` (see decodeJson for the result
 * and errors). YAML duplicate keys appear in `duplicateFields` and as one go-yaml-worded warning.
 */
export function decodeYaml<T = Record<string, unknown>>(
  input: Uint8Array | string,
  type: StructType,
  opts: DecodeOptions = {},
): DecodeResult<T> {
  const validation = opts.fieldValidation ?? 'Warn';
  const text = bodyText(input, opts.maxBytes ?? MAX_BODY_BYTES);
  let dups: YamlDuplicate[] = [];
  let parsed: unknown;
  try {
    parsed = parseYaml(text, validation === 'Ignore' ? undefined : (d) => (dups = d));
  } catch (e) {
    if (e instanceof YamlSyntax)
      throw StatusError.badRequest(
        `the object provided is unrecognized (must be of type ${kindOf(type)}): error converting YAML to JSON: ${e.message} (${summarizeBody(input)})`,
      );
    throw toBadRequest(e);
  }
  let result: DecodeResult<T>;
  const dupMessage =
    dups.length > 0 ? 'yaml: unmarshal errors:\n' + dups.map((d) => `  line ${d.line}: key ${JSON.stringify(d.key)} already set in map`).join('\n') : '';
  try {
    result = decodeParsed<T>(parsed, null, type, validation, opts.defaultGVK, input);
  } catch (e) {
    // Strict: go-yaml's duplicate error comes after the JSON strict errors.
    if (e instanceof StatusError && dupMessage !== '' && e.message.includes('strict decoding error: '))
      throw StatusError.badRequest(`${e.message}, ${dupMessage}`, { causes: [...e.causes, ...dupCauses(dups)] });
    throw e;
  }
  if (dupMessage === '') return result;
  if (validation === 'Strict') {
    throw StatusError.badRequest(cannotHandlePrefix(parsed, type, opts.defaultGVK) + 'strict decoding error: ' + dupMessage, {
      causes: dupCauses(dups),
    });
  }
  return {
    ...result,
    duplicateFields: [...result.duplicateFields, ...dups.map((d) => d.path)],
    warnings: [...result.warnings, dupMessage],
  };
}

function dupCauses(dups: YamlDuplicate[]): Array<{ reason: string; message: string; field: string }> {
  return dups.map((d) => ({ reason: 'FieldValueDuplicate', message: `duplicate key at line ${d.line}`, field: d.path }));
}


// ---------------------------------------------------------------------------------------------
// Encoding: a port of the relevant parts of go-yaml v2's encoder and libyaml's emitter.
// ---------------------------------------------------------------------------------------------

export interface YamlEncodeOptions {
  /** 'sorted' (Kubernetes: go-yaml's natural key order, default) or 'schema' (as in the object). */
  keyOrder?: 'sorted' | 'schema';
}

const BEST_WIDTH = 80;
const BEST_INDENT = 2;

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c > '\x7f' && LETTER.test(c));
const isDigit = (c: string): boolean => (c >= '0' && c <= '9') || (c > '\x7f' && DIGIT.test(c));

/** go-yaml v2's keyList.Less for string keys (natural order: digit runs compared as numbers). */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = isDigit(ar[i]!);
      continue;
    }
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return digits ? al : bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10 + (ar[ai]!.charCodeAt(0) - 48);
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10 + (br[bi]!.charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

function sortYamlKeys(keys: string[]): string[] {
  return keys.sort((a, b) => (yamlKeyLess(a, b) ? -1 : yamlKeyLess(b, a) ? 1 : 0));
}

// go-yaml v2 resolve(): does a plain scalar read back as something other than a string?
const YAML_NULL = /^(?:~|null|Null|NULL|)$/;
const YAML_BOOL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const YAML_FLOAT_SPECIAL = /^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const YAML_INT_GO = /^[-+]?(?:0[bB][01_]+|0[oO]?[0-7_]+|0[xX][0-9a-fA-F_]+|[0-9][0-9_]*)$/;
const YAML_TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?)$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

function resolvesToNonString(s: string): boolean {
  if (s === '<<') return true; // the merge tag
  if (YAML_NULL.test(s) || YAML_BOOL.test(s) || YAML_FLOAT_SPECIAL.test(s)) return true;
  const c = s.charCodeAt(0);
  // Numbers and timestamps only start with a digit, sign or dot.
  if (!((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) return false;
  if (YAML_INT_GO.test(s) && s.replace(/_/g, '') !== '' && !/^[-+]?_/.test(s)) return true;
  if (YAML_FLOAT.test(s.replace(/_/g, ''))) return true;
  if (YAML_TIMESTAMP.test(s)) return true;
  return false;
}

interface ScalarAnalysis {
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

/** libyaml's yaml_emitter_analyze_scalar as go-yaml v2 uses it (a tab is one more special character). */
function analyze(s: string): ScalarAnalysis {
  if (s.length === 0) return { multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true, block: false };
  const f = scalarFacts(s);
  const special = f.special || f.tab;
  const r: ScalarAnalysis = { multiline: f.lineBreaks, flowPlain: true, blockPlain: true, singleQuoted: true, block: true };
  if (f.leadingSpace || f.leadingBreak || f.trailingSpace || f.trailingBreak) r.flowPlain = r.blockPlain = false;
  if (f.trailingSpace) r.block = false;
  if (f.breakSpace) r.flowPlain = r.blockPlain = r.singleQuoted = false;
  if (f.spaceBreak || special) r.flowPlain = r.blockPlain = r.singleQuoted = r.block = false;
  if (f.lineBreaks) r.flowPlain = r.blockPlain = false;
  if (f.flowIndicators) r.flowPlain = false;
  if (f.blockIndicators) r.blockPlain = false;
  return r;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

/** go-yaml's stringv + libyaml's yaml_emitter_select_scalar_style. */
function selectStyle(s: string, a: ScalarAnalysis, simpleKey: boolean): Style {
  const canUsePlain = !resolvesToNonString(s) && !BASE60_FLOAT.test(s);
  let style: Style = s.includes('\n') ? 'literal' : canUsePlain ? 'plain' : 'double';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain') {
    if (!a.blockPlain) style = 'single';
    if (s.length === 0 && simpleKey) style = 'single';
  }
  if (style === 'single' && !a.singleQuoted) style = 'double';
  if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
  return style;
}

/** Go's strconv.FormatFloat(f, 'g', -1, 64), as go-yaml writes floats. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (f === Infinity) return '.inf';
  if (f === -Infinity) return '-.inf';
  const [mant, e] = f.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const abs = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${abs < 10 ? '0' + abs : abs}`;
  }
  return String(f);
}

class Emitter {
  out = '';
  column = 0;
  whitespace = true;
  indention = true;

  put(s: string): void {
    this.out += s;
    this.column += s.length === 1 ? 1 : [...s].length;
  }

  /** libyaml's yaml_emitter_write_indent: a line break unless already at the start of an indented line. */
  writeIndent(indent: number): void {
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) {
      this.out += '\n';
      this.column = 0;
    }
    if (this.column < indent) {
      this.out += ' '.repeat(indent - this.column);
      this.column = indent;
    }
    this.whitespace = true;
    this.indention = true;
  }

  indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention = false): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  scalar(s: string, indent: number, simpleKey: boolean, forceStyle?: Style): void {
    const a = analyze(s);
    const style = forceStyle ?? selectStyle(s, a, simpleKey);
    const allowBreaks = !simpleKey;
    switch (style) {
      case 'plain':
        this.plain(s, indent, allowBreaks);
        break;
      case 'single':
        this.single(s, indent, allowBreaks);
        break;
      case 'double':
        this.double(s, indent, allowBreaks);
        break;
      case 'literal':
        this.literal(s, indent);
        break;
    }
  }

  private plain(s: string, indent: number, allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    const cps = [...s];
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const ch = cps[i]!;
      if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && cps[i + 1] !== ' ') this.writeIndent(indent);
        else this.put(ch);
        spaces = true;
      } else {
        this.put(ch);
        this.indention = false;
        spaces = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private single(s: string, indent: number, allowBreaks: boolean): void {
    this.indicator("'", true, false);
    const cps = [...s];
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const ch = cps[i]!;
      if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1 && cps[i + 1] !== ' ')
          this.writeIndent(indent);
        else this.put(ch);
        spaces = true;
      } else {
        if (ch === "'") this.put("'");
        this.put(ch);
        spaces = false;
      }
    }
    this.indicator("'", false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private double(s: string, indent: number, allowBreaks: boolean): void {
    this.indicator('"', true, false);
    const cps = [...s];
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const ch = cps[i]!;
      const c = ch.codePointAt(0)!;
      if (!isYamlPrintable(c) || c === 0xfeff || isYamlBreak(c) || ch === '"' || ch === '\\') {
        this.put('\\' + escapeFor(c));
        spaces = false;
      } else if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1) {
          this.writeIndent(indent);
          if (cps[i + 1] === ' ') this.put('\\');
        } else this.put(ch);
        spaces = true;
      } else {
        this.put(ch);
        spaces = false;
      }
    }
    this.indicator('"', false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(s: string, indent: number): void {
    this.indicator('|', true, false);
    // Block scalar hints: indentation indicator when it starts with a space or break; chomping.
    const cps = [...s];
    if (cps[0] === ' ' || isYamlBreak(cps[0]!.codePointAt(0)!)) this.indicator(String(BEST_INDENT), false, false);
    const last = cps.length - 1;
    let chomp = '';
    if (cps.length === 0 || !isYamlBreak(cps[last]!.codePointAt(0)!)) chomp = '-';
    else if (last === 0 || isYamlBreak(cps[last - 1]!.codePointAt(0)!)) chomp = '+';
    if (chomp !== '') this.indicator(chomp, false, false);
    this.out += '\n';
    this.column = 0;
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const ch of cps) {
      if (isYamlBreak(ch.codePointAt(0)!)) {
        this.out += '\n';
        this.column = 0;
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent(indent);
        this.put(ch);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

function escapeFor(c: number): string {
  switch (c) {
    case 0x00:
      return '0';
    case 0x07:
      return 'a';
    case 0x08:
      return 'b';
    case 0x09:
      return 't';
    case 0x0a:
      return 'n';
    case 0x0b:
      return 'v';
    case 0x0c:
      return 'f';
    case 0x0d:
      return 'r';
    case 0x1b:
      return 'e';
    case 0x22:
      return '"';
    case 0x5c:
      return '\\';
    case 0x85:
      return 'N';
    case 0xa0:
      return '_';
    case 0x2028:
      return 'L';
    case 0x2029:
      return 'P';
    default:
      if (c <= 0xff) return 'x' + c.toString(16).toUpperCase().padStart(2, '0');
      if (c <= 0xffff) return 'u' + c.toString(16).toUpperCase().padStart(4, '0');
      return 'U' + c.toString(16).toUpperCase().padStart(8, '0');
  }
}

function isEmptyCollection(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object' && v !== null) {
    for (const _ in v) return false;
    return true;
  }
  return false;
}

function scalarText(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 1e21 ? String(v) : goFloat(v);
  if (typeof v === 'bigint') return v.toString();
  return undefined;
}

/** Simple keys are at most 128 characters and single-line (else `? key` complex form). */
function isSimpleKey(k: string): boolean {
  return Buffer.byteLength(k, 'utf8') <= 128 && !/[\n\r\u0085\u2028\u2029]/.test(k);
}

/**
 * Serializes a JSON-like value as go-yaml v2 (via sigs.k8s.io/yaml) does: the body of a
 * kube-apiserver `application/yaml` response and of `kubectl get -o yaml`.
 */
export function encodeYaml(value: unknown, opts: YamlEncodeOptions = {}): string {
  const sorted = (opts.keyOrder ?? 'sorted') === 'sorted';
  const e = new Emitter();

  const keysOf = (o: Record<string, unknown>): string[] => {
    const ks = Object.keys(o);
    return sorted ? sortYamlKeys(ks) : ks;
  };

  // Emits `v` after its parent's indicator (`key:` or `-`); `indent` is the parent's indentation.
  const node = (v: unknown, indent: number, inMapping: boolean, depth: number): void => {
    if (depth > MAX_DEPTH * 2) throw StatusError.internal('yaml: value nested too deeply');
    const text = scalarText(v);
    if (text !== undefined) {
      if (!e.whitespace) e.put(' ');
      e.put(text);
      e.whitespace = false;
      e.indention = false;
      return;
    }
    if (typeof v === 'string') {
      e.scalar(v, indent + BEST_INDENT, false);
      return;
    }
    if (isEmptyCollection(v)) {
      e.indicator(Array.isArray(v) ? '[]' : '{}', true, false);
      return;
    }
    if (Array.isArray(v)) {
      // A block sequence under a mapping key is not indented ("indentless").
      const seqIndent = depth === 0 ? 0 : inMapping ? indent : indent + BEST_INDENT;
      for (const item of v) {
        e.writeIndent(seqIndent);
        e.indicator('-', true, false, true);
        node(item === undefined ? null : item, seqIndent, false, depth + 1);
      }
      return;
    }
    const o = v as Record<string, unknown>;
    const mapIndent = depth === 0 ? 0 : indent + BEST_INDENT;
    for (const k of keysOf(o)) {
      e.writeIndent(mapIndent);
      mappingPair(k, o[k], mapIndent, depth + 1);
    }
  };

  const mappingPair = (k: string, v: unknown, indent: number, depth: number): void => {
    if (isSimpleKey(k)) {
      e.scalar(k, indent + BEST_INDENT, true);
      e.indicator(':', false, false);
    } else {
      e.indicator('?', true, false, true);
      e.scalar(k, indent + BEST_INDENT, false);
      e.writeIndent(indent);
      e.indicator(':', true, false, true);
    }
    node(v === undefined ? null : v, indent, true, depth);
  };

  node(value, 0, false, 0);
  return e.out + '\n';
}
