// The API server's /metrics: its request counter and latency histogram, kept here (a Map lookup
// per request), in Prometheus' text format, followed by the process and Node.js metrics
// (machinery/process-metrics.ts, loaded on the first scrape).
import { processMetricsText } from '../machinery/process-metrics.js';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

interface RequestLabels {
  verb: string;
  group: string;
  resource: string;
}

interface LatencySeries {
  labels: string;
  /** Observations per bucket (not cumulative), the last one +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

/** A label value as Prometheus' text format writes it. */
function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(l: RequestLabels): string {
  return `verb="${escapeLabel(l.verb)}",group="${escapeLabel(l.group)}",resource="${escapeLabel(l.resource)}"`;
}

/** Go's strconv.FormatFloat(v, 'g', -1, 64) for the values these metrics hold, as prom-client writes them. */
function num(v: number): string {
  if (v === Infinity) return '+Inf';
  return String(v);
}

export class ApiServerMetrics {
  private readonly requests = new Map<string, { labels: string; value: number }>();
  private readonly latency = new Map<string, LatencySeries>();

  constructor(
    /** Watchers cut off for falling behind, and watch events sent, by resource, since start (the watch cache's counts). */
    private readonly terminatedWatchers: () => Array<{ resource: string; terminated: number; eventsSent?: number }> = () => [],
  ) {}

  /** One finished request. */
  request(l: RequestLabels, code: number): void {
    const key = `${l.verb}\u0000${l.group}\u0000${l.resource}\u0000${code}`;
    const c = this.requests.get(key);
    if (c !== undefined) c.value++;
    else this.requests.set(key, { labels: `${labelText(l)},code="${code}"`, value: 1 });
  }

  /** The latency of a finished request (watches excluded). */
  observe(l: RequestLabels, seconds: number): void {
    const key = `${l.verb}\u0000${l.group}\u0000${l.resource}`;
    let s = this.latency.get(key);
    if (s === undefined) this.latency.set(key, (s = { labels: labelText(l), counts: new Array<number>(BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    s.counts[i]!++;
    s.sum += seconds;
    s.count++;
  }

  /** The exposition text: these metrics, then prom-client's process and Node.js metrics. */
  async render(): Promise<string> {
    const defaults = await processMetricsText();
    const out: string[] = [
      '# HELP apiserver_request_total Requests by verb, group, resource and HTTP code.',
      '# TYPE apiserver_request_total counter',
    ];
    for (const c of this.requests.values()) out.push(`apiserver_request_total{${c.labels}} ${c.value}`);
    out.push(
      '',
      '# HELP apiserver_request_duration_seconds Request latency by verb and resource (watches excluded).',
      '# TYPE apiserver_request_duration_seconds histogram',
    );
    for (const s of this.latency.values()) {
      let cumulative = 0;
      for (let i = 0; i <= BUCKETS.length; i++) {
        cumulative += s.counts[i]!;
        out.push(`apiserver_request_duration_seconds_bucket{le="${num(BUCKETS[i] ?? Infinity)}",${s.labels}} ${cumulative}`);
      }
      out.push(`apiserver_request_duration_seconds_sum{${s.labels}} ${num(s.sum)}`);
      out.push(`apiserver_request_duration_seconds_count{${s.labels}} ${s.count}`);
    }
    out.push('', '# HELP apiserver_terminated_watchers_total Counter of watchers closed due to unresponsiveness broken by resource type.', '# TYPE apiserver_terminated_watchers_total counter');
    const watched = this.terminatedWatchers();
    for (const w of watched) if (w.terminated > 0) out.push(`apiserver_terminated_watchers_total{resource="${escapeLabel(w.resource)}"} ${w.terminated}`);
    out.push('', '# HELP apiserver_watch_events_total Number of events sent in watch clients.', '# TYPE apiserver_watch_events_total counter');
    for (const w of watched) if ((w.eventsSent ?? 0) > 0) out.push(`apiserver_watch_events_total{resource="${escapeLabel(w.resource)}"} ${w.eventsSent}`);
    return `${out.join('\n')}\n\n${defaults}`;
  }
}
