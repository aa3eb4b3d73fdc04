// go-cmp's text nodes (report_text.go): lines, lists of records and wrapped values, the
// statistics comments ("... // 3 identical fields"), and their layout: a node collapsed onto one
// line when it fits, else expanded one record a line with keys and comments aligned.

export type Text = { kind: 'line'; s: string } | { kind: 'list'; recs: Rec[] } | { kind: 'wrap'; prefix: string; value: Text; suffix: string };
export interface Rec {
  diff: '' | '-' | '+';
  key: string;
  value: Text;
  comment?: Stats;
  elideComma?: boolean;
}
export interface Stats {
  name: string;
  ignored: number;
  identical: number;
  removed: number;
  inserted: number;
  modified: number;
}

export const line = (s: string): Text => ({ kind: 'line', s });
export const ELLIPSIS = '...';
export const NIL = line('nil');
const maxColumnLength = 80;
export const wrap = (prefix: string, value: Text, suffix: string): Text => ({ kind: 'wrap', prefix, value, suffix });
const isLine = (t: Text): t is { kind: 'line'; s: string } => t.kind === 'line';
const isEllipsis = (t: Text) => t.kind === 'line' && t.s === ELLIPSIS;

export const stats = (name: string): Stats => ({ name, ignored: 0, identical: 0, removed: 0, inserted: 0, modified: 0 });
export const statsZero = (s: Stats) => s.ignored + s.identical + s.removed + s.inserted + s.modified === 0;
export const numDiffOf = (s: Stats) => s.removed + s.inserted + s.modified;

function statsString(s: Stats): string {
  const labels = ['ignored', 'identical', 'removed', 'inserted', 'modified'] as const;
  const counts = [s.ignored, s.identical, s.removed, s.inserted, s.modified];
  const ss: string[] = [];
  let sum = 0;
  counts.forEach((n, i) => {
    if (n > 0) ss.push(`${n} ${labels[i]}`);
    sum += n;
  });
  let name = s.name;
  if (sum > 1) {
    name += 's';
    if (name.endsWith('ys')) name = `${name.slice(0, -2)}ies`;
  }
  if (ss.length === 0) return '';
  if (ss.length <= 2) return `${ss.join(' and ')} ${name}`;
  return `${ss.slice(0, -1).join(', ')}, and ${ss[ss.length - 1]} ${name}`;
}

export function appendEllipsis(list: Rec[], s?: Stats): void {
  const last = list[list.length - 1];
  if (!last || !isEllipsis(last.value)) {
    list.push({ diff: '', key: '', value: line(ELLIPSIS), elideComma: true, ...(s && !statsZero(s) ? { comment: s } : {}) });
    return;
  }
  if (s && !statsZero(s)) {
    const c = last.comment ?? stats(s.name);
    last.comment = { name: c.name, ignored: c.ignored + s.ignored, identical: c.identical + s.identical, removed: c.removed + s.removed, inserted: c.inserted + s.inserted, modified: c.modified + s.modified };
  }
}

/** formatCompactTo: returns the text so far and the node, collapsed to a line when it fits one. */
export function compact(b: string, node: Text, d: '' | '-' | '+'): [string, Text] {
  if (node.kind === 'line') return [b + node.s, node];
  if (node.kind === 'wrap') {
    const n0 = b.length;
    let out = b + node.prefix;
    const [b2, v] = compact(out, node.value, d);
    out = b2 + node.suffix;
    const w: Text = { ...node, value: v };
    return v.kind === 'line' ? [out, line(out.slice(n0))] : [out, w];
  }
  const recs = node.recs.map((r) => ({ ...r }));
  let multiLine = false;
  let out = b;
  const n0 = b.length;
  recs.forEach((r, i) => {
    if (r.diff === '-' || r.diff === '+') multiLine = true;
    out += r.key;
    if (r.key !== '') out += ': ';
    const [b2, v] = compact(out, r.value, r.diff !== '' ? r.diff : d);
    out = b2;
    r.value = v;
    if (v.kind !== 'line') multiLine = true;
    if (r.comment) multiLine = true;
    if (i < recs.length - 1) out += ', ';
  });
  if ((d === '-' || d === '+') && out.length > maxColumnLength) multiLine = true;
  if (!multiLine) return [out, line(out.slice(n0))];
  return [out, { kind: 'list', recs }];
}

const indent = (n: number, d: '' | '-' | '+') => `${d === '' ? ' ' : d} ${'\t'.repeat(n)}`;

function alignLens(recs: Rec[], skip: (r: Rec) => boolean, len: (r: Rec) => number): number[] {
  const lens = new Array<number>(recs.length).fill(0);
  let start = 0;
  let max = 0;
  const flush = (end: number) => {
    for (let i = start; i < end; i++) lens[i] = max - len(recs[i]!);
    max = 0;
  };
  recs.forEach((r, i) => {
    if (skip(r)) {
      flush(i);
      start = i + 1;
    } else max = Math.max(max, len(r));
  });
  flush(recs.length);
  return lens;
}

function expand(b: string, node: Text, d: '' | '-' | '+', n: number): string {
  if (node.kind === 'line') return b + node.s;
  if (node.kind === 'wrap') return expand(b + node.prefix, node.value, d, n) + node.suffix;
  const recs = node.recs;
  const keyLens = alignLens(recs, (r) => r.key === '' || !isLine(r.value), (r) => [...r.key].length);
  const valueLens = alignLens(recs, (r) => !isLine(r.value) || isEllipsis(r.value) || !r.comment, (r) => [...(r.value as { s: string }).s].length);
  const simple = recs.length > 0 && recs.every((r) => r.diff === '' && r.key === '' && isLine(r.value) && !r.comment);
  if (simple) {
    let batch = '';
    const emit = () => {
      if (batch.length > 0) {
        b += `\n${indent(n + 1, d)}${batch.replace(/ +$/, '')}`;
        batch = '';
      }
    };
    for (const r of recs) {
      const s = (r.value as { s: string }).s;
      if (batch.length + s.length + 2 > maxColumnLength) emit();
      batch += `${s}, `;
    }
    emit();
    return `${b}\n${indent(n, d)}`;
  }
  recs.forEach((r, i) => {
    const dd = r.diff !== '' ? r.diff : d;
    b += `\n${indent(n + 1, dd)}`;
    if (r.key !== '') b += `${r.key}: `;
    b += ' '.repeat(keyLens[i]!);
    b = expand(b, r.value, dd, n + 1);
    if (!r.elideComma) b += ',';
    b += ' '.repeat(valueLens[i]!);
    if (r.comment) b += ` // ${statsString(r.comment)}`;
  });
  return `${b}\n${indent(n, d)}`;
}

export function render(node: Text): string {
  const [, c] = compact('', node, '');
  return `${expand(indent(0, ''), c, '', 0)}\n`;
}
