// Label selectors: the string syntax of the `labelSelector` query parameter (apimachinery
// labels.Parse, with its lexer, grammar, validation and error messages), metav1.LabelSelector
// objects (LabelSelectorAsSelector, what controllers use), matching, and the canonical string form.
//
//   <selector>    ::= <requirement> | <requirement> "," <selector>
//   <requirement> ::= [!] KEY [ ("in" | "notin") "(" VALUES ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
//
// Whitespace (space, tab, CR, LF) separates tokens; "in"/"notin" are keywords only where an
// operator is expected; an empty selector selects everything. Keys are qualified names, values
// valid label values (or integers for > and <). The requirements are sorted by key.

import { goQuote } from '../patch/gofmt.js';
import { SelectorError } from './errors.js';
import { type BadValue, aggregate, fieldInvalid, isQualifiedName, isValidLabelValue } from './validation.js';

/** selection.Operator values. */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

const binaryOperators: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const validRequirementOperators: readonly LabelOperator[] = [...binaryOperators, 'exists', '!'];

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

export type Labels = Readonly<Record<string, string>> | null | undefined;

/** Go's string ordering (bytewise on UTF-8). */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  // UTF-16 code unit order equals UTF-8 byte order except around surrogates; fall back there.
  if (/[\ud800-\udfff]/.test(a) || /[\ud800-\udfff]/.test(b)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
  return a < b ? -1 : 1;
}

/** strconv.ParseInt(s, 10, 64), or undefined. */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : undefined;
}

function hasLabel(labels: Labels, key: string): boolean {
  return !!labels && Object.prototype.hasOwnProperty.call(labels, key);
}

/**
 * labels.NewRequirement: validates and builds a requirement. `values` is kept as given (the
 * string form sorts it). Throws SelectorError with Kubernetes' aggregated field errors.
 */
