// HTTP helpers for end-to-end tests that talk to an API server with plain `fetch`: requests with
// the headers kubectl and client-go send, the golden vectors' `*.txt` dumps of a real
// kube-apiserver, watch streams (JSON lines and protobuf frames) read as they arrive, and the
// scrubbing of values that legitimately differ between two servers (uids, timestamps, ...).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StructType } from '../../src/api/schema/dsl.js';
import { Status } from '../../src/api/meta/v1.js';
import { decodeWatchFrame, WatchFrameDecoder } from '../../src/machinery/codec/index.js';
import { waitFor } from './wait.js';
// fetch trusts the test CA and presents the test admin's certificate to HTTPS servers.
import { CERTLESS_DISPATCHER } from './tls.js';
import { TESTDATA } from './vectors.js';

export { TESTDATA };

export function testdata(...path: string[]): Buffer {
  return readFileSync(join(TESTDATA, ...path));
}

export function testdataJson<T = any>(...path: string[]): T {
  return JSON.parse(testdata(...path).toString('utf8')) as T;
}

/** A `<case>.txt` dump: `HTTP <code>`, headers, a blank line, the body. */
export interface Dump {
  status: number;
  /** Lower-cased header name → values, in the order sent. */
  headers: Map<string, string[]>;
  body: string;
}

export function readDump(...path: string[]): Dump {
  const text = testdata(...path).toString('utf8');
  const sep = text.indexOf('\n\n');
  const head = sep === -1 ? text : text.slice(0, sep);
  const body = sep === -1 ? '' : text.slice(sep + 2);
  const [statusLine, ...lines] = head.split('\n');
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(i + 1).trim()]);
  }
  return { status: Number(/^HTTP (\d+)/.exec(statusLine ?? '')?.[1] ?? 0), headers, body };
}

export interface Reply {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json: any;
}

export interface CallOptions {
  body?: string | Uint8Array;
  contentType?: string;
  accept?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export class Client {
  /** `certless`: no client certificate (anonymous unless the headers carry a token); else the test admin's. */
  constructor(
    readonly url: string,
    private readonly opts: { certless?: boolean } = {},
  ) {}

  async call(method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { accept: opts.accept ?? 'application/json', 'user-agent': 'vectors-client/1.0', ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
    const init = { method, headers, body: opts.body, signal: opts.signal, ...(this.opts.certless ? { dispatcher: CERTLESS_DISPATCHER } : {}) };
    const res = await fetch(this.url + path, init as RequestInit);
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown;
    let parseError: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      parseError = err;
    }
    return {
      status: res.status,
      headers: res.headers,
      bytes,
      text,
      get json() {
        if (parseError) throw new Error(`not JSON (HTTP ${res.status}): ${text.slice(0, 300)}`);
        return parsed;
      },
    };
  }

  get(path: string, opts?: CallOptions) {
    return this.call('GET', path, opts);
  }

  post(path: string, body: unknown, opts: CallOptions = {}) {
    return this.call('POST', path, { ...opts, body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) });
  }

  put(path: string, body: unknown, opts: CallOptions = {}) {
    return this.call('PUT', path, { ...opts, body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) });
  }

  patch(path: string, body: unknown, contentType = 'application/merge-patch+json', opts: CallOptions = {}) {
    return this.call('PATCH', path, { ...opts, contentType, body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) });
  }

  delete(path: string, body?: unknown, opts: CallOptions = {}) {
    return this.call('DELETE', path, body === undefined ? opts : { ...opts, body: typeof body === 'string' ? body : JSON.stringify(body) });
  }

  /** POST that must succeed (201/200); returns the created object. */
  async create(path: string, body: unknown): Promise<any> {
    const r = await this.post(path, body);
    if (r.status !== 201 && r.status !== 200) throw new Error(`POST ${path}: HTTP ${r.status}: ${r.text}`);
    return r.json;
  }
}

/** `Warning` response headers as the list of warning texts (fetch joins repeated headers with ", "). */
export function warnings(headers: Headers): string[] {
  const raw = headers.get('warning');
  if (raw === null) return [];
  return raw.split(/, (?=299 )/).map((w) => {
    const m = /^299 - (".*")$/.exec(w);
    return m ? (JSON.parse(m[1]!) as string) : w;
  });
}

/** The texts of a dump's `Warning` headers. */
export function dumpWarnings(d: Dump): string[] {
  return (d.headers.get('warning') ?? []).map((w) => JSON.parse(/^299 - (".*")$/.exec(w)![1]!) as string);
}

const GENERATED_SUFFIX = /[bcdfghjklmnpqrstvwxz2456789]{5}$/;

