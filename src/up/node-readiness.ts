// How many of the cluster's Nodes are Ready with a heartbeat of this start, for `up`'s readiness
// wait: one list, then a watch from its resourceVersion. Polling the whole list instead made a
// 10,000-node start parse ~30 MB of JSON per poll (8 cpu-s of the supervisor's, on the cores the
// API server needs); the watch brings each Node again only when it changes.
import type { ClientRequest } from 'node:http';
import { get as httpsGet, type Agent } from 'node:https';

interface NodeObject {
  metadata?: { name?: string; resourceVersion?: string };
  status?: { conditions?: Array<{ type: string; status: string; lastHeartbeatTime?: string }> };
}

interface WatchEvent {
  type?: string;
  object?: NodeObject & { code?: number };
}

export class NodeReadiness {
  private readonly ready = new Set<string>();
  private watch: ClientRequest | undefined;
  private closed = false;
  /** Heartbeats from before this second are an earlier run's: stored Nodes still say Ready after a restart. */
  private readonly freshFrom: number;

  constructor(
    private readonly agent: Agent,
    private readonly server: string,
    /** When this start began (ms since the epoch). */
    since: number,
    private readonly list: (url: string) => Promise<{ status: number; body: Record<string, unknown> | undefined }>,
  ) {
    this.freshFrom = Math.floor(since / 1000) * 1000;
  }

  /** How many Nodes are Ready now: lists them first when no watch is running (the first call, or after a watch ended). */
  async count(): Promise<number> {
    if (this.watch === undefined && !this.closed) {
      const res = await this.list(`${this.server}/api/v1/nodes`);
      if (res.status !== 200 || res.body === undefined) return this.ready.size;
      this.ready.clear();
      for (const n of (res.body.items ?? []) as NodeObject[]) this.observe('ADDED', n);
      const rv = (res.body.metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
      if (rv !== undefined) this.startWatch(rv);
    }
    return this.ready.size;
  }

  close(): void {
    this.closed = true;
    this.watch?.destroy();
    this.watch = undefined;
  }

  private isReady(n: NodeObject): boolean {
    return n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True' && c.lastHeartbeatTime !== undefined && Date.parse(c.lastHeartbeatTime) >= this.freshFrom) ?? false;
  }

  private observe(type: string, n: NodeObject): void {
    const name = n.metadata?.name;
    if (name === undefined) return;
    if (type !== 'DELETED' && this.isReady(n)) this.ready.add(name);
    else this.ready.delete(name);
  }

  private startWatch(resourceVersion: string): void {
    const url = `${this.server}/api/v1/nodes?watch=true&allowWatchBookmarks=true&resourceVersion=${encodeURIComponent(resourceVersion)}`;
    const req = httpsGet(url, { agent: this.agent, headers: { accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        ended();
        return;
      }
      let pending = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        pending += text;
        let nl: number;
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          if (line.trim() === '') continue;
          let event: WatchEvent;
          try {
            event = JSON.parse(line) as WatchEvent;
          } catch {
            req.destroy();
            return;
          }
          // an ERROR event (410 Gone: the resourceVersion is too old) ends this watch: the next count lists again
          if (event.type === 'ERROR') req.destroy();
          else if (event.type !== 'BOOKMARK' && event.object && event.type) this.observe(event.type, event.object);
        }
      });
      res.on('end', ended);
      res.on('error', ended);
    });
    const ended = () => {
      if (this.watch === req) this.watch = undefined;
    };
    req.on('error', ended);
    req.on('close', ended);
    this.watch = req;
  }
}
