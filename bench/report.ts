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
  /** The machine measured in the same run (bench/ceiling.ts); bench/main.ts measures what a benchmark did not. */
  ceiling?: Ceiling;
  /** Raw measurements kept in the JSON file beside the table (e.g. the soak's per-minute samples). */
  samples?: unknown[];
}

/** What this machine can do, measured in the same run as a benchmark. */
export interface Ceiling {
  /** Pod JSON bodies/s a bare Node HTTP server parses and echoes at 32 clients. */
  bareServerPerSecond?: number;
  /** The same over HTTPS as kubelite serves it: what TLS alone leaves of the bare rate. */
  bareTlsServerPerSecond?: number;
  /** ms for `node -e 0` to spawn and exit (median). */
  spawnMs?: number;
  /** RSS in MiB of a bare idle node process (`node -e 'setInterval(() => {}, 1000)'`): a Node process's floor. */
  idleNodeRssMiB?: number;
}

/** Rates of requests or objects, not of bytes: those are read against the bare server's rate. */
const isRate = (unit: string) => /\/s\b/.test(unit) && !/B\/s/.test(unit);
/** Start times: read against a bare node spawn. */
const isStartTime = (metric: string, unit: string) => /^m?s$/.test(unit) && /\b(spawn|start|ready|readyz)\b/i.test(metric);

/** Resident memory: read against a bare idle node process. */
const isResidentMemory = (metric: string, unit: string) => unit === 'MiB' && /\b(RSS|PSS)\b/.test(metric);

/**
 * A row's first figure read against the machine: a rate as a fraction of the bare server's, a
 * start time as a multiple of a bare spawn, resident memory as a multiple of a bare idle node
 * process's; '' for other rows.
 */
export function againstMachine(row: BenchRow, firstColumn: string, ceiling: Ceiling): string {
  const v = row.values[firstColumn];
  if (typeof v !== 'number' || !Number.isFinite(v)) return '';
  if (isRate(row.unit) && ceiling.bareServerPerSecond) return `${((100 * v) / ceiling.bareServerPerSecond).toFixed(v * 100 < ceiling.bareServerPerSecond ? 1 : 0)}% of bare server`;
  if (isStartTime(row.metric, row.unit) && ceiling.spawnMs) return `${((row.unit === 's' ? v * 1000 : v) / ceiling.spawnMs).toFixed(1)}× spawn`;
  if (isResidentMemory(row.metric, row.unit) && ceiling.idleNodeRssMiB) return `${(v / ceiling.idleNodeRssMiB).toFixed(1)}× a bare node`;
  return '';
}

function fmt(v: number | string | undefined): string {
  if (v === undefined) return '-';
  if (typeof v === 'string') return v;
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2);
}

/** A plain-text table (also valid Markdown) of a report. */
export function formatTable(report: BenchReport): string {
  const ceiling = report.ceiling;
  const machine = ceiling !== undefined && report.rows.some((r) => againstMachine(r, report.columns[0]!, ceiling) !== '');
  const header = ['metric', ...report.columns, 'unit', ...(machine ? ['against the machine'] : []), 'target', 'met'];
  const lines = report.rows.map((r) => [
    r.metric,
    ...report.columns.map((c) => fmt(r.values[c])),
    r.unit,
    ...(machine ? [againstMachine(r, report.columns[0]!, ceiling!)] : []),
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [`## ${report.name}`, '', row(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(row)];
  for (const n of report.notes ?? []) out.push('', n);
  if (ceiling !== undefined) {
    const parts = [];
    if (ceiling.bareServerPerSecond !== undefined) parts.push(`a bare Node HTTP server parsed and echoed ${fmt(ceiling.bareServerPerSecond)} pod JSON bodies/s at 32 keep-alive clients`);
    if (ceiling.bareTlsServerPerSecond !== undefined) parts.push(`the same server over HTTPS (TLS 1.3, ECDSA P-256, as kubelite serves) ${fmt(ceiling.bareTlsServerPerSecond)}/s`);
    if (ceiling.spawnMs !== undefined) parts.push(`\`node -e 0\` took ${fmt(ceiling.spawnMs)} ms from spawn to exit`);
    if (ceiling.idleNodeRssMiB !== undefined) parts.push(`a bare idle node process (\`node -e 'setInterval(() => {}, 1000)'\`) was ${fmt(ceiling.idleNodeRssMiB)} MiB resident`);
    out.push('', `The machine in the same run (bench/ceiling.ts): ${parts.join('; ')}. "Against the machine" reads the first column's rates as a fraction of that server's, its start times as multiples of that spawn${ceiling.idleNodeRssMiB !== undefined ? ' and its resident memory as multiples of that process' : ''}.`);
  }
  return out.join('\n');
}

/** The q-th quantile (0..1) of an unsorted sample. */
export function quantile(sample: number[], q: number): number {
  if (sample.length === 0) return NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}