/**
 * A deep copy with the values that legitimately differ between two servers replaced by
 * placeholders: uids, resourceVersions, timestamps, generated name suffixes, and managedFields
 * (their times and managers depend on the run; tests that care check them) left out. Applies to every nested object with `metadata`.
 */
export function scrub<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => scrub(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = scrub(v);
  const meta = out.metadata;
  if (meta && typeof meta === 'object' && !Array.isArray(meta)) {
    const m = meta as Record<string, unknown>;
    if (typeof m.uid === 'string') m.uid = '<uid>';
    if (typeof m.resourceVersion === 'string') m.resourceVersion = '<rv>';
    if (typeof m.creationTimestamp === 'string') m.creationTimestamp = '<time>';
    if (typeof m.deletionTimestamp === 'string') m.deletionTimestamp = '<time>';
    if (typeof m.continue === 'string') m.continue = '<continue>';
    delete m.managedFields;
    if (typeof m.generateName === 'string' && typeof m.name === 'string' && m.name.startsWith(m.generateName) && GENERATED_SUFFIX.test(m.name.slice(m.generateName.length))) {
      m.name = `${m.generateName}<generated>`;
    }
  }
  return out as T;
}

/** The decoded `{"v","rv","start"}` of a continue token. */
export function decodeToken(token: string): { v: string; rv: number; start: string } {
  return JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { v: string; rv: number; start: string };
}

/** A watch stream read as it arrives: JSON lines or protobuf frames, decoded into events. */
export class WatchStream {
  readonly events: Array<{ type: string; object: any }> = [];
  status = 0;
  contentType = '';
  ended = false;
  error: unknown;
  private readonly abort = new AbortController();
  private done!: Promise<void>;

  private constructor(private readonly objectType: StructType | undefined) {}

  /**
   * Opens `GET path` (a watch) and reads it in the background. `objectType`: decode protobuf
   * frames with this schema (Status for ERROR events); JSON when absent.
   */
  static async open(url: string, path: string, opts: { objectType?: StructType; accept?: string } = {}): Promise<WatchStream> {
    const w = new WatchStream(opts.objectType);
    const accept = opts.accept ?? (opts.objectType ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json');
    const res = await fetch(url + path, { headers: { accept }, signal: w.abort.signal });
    w.status = res.status;
    w.contentType = res.headers.get('content-type') ?? '';
    w.done = w.pump(res);
    return w;
  }

  private async pump(res: Response): Promise<void> {
    const reader = res.body!.getReader();
    const frames = new WatchFrameDecoder();
    let pending = '';
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (this.objectType) {
          for (const f of frames.push(value)) {
            const type = this.objectType;
            const ev = decodeWatchFrame(f, (tm) => (tm.kind === 'Status' ? Status : type));
            this.events.push({ type: ev.type, object: ev.object });
          }
        } else {
          pending += decoder.decode(value, { stream: true });
          let nl: number;
          while ((nl = pending.indexOf('\n')) !== -1) {
            const line = pending.slice(0, nl);
            pending = pending.slice(nl + 1);
            if (line.trim() !== '') this.events.push(JSON.parse(line) as { type: string; object: any });
          }
        }
      }
      if (pending.trim() !== '') this.events.push(JSON.parse(pending) as { type: string; object: any });
      if (this.objectType) frames.end();
    } catch (err) {
      if (!this.abort.signal.aborted) this.error = err;
    } finally {
      this.ended = true;
    }
  }

  /** Waits until at least `n` events arrived (or `check` holds). */
  async waitForEvents(n: number, what = `${n} watch events`, timeoutMs = 10_000): Promise<Array<{ type: string; object: any }>> {
    await waitFor(() => {
      if (this.error) throw this.error;
      if (this.ended && this.events.length < n) throw new Error(`watch ended after ${this.events.length} events, waiting for ${what}: ${JSON.stringify(this.types())}`);
      return this.events.length >= n;
    }, what, timeoutMs);
    return this.events.slice(0, n);
  }

  /** Waits until the server ends the stream. */
  async waitForEnd(timeoutMs = 15_000): Promise<void> {
    await waitFor(() => this.ended, 'the end of the watch', timeoutMs);
    if (this.error) throw this.error;
  }

  /** The events of a whole recorded protobuf watch stream. */
  static fromBytes(bytes: Uint8Array, objectType: StructType): Array<{ type: string; object: any }> {
    const frames = new WatchFrameDecoder();
    const out = frames.push(bytes).map((f) => {
      const ev = decodeWatchFrame(f, (tm) => (tm.kind === 'Status' ? Status : objectType));
      return { type: ev.type, object: ev.object as any };
    });
    frames.end();
    return out;
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.done;
  }
}
