/** What every benchmark returns: rows of measured figures, with the targets they are judged by. */
export interface BenchRow {
  /** What was measured, e.g. "creates/s, 64 writers". */
  metric: string;
  /** One column per system compared (e.g. lmdb, etcd). */
  values: Record<string, number | string>;
  unit: string;
  /** The target, in words, when there is one. */
  target?: string;
  /** Whether the target is met (undefined when there is no target). */
  met?: boolean;
}

export interface BenchReport {
  name: string;
  columns: string[];
  rows: BenchRow[];
  notes?: string[];
}

function fmt(v: number | string | undefined): string {
  if (v === undefined) return '-';
  if (typeof v === 'string') return v;
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2);
}

/** A plain-text table (also valid Markdown) of a report. */
export function formatTable(report: BenchReport): string {
  const header = ['metric', ...report.columns, 'unit', 'target', 'met'];
  const lines = report.rows.map((r) => [
    r.metric,
    ...report.columns.map((c) => fmt(r.values[c])),
    r.unit,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [`## ${report.name}`, '', row(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(row)];
  for (const n of report.notes ?? []) out.push('', n);
  return out.join('\n');
}

/** The q-th quantile (0..1) of an unsorted sample. */
export function quantile(sample: number[], q: number): number {
  if (sample.length === 0) return NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}
