// Go (RE2) regular expressions of CRD `pattern`s: checked with JavaScript's engine (for Go's error
// wording), matched with an RE2 engine (compileGoMatcher). JavaScript's and Go's syntax agree on
// what CRD authors use; the check translates what differs (leading inline flags, \z and \A, (?P<name>,
// \x{...}, POSIX classes, escaped punctuation), rejects what RE2 rejects and JavaScript accepts
// (backreferences, lookaround), and words compile errors as Go's regexp package does.

import { RE2JS } from '@bufbuild/re2';

const cache = new Map<string, RegExp | string>();

const posix: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

function translate(src: string): string {
  return src
    .replace(/\[:(\^?)([a-z]+):\]/g, (m, neg: string, name: string) => (posix[name] !== undefined && neg === '' ? posix[name] : m))
    .replace(/\(\?P</g, '(?<')
    .replace(/\\x\{([0-9A-Fa-f]+)\}/g, '\\u{$1}')
    .replace(/\\z/g, '$(?![\\s\\S])')
    .replace(/\\A/g, '^');
}

/** Go's text for the compile error JavaScript reports. */
function goError(pattern: string, jsMessage: string): string {
  if (/Unterminated group/.test(jsMessage)) return `error parsing regexp: missing closing ): \`${pattern}\``;
  if (/Unmatched '\)'/.test(jsMessage)) return `error parsing regexp: unexpected ): \`${pattern}\``;
  if (/Unterminated character class/.test(jsMessage)) return `error parsing regexp: missing closing ]: \`${pattern.slice(pattern.lastIndexOf('['))}\``;
  if (/Nothing to repeat/.test(jsMessage)) {
    const op = /(?:^|[(|])([*+?]|\{\d+(?:,\d*)?\})/.exec(pattern);
    return `error parsing regexp: missing argument to repetition operator: \`${op?.[1] ?? '*'}\``;
  }
  return `error parsing regexp: ${jsMessage}`;
}

/** The compiled pattern, or the reason it does not compile (as Go's regexp.Compile words it). */
export function compileGoRegexp(pattern: string): RegExp | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let result: RegExp | string;
  let src = pattern;
  let flags = '';
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
    src = src.slice(lead[0].length);
  }
  const perl = /\\[1-9]|\(\?<?[=!]/.exec(src);
  if (perl) {
    result = `error parsing regexp: invalid or unsupported Perl syntax: \`${perl[0]}\``;
  } else {
    const js = translate(src);
    try {
      result = new RegExp(js, `${flags}u`);
    } catch (e) {
      // Unicode mode rejects escaped punctuation that RE2 allows (`\:`, `\-`); without it such
      // patterns compile, so a pattern is only an error when both modes reject it.
      try {
        result = /\\[pP]\{|\\u\{/.test(js) ? goError(pattern, (e as Error).message) : new RegExp(js, flags);
      } catch {
        result = goError(pattern, (e as Error).message);
      }
    }
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(pattern, result);
  return result;
}

/** What checks a value against a pattern. */
export interface PatternMatcher {
  test(value: string): boolean;
}

const matchers = new Map<string, PatternMatcher | string>();

/**
 * A pattern for checking values: Go's compile errors as compileGoRegexp words them, and matching by
 * an RE2 engine (@bufbuild/re2, linear in the value's length) as Kubernetes matches, so that no
 * pattern (`^(a+)+$`) and value can make a write backtrack for long.
 */
export function compileGoMatcher(pattern: string): PatternMatcher | string {
  const hit = matchers.get(pattern);
  if (hit !== undefined) return hit;
  const checked = compileGoRegexp(pattern);
  let result: PatternMatcher | string = checked;
  if (typeof checked !== 'string') {
    try {
      result = new RE2JS(pattern);
    } catch {
      // A pattern JavaScript's engine reads and RE2's does not: JavaScript's reading stands.
      result = checked;
    }
  }
  if (matchers.size > 10_000) matchers.clear();
  matchers.set(pattern, result);
  return result;
}