export function newRequirement(key: string, operator: LabelOperator, values: readonly string[] | null): LabelRequirement {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) errs.push(fieldInvalid('key', key, keyErrs.join('; ')));
  const vals = values ?? [];
  const bad: BadValue = { strings: values };
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(fieldInvalid('values', bad, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(fieldInvalid('values', bad, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(fieldInvalid('values', bad, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(fieldInvalid('values', bad, "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(fieldInvalid(`values[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(
        `operator: Unsupported value: ${goQuote(String(operator))}: supported values: ${validRequirementOperators.map((o) => goQuote(o)).join(', ')}`,
      );
  }
  vals.forEach((v, i) => {
    const valueErrs = isValidLabelValue(v);
    if (valueErrs.length) errs.push(fieldInvalid(`values[${i}][${key}]`, v, valueErrs.join('; ')));
  });
  const message = aggregate(errs);
  if (message !== undefined) throw new SelectorError(message);
  return Object.freeze({ key, operator, values: Object.freeze([...vals]) });
}

function requirementMatches(r: LabelRequirement, labels: Labels): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return hasLabel(labels, r.key) && r.values.includes(labels![r.key]!);
    case 'notin':
    case '!=':
      return !hasLabel(labels, r.key) || !r.values.includes(labels![r.key]!);
    case 'exists':
      return hasLabel(labels, r.key);
    case '!':
      return !hasLabel(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!hasLabel(labels, r.key)) return false;
      const have = parseInt64(labels![r.key]!);
      if (have === undefined || r.values.length !== 1) return false;
      const want = parseInt64(r.values[0]!);
      if (want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/** Requirement.String(). */
export function requirementString(r: LabelRequirement): string {
  let s = r.operator === '!' ? `!${r.key}` : r.key;
  switch (r.operator) {
    case 'exists':
    case '!':
      return s;
    case '=': s += '='; break;
    case '==': s += '=='; break;
    case '!=': s += '!='; break;
    case 'in': s += ' in '; break;
    case 'notin': s += ' notin '; break;
    case 'gt': s += '>'; break;
    case 'lt': s += '<'; break;
  }
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort(compareGoStrings).join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${s}(${values})` : `${s}${values}`;
}

function sortByKey(reqs: LabelRequirement[]): LabelRequirement[] {
  return reqs.sort((a, b) => compareGoStrings(a.key, b.key));
}

/** A label selector: the AND of its requirements (or Nothing, which matches no labels). */
export class LabelSelector {
  private constructor(private readonly reqs: readonly LabelRequirement[] | null) {}

  private static readonly everythingSelector = new LabelSelector([]);
  private static readonly nothingSelector = new LabelSelector(null);

  /** Matches all labels (the empty selector). */
  static everything(): LabelSelector {
    return LabelSelector.everythingSelector;
  }
  /** Matches nothing (a nil metav1.LabelSelector). */
  static nothing(): LabelSelector {
    return LabelSelector.nothingSelector;
  }
  /** From requirements (already validated, e.g. by newRequirement); sorted by key. */
  static of(requirements: readonly LabelRequirement[]): LabelSelector {
    return new LabelSelector(Object.freeze(sortByKey([...requirements])));
  }
  /** labels.SelectorFromSet: key=value for each entry, not validated. */
  static fromSet(set: Readonly<Record<string, string>> | null | undefined): LabelSelector {
    if (!set) return LabelSelector.everything();
    return LabelSelector.of(Object.entries(set).map(([key, v]) => Object.freeze({ key, operator: '=' as const, values: Object.freeze([v]) })));
  }
  /** labels.ValidatedSelectorFromSet: as fromSet, validating keys and values. */
  static fromValidatedSet(set: Readonly<Record<string, string>> | null | undefined): LabelSelector {
    if (!set) return LabelSelector.everything();
    const keys = Object.keys(set).sort(compareGoStrings);
    return LabelSelector.of(keys.map((k) => newRequirement(k, '=', [set[k]!])));
  }

  get requirements(): readonly LabelRequirement[] {
    return this.reqs ?? [];
  }
  /** False only for Nothing. */
  get selectable(): boolean {
    return this.reqs !== null;
  }
  /** True when the selector does not restrict anything (Everything). */
  isEmpty(): boolean {
    return this.reqs !== null && this.reqs.length === 0;
  }
  matches(labels: Labels): boolean {
    if (this.reqs === null) return false;
    for (const r of this.reqs) if (!requirementMatches(r, labels)) return false;
    return true;
  }
  /** The matcher as a function. */
  get matcher(): (labels: Labels) => boolean {
    return (labels) => this.matches(labels);
  }
  /** Adds requirements (a new selector, sorted by key). */
  add(...requirements: LabelRequirement[]): LabelSelector {
    if (this.reqs === null) return this;
    return LabelSelector.of([...this.reqs, ...requirements]);
  }
  /** The value a selector requires `key` to have exactly (=, == or a single-valued in), if any. */
  requiresExactMatch(key: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== key) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
      return undefined;
    }
    return undefined;
  }
  /** The canonical string form (labels.Selector.String()). */
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

// ---------------------------------------------------------------------------------------------
// Lexer and parser.

const enum Tok {
  Error,
  EndOfString,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const string2token = new Map<string, Tok>([
  [')', Tok.ClosedPar],
  [',', Tok.Comma],
  ['!', Tok.DoesNotExist],
  ['==', Tok.DoubleEquals],
  ['=', Tok.Equals],
  ['>', Tok.GreaterThan],
  ['in', Tok.In],
  ['<', Tok.LessThan],
  ['!=', Tok.NotEquals],
  ['notin', Tok.NotIn],
  ['(', Tok.OpenPar],
]);

const isWhitespace = (ch: string) => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string) => '=!(),><'.includes(ch) && ch !== '';

interface Item {
  tok: Tok;
  lit: string;
}

class Lexer {
  private pos = 0;
  constructor(private readonly s: string) {}
  /** The next character, or '\0' at the end (a NUL in the input also ends it, as in Go). */
  private read(): string {
    if (this.pos < this.s.length) return this.s[this.pos++]!;
    this.pos++;
    return '\0';
  }
  private unread(): void {
    this.pos--;
  }
  lex(): Item {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === '\0') return { tok: Tok.EndOfString, lit: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }
  private scanIdOrKeyword(): Item {
    let buf = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buf += ch;
    }
    const tok = string2token.get(buf);
    return tok !== undefined ? { tok, lit: buf } : { tok: Tok.Identifier, lit: buf };
  }
  private scanSpecialSymbol(): Item {
    let last: Item | undefined;
    let buf = '';
    for (;;) {
      const ch = this.read();
      if (ch === '\0') break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buf += ch;
      const tok = string2token.get(buf);
      if (tok !== undefined) last = { tok, lit: buf };
      else if (last) {
        this.unread();
        break;
      }
    }
    return last ?? { tok: Tok.Error, lit: `error expected: keyword found '${buf}'` };
  }
}

const enum Ctx {
  KeyAndOperator,
  Values,
}

class Parser {
  private readonly items: Item[] = [];
  private position = 0;
  constructor(input: string) {
    const lexer = new Lexer(input);
    for (;;) {
      const item = lexer.lex();
      this.items.push(item);
      if (item.tok === Tok.EndOfString) break;
    }
  }
  private adjust(item: Item, ctx: Ctx): Item {
    if (ctx === Ctx.Values && (item.tok === Tok.In || item.tok === Tok.NotIn)) return { tok: Tok.Identifier, lit: item.lit };
    return item;
  }
  private lookahead(ctx: Ctx): Item {
    return this.adjust(this.items[this.position]!, ctx);
  }
  private consume(ctx: Ctx): Item {
    return this.adjust(this.items[this.position++]!, ctx);
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(Ctx.Values);
      switch (tok) {
        case Tok.Identifier:
        case Tok.DoesNotExist: {
          let r: LabelRequirement;
          try {
            r = this.parseRequirement();
          } catch (e) {
            if (e instanceof SelectorError) throw new SelectorError(`unable to parse requirement: ${e.message}`);
            throw e;
          }
          reqs.push(r);
          const next = this.consume(Ctx.Values);
          switch (next.tok) {
            case Tok.EndOfString:
              return reqs;
            case Tok.Comma: {
              const after = this.lookahead(Ctx.Values);
              if (after.tok !== Tok.Identifier && after.tok !== Tok.DoesNotExist) {
                throw new SelectorError(`found '${after.lit}', expected: identifier after ','`);
              }
              break;
            }
            default:
              throw new SelectorError(`found '${next.lit}', expected: ',' or 'end of string'`);
          }
          break;
        }
        case Tok.EndOfString:
          return reqs;
        default:
          throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred === 'exists' || inferred === '!') return newRequirement(key, inferred, []);
    const operator = this.parseOperator();
    let values: string[];
    if (operator === 'in' || operator === 'notin') values = this.parseValues();
    else values = this.parseExactValue();
    return newRequirement(key, operator, values);
  }

  private parseKeyAndInferOperator(): [string, LabelOperator | undefined] {
    let operator: LabelOperator | undefined;
    let item = this.consume(Ctx.Values);
    if (item.tok === Tok.DoesNotExist) {
      operator = '!';
      item = this.consume(Ctx.Values);
    }
    if (item.tok !== Tok.Identifier) throw new SelectorError(`found '${item.lit}', expected: identifier`);
    const keyErrs = isQualifiedName(item.lit);
    if (keyErrs.length) throw new SelectorError(fieldInvalid(undefined, item.lit, keyErrs.join('; ')));
    const next = this.lookahead(Ctx.Values).tok;
    if ((next === Tok.EndOfString || next === Tok.Comma) && operator !== '!') operator = 'exists';
    return [item.lit, operator];
  }

  private parseOperator(): LabelOperator {
    const { tok, lit } = this.consume(Ctx.KeyAndOperator);
    switch (tok) {
      case Tok.In: return 'in';
      case Tok.Equals: return '=';
      case Tok.DoubleEquals: return '==';
      case Tok.GreaterThan: return 'gt';
      case Tok.LessThan: return 'lt';
      case Tok.NotIn: return 'notin';
      case Tok.NotEquals: return '!=';
      default:
        throw new SelectorError(`found '${lit}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  /** `(a,b,...)`: a set, returned sorted (sets.String.List()). */
  private parseValues(): string[] {
    const open = this.consume(Ctx.Values);
    if (open.tok !== Tok.OpenPar) throw new SelectorError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(Ctx.Values);
    switch (tok) {
      case Tok.Identifier:
      case Tok.Comma: {
        const set = this.parseIdentifiersList();
        if (this.consume(Ctx.Values).tok !== Tok.ClosedPar) throw new SelectorError(`found '${lit}', expected: ')'`);
        return [...set].sort(compareGoStrings);
      }
      case Tok.ClosedPar:
        this.consume(Ctx.Values);
        return [''];
      default:
        throw new SelectorError(`found '${lit}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const set = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume(Ctx.Values);
      switch (tok) {
        case Tok.Identifier: {
          set.add(lit);
          const next = this.lookahead(Ctx.Values);
          if (next.tok === Tok.Comma) continue;
          if (next.tok === Tok.ClosedPar) return set;
          throw new SelectorError(`found '${next.lit}', expected: ',' or ')'`);
        }
        case Tok.Comma: {
          if (set.size === 0) set.add('');
          const next = this.lookahead(Ctx.Values).tok;
          if (next === Tok.ClosedPar) {
            set.add('');
            return set;
          }
          if (next === Tok.Comma) {
            this.consume(Ctx.Values);
            set.add('');
          }
          break;
        }
        default:
          throw new SelectorError(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): string[] {
    const ahead = this.lookahead(Ctx.Values).tok;
    if (ahead === Tok.EndOfString || ahead === Tok.Comma) return [''];
    const { tok, lit } = this.consume(Ctx.Values);
    if (tok === Tok.Identifier) return [lit];
    throw new SelectorError(`found '${lit}', expected: identifier`);
  }
}

/**
 * labels.Parse: the `labelSelector` query parameter syntax. Throws SelectorError (kube-apiserver's
 * 400 BadRequest) with Kubernetes' message for a bad selector.
 */
export function parseLabelSelector(selector: string): LabelSelector {
  return LabelSelector.of(new Parser(selector).parse());
}

// ---------------------------------------------------------------------------------------------
// metav1.LabelSelector.

export interface LabelSelectorRequirementObject {
  key?: string | null;
  operator?: string | null;
  values?: readonly string[] | null;
}
export interface LabelSelectorObject {
  matchLabels?: Readonly<Record<string, string>> | null;
  matchExpressions?: readonly LabelSelectorRequirementObject[] | null;
}

const metaOperators: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * metav1.LabelSelectorAsSelector: a nil selector matches nothing, an empty one everything;
 * matchLabels are `key=value`, matchExpressions In/NotIn (values required) and
 * Exists/DoesNotExist (values forbidden). Throws SelectorError with Kubernetes' message.
 */
export function labelSelectorAsSelector(ps: LabelSelectorObject | null | undefined): LabelSelector {
  if (ps === null || ps === undefined) return LabelSelector.nothing();
  const labels = ps.matchLabels ?? {};
  const exprs = ps.matchExpressions ?? [];
  const labelKeys = Object.keys(labels).sort(compareGoStrings);
  if (labelKeys.length + exprs.length === 0) return LabelSelector.everything();
  const reqs: LabelRequirement[] = [];
  for (const k of labelKeys) reqs.push(newRequirement(k, '=', [labels[k]!]));
  for (const e of exprs) {
    const operator = Object.prototype.hasOwnProperty.call(metaOperators, e.operator ?? '') ? metaOperators[e.operator!] : undefined;
    if (!operator) throw new SelectorError(`${goQuote(e.operator ?? '')} is not a valid label selector operator`);
    reqs.push(newRequirement(e.key ?? '', operator, e.values && e.values.length ? [...e.values] : null));
  }
  return LabelSelector.of(reqs);
}

/** A matcher from a selector string (labels.Parse) or a metav1.LabelSelector object. */
export function compileLabelSelector(selector: string | LabelSelectorObject | null | undefined): (labels: Labels) => boolean {
  const s = typeof selector === 'string' ? parseLabelSelector(selector) : labelSelectorAsSelector(selector);
  return s.matcher;
}
