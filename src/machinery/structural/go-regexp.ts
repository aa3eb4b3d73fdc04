// Go (RE2) regular expressions of CRD `pattern`s, run with JavaScript's engine. The two agree on the
// syntax CRD authors use; the differences handled here are RE2's leading inline flags ((?i), (?s),
// (?m)), \z and \A, and that RE2 rejects backreferences and lookaround, which JavaScript accepts.

const cache = new Map<string, RegExp | string>();

/** The compiled pattern, or the reason it does not compile (as a Go-like error text). */
export function compileGoRegexp(pattern: string): RegExp | string {
  const hit = cache.get(pattern);
  if (hit !== undefined) return hit;
  let result: RegExp | string;
  let src = pattern;
  let flags = 'u';
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
    src = src.slice(lead[0].length);
  }
  if (/\\[1-9]|\(\?<?[=!]/.test(src)) {
    result = `error parsing regexp: invalid or unsupported Perl syntax: \`${/\\[1-9]/.test(src) ? /\\[1-9]/.exec(src)![0] : /\(\?<?[=!]/.exec(src)![0]}\``;
  } else {
    try {
      result = new RegExp(src.replace(/\\z/g, '$(?![\\s\\S])').replace(/\\A/g, '^'), flags.includes('m') ? flags : flags);
    } catch (e) {
      result = `error parsing regexp: ${(e as Error).message}`;
    }
  }
  if (cache.size > 10_000) cache.clear();
  cache.set(pattern, result);
  return result;
}
