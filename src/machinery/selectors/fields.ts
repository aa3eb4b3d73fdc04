// Field selectors: the `fieldSelector` query parameter (apimachinery fields.ParseSelector):
// comma-separated `field=value`, `field==value` or `field!=value` terms; in values, `\`, `,` and
// `=` are escaped with a backslash. A term matches against a map of field values, a missing field
// being the empty string. Which fields a kind supports, and their values, is selectable-fields.ts.

import { SelectorError } from './errors.js';
import { compareGoStrings } from './labels.js';

export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  /** `==` parses as `=`. */
  readonly operator: FieldOperator;
  readonly value: string;
}

export type FieldSet = Readonly<Record<string, string>>;

/** Converts (field, value) — e.g. a kind's field label conversion; throw to reject the field. */
export type FieldTransform = (field: string, value: string) => [string, string];

/** fields.EscapeValue: backslash-escapes `\`, `,` and `=`. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** fields.UnescapeValue. */
export function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') throw new SelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

export class FieldSelector {
  private constructor(readonly requirements: readonly FieldRequirement[]) {}

  private static readonly everythingSelector = new FieldSelector([]);

  static everything(): FieldSelector {
    return FieldSelector.everythingSelector;
  }
  /** fields.SelectorFromSet: field=value for each entry. */
  static fromSet(set: FieldSet): FieldSelector {
    return new FieldSelector(Object.entries(set).map(([field, value]) => ({ field, operator: '=' as const, value })));
  }
  static of(requirements: readonly FieldRequirement[]): FieldSelector {
    return new FieldSelector(Object.freeze([...requirements]));
  }

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }
  matches(fields: FieldSet): boolean {
    for (const r of this.requirements) {
      const v = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field]! : '';
      if ((v === r.value) !== (r.operator === '=')) return false;
    }
    return true;
  }
  get matcher(): (fields: FieldSet) => boolean {
    return (fields) => this.matches(fields);
  }
  /** The value the selector requires `field` to equal, if any. */
  requiresExactMatch(field: string): string | undefined {
    for (const r of this.requirements) if (r.field === field && r.operator === '=') return r.value;
    return undefined;
  }
  /**
   * Selector.Transform: applies `fn` to every term (it may rename the field or reject it by
   * throwing); a term whose field and value both become empty is dropped.
   */
  transform(fn: FieldTransform): FieldSelector {
    const out: FieldRequirement[] = [];
    for (const r of this.requirements) {
      const [field, value] = fn(r.field, r.value);
      if (field === '' && value === '') continue;
      out.push({ field, operator: r.operator, value });
    }
    return new FieldSelector(Object.freeze(out));
  }
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** Splits on unescaped commas (escapes kept). */
function splitTerms(s: string): string[] {
  if (s === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): [string, (typeof termOperators)[number], string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
  }
  return undefined;
}

/**
 * fields.ParseSelector (then Transform with `transform`, when given). Terms come out sorted by
 * their text, as Kubernetes sorts them. Throws SelectorError with Kubernetes' message.
 */
export function parseFieldSelector(selector: string, transform?: FieldTransform): FieldSelector {
  const parts = splitTerms(selector).sort(compareGoStrings);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const [field, op, rhs] = split;
    reqs.push({ field, operator: op === '!=' ? '!=' : '=', value: unescapeFieldValue(rhs) });
  }
  const parsed = FieldSelector.of(reqs);
  return transform ? parsed.transform(transform) : parsed;
}
