// go-cmp's printing of a difference (report_compare.go): changed leaves as -/+ records, unchanged
// runs elided to two records of context and a count, and cmp.Diff's text of two values.
import { compare, type Node } from './compare.js';
import { isZeroValue, type GoType } from './go-types.js';
import { formatType, formatValue, verb, withVerbosity, type Opts, type TypeMode } from './report-value.js';
import { appendEllipsis, compact, line, numDiffOf, render, stats, statsZero, wrap, type Rec, type Stats, type Text } from './text.js';

function formatDiff(o0: Opts, node: Node): Text {
  let o = o0;
  if (o.mode === '=') o = withVerbosity(o, 1);
  else if (verb(o) < 3) o = withVerbosity(o, 3);
  const t = node.t;
  if (node.maxDepth === 0) {
    if (o.mode === '' || o.mode === '=') {
      if (node.numDiff === 0) {
        const ox = formatValue(o, t, node.x);
        const oy = formatValue(o, t, node.y);
        return textLen(ox) < textLen(oy) ? ox : oy;
      }
      return line('<unprintable>');
    }
    if (o.mode === '-') return formatValue(o, t, node.x);
    return formatValue(o, t, node.y);
  }
  if (t.k === 'ptr' && node.child) return wrap('&', formatDiff(o, node.child), '');
  const kind = t.k === 'struct' ? 'struct' : t.k === 'map' ? 'map' : 'slice';
  return formatType(o, t, formatDiffList(o, node.recs, kind));
}

function textLen(t: Text): number {
  return compact('', t, '')[0].length;
}

function formatDiffList(o0: Opts, recs0: Node['recs'], kind: 'struct' | 'slice' | 'map'): Text {
  let o = { ...o0, typeMode: (kind === 'struct' ? 'auto' : 'elide') as TypeMode };
  const name = kind === 'struct' ? 'field' : kind === 'slice' ? 'element' : 'entry';
  let maxLen = -1;
  if (o.limit) {
    maxLen = o.mode === '=' ? ((1 << verb(o)) >> 1) << 2 : (1 << verb(o)) << 1;
    o = { ...o, verbosity: o.verbosity - 1 };
  }
  if (o.mode === '=' || o.mode === '-' || o.mode === '+') {
    const list: Rec[] = [];
    let deferred = false;
    for (const r of recs0) {
      if (list.length === maxLen) {
        deferred = true;
        break;
      }
      if (kind === 'struct') {
        const zx = isZeroValue(r.node.t, r.node.x);
        const zy = isZeroValue(r.node.t, r.node.y);
        const zero = o.mode === '=' ? zx || zy : o.mode === '-' ? zx : zy;
        if (zero) continue;
      }
      list.push({ diff: '', key: r.key, value: formatDiff(o, r.node) });
    }
    if (deferred) appendEllipsis(list);
    return wrap('{', { kind: 'list', recs: list }, '}');
  }
  // Differencing: groups of equal and unequal records, two records of context around changes.
  const groups: (Stats & { equal: boolean })[] = [];
  let prev = -1;
  for (const r of recs0) {
    const n = r.node;
    const equal = n.numDiff === 0;
    const c = equal ? 1 : 2;
    if (prev !== c) {
      groups.push({ ...stats(name), equal });
      prev = c;
    }
    const g = groups[groups.length - 1]!;
    if (equal) g.identical++;
    else if (!n.hasY) g.removed++;
    else if (!n.hasX) g.inserted++;
    else g.modified++;
  }
  const list: Rec[] = [];
  let recs = recs0;
  let numDiffs = 0;
  const maxGroup = stats(name);
  const identical = (r: Node['recs'][number]): Rec => ({ diff: '', key: r.key, value: formatDiff({ ...o, mode: '=' }, r.node) });
  groups.forEach((ds, i) => {
    if (maxLen >= 0 && numDiffs >= maxLen) {
      maxGroup.identical += ds.identical;
      maxGroup.removed += ds.removed;
      maxGroup.inserted += ds.inserted;
      maxGroup.modified += ds.modified;
      return;
    }
    if (ds.equal) {
      const numEqual = ds.identical;
      let lo = 0;
      let hi = 0;
      while (lo < 2 && lo + hi < numEqual && i !== 0) lo++;
      while (hi < 2 && lo + hi < numEqual && i !== groups.length - 1) hi++;
      if (numEqual - (lo + hi) === 1) hi++;
      for (const r of recs.slice(0, lo)) list.push(identical(r));
      if (numEqual > lo + hi) appendEllipsis(list, { ...stats(name), identical: numEqual - lo - hi });
      for (const r of recs.slice(numEqual - hi, numEqual)) list.push(identical(r));
      recs = recs.slice(numEqual);
      return;
    }
    const nd = numDiffOf(ds);
    for (const r of recs.slice(0, nd)) {
      const n = r.node;
      if (n.numChildren === n.maxDepth) {
        const ox = n.hasX ? formatDiff({ ...o, mode: '-' }, n) : undefined;
        const oy = n.hasY ? formatDiff({ ...o, mode: '+' }, n) : undefined;
        if (ox) list.push({ diff: '-', key: r.key, value: ox });
        if (oy) list.push({ diff: '+', key: r.key, value: oy });
      } else {
        list.push({ diff: '', key: r.key, value: formatDiff(o, n) });
      }
    }
    recs = recs.slice(nd);
    numDiffs += nd;
  });
  if (!statsZero(maxGroup)) appendEllipsis(list, maxGroup);
  return wrap('{', { kind: 'list', recs: list }, '}');
}

/** cmp.Diff(x, y) of two values of Go type `t`: '' when they are equal. */
export function cmpDiff(t: GoType, x: unknown, y: unknown): string {
  const root = compare(t, x, y, true, true);
  if (root.numDiff === 0) return '';
  return render(formatDiff({ mode: '', verbosity: 0, limit: false, typeMode: 'auto' }, root));
}
