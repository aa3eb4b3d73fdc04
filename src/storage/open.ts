import { DEFAULT_RETENTION, type HistoryRetention } from './history-retention.js';
import { MemoryStorage } from './memory.js';
import type { Storage } from './types.js';

export type StorageBackend = 'memory' | 'lmdb' | 'etcd';

export interface OpenStorageOptions {
  backend: StorageBackend;
  /** lmdb: the data directory (`--data-dir`); the database lives in `<dataDir>/db`. */
  dataDir?: string;
  /** etcd: client URLs (`--etcd-servers`). */
  etcdServers?: readonly string[];
  /**
   * How much history is kept for watches and snapshot reads (continue tokens expire with it):
   * memory and lmdb compact what is older and further behind; etcd is compacted at this interval.
   */
  history?: { minAgeMs: number; minRevisions: number };
  /** Where the storage reports what an operator must act on (lmdb: a full disk). */
  log?: (fields: Record<string, unknown>) => void;
}

function retentionOf(opts: OpenStorageOptions): HistoryRetention {
  return opts.history ? { ...DEFAULT_RETENTION, ...opts.history } : DEFAULT_RETENTION;
}

/**
 * Opens the backend a component was configured with. lmdb and etcd are loaded on demand so that
 * a memory-only process never loads their native/gRPC modules.
 */
export async function openStorage(opts: OpenStorageOptions): Promise<Storage> {
  switch (opts.backend) {
    case 'memory':
      return new MemoryStorage({ retention: retentionOf(opts) });
    case 'lmdb': {
      if (!opts.dataDir) throw new Error('storage lmdb needs a data directory (--data-dir)');
      const { LmdbStorage } = await import('./lmdb/lmdb-storage.js');
      return LmdbStorage.open({ dataDir: `${opts.dataDir.replace(/\/+$/, '')}/db`, retention: retentionOf(opts), ...(opts.log ? { log: opts.log } : {}) });
    }
    case 'etcd': {
      if (!opts.etcdServers || opts.etcdServers.length === 0) throw new Error('storage etcd needs --etcd-servers');
      const { EtcdStorage } = await import('./etcd/etcd-storage.js');
      return EtcdStorage.open({ endpoints: [...opts.etcdServers], compactionIntervalMs: retentionOf(opts).minAgeMs });
    }
    default:
      throw new Error(`unknown storage backend ${JSON.stringify((opts as { backend: unknown }).backend)} (memory, lmdb or etcd)`);
  }
}

/** Parses `--etcd-servers` (comma-separated URLs), refusing anything that is not an http(s) URL. */
export function parseEtcdServers(value: string): string[] {
  const urls = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  if (urls.length === 0) throw new Error('--etcd-servers needs at least one URL');
  for (const u of urls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw new Error(`--etcd-servers: ${JSON.stringify(u)} is not a URL`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`--etcd-servers: ${JSON.stringify(u)} must be http:// or https://`);
    }
  }
  return urls;
}
