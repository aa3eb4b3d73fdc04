// Pathname expansion (`*`, `?`, `[...]`) over the vfs, and the same patterns for ${VAR#pat} and
// friends. A word's glob characters count only where they were unquoted: `mask` marks them.
import type { Vfs } from './vfs.js';

/** A glob pattern as a RegExp source; `active[i]` says whether pattern[i] may be special. */
export function patternSource(pattern: string, active: (i: number) => boolean): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (active(i) && c === '*') out += '[^]*';
    else if (active(i) && c === '?') out += '[^]';
    else if (active(i) && c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replace(/[\\\]^]/g, (m) => `\\${m}`)}]`;
      i = close;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, (m) => `\\${m}`);
  }
  return out;
}

export function hasGlob(text: string, mask: boolean[]): boolean {
  for (let i = 0; i < text.length; i++) if (mask[i] && '*?['.includes(text[i]!)) return true;
  return false;
}

/** The paths matching a pattern word, sorted; empty when none do (the word then stays as it is). */
export function expandGlob(fs: Vfs, cwd: string, text: string, mask: boolean[]): string[] {
  const absolute = text.startsWith('/');
  // Split into components, keeping each component's mask.
  const comps: Array<{ text: string; mask: boolean[] }> = [];
  let cur = { text: '', mask: [] as boolean[] };
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '/') {
      if (cur.text !== '') comps.push(cur);
      cur = { text: '', mask: [] };
    } else {
      cur.text += text[i];
      cur.mask.push(mask[i] ?? false);
    }
  }
  if (cur.text !== '') comps.push(cur);
  let paths = [absolute ? '/' : ''];
  for (const comp of comps) {
    const next: string[] = [];
    for (const base of paths) {
      if (!hasGlob(comp.text, comp.mask)) {
        next.push(join(base, comp.text));
        continue;
      }
      const re = new RegExp(`^${patternSource(comp.text, (i) => comp.mask[i] ?? false)}$`);
      let entries: string[];
      try {
        entries = fs.readdir(base === '' ? '.' : base, cwd).map(([name]) => name);
      } catch {
        continue;
      }
      for (const name of entries) {
        if (name.startsWith('.') && !comp.text.startsWith('.')) continue;
        if (re.test(name)) next.push(join(base, name));
      }
    }
    paths = next;
  }
  return paths.filter((p) => p !== '' && existsNoFollow(fs, p, cwd)).sort();
}

function existsNoFollow(fs: Vfs, p: string, cwd: string): boolean {
  try {
    fs.lstat(p, cwd);
    return true;
  } catch {
    return false;
  }
}

function join(base: string, name: string): string {
  if (base === '') return name;
  return base.endsWith('/') ? base + name : `${base}/${name}`;
}

/** `${VAR#pat}` and friends: removes the shortest/longest matching prefix or suffix. */
export function removePattern(value: string, pattern: string, op: '#' | '##' | '%' | '%%'): string {
  const re = new RegExp(`^${patternSource(pattern, () => true)}$`);
  if (op === '#' || op === '##') {
    const lengths = [...Array(value.length + 1).keys()];
    if (op === '##') lengths.reverse();
    for (const n of lengths) if (re.test(value.slice(0, n))) return value.slice(n);
  } else {
    const starts = [...Array(value.length + 1).keys()];
    if (op === '%') starts.reverse();
    for (const s of starts) if (re.test(value.slice(s))) return value.slice(0, s);
  }
  return value;
}
