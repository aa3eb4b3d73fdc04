// A TCP proxy on a loopback port that tests put between a client and a server to inject network
// faults deterministically: cut every connection, swallow the server's answers, or go silent.
import net from 'node:net';

export type ProxyMode =
  /** Bytes flow both ways. */
  | 'pass'
  /** Requests reach the server, answers never reach the client: writes apply, callers time out. */
  | 'drop-responses'
  /** Connections stay open but nothing flows either way (a partition without resets). */
  | 'blackhole'
  /** Every connection is reset, new ones too (a crashed or unreachable server). */
  | 'refuse';

export interface TcpProxy {
  /** http://127.0.0.1:<port>, to use as an etcd endpoint. */
  url: string;
  port: number;
  mode: ProxyMode;
  /** Switches mode; 'refuse' also resets every open connection at once. */
  setMode(mode: ProxyMode): void;
  /** Connections accepted so far (a reconnect shows up here). */
  connections: number;
  /** Bytes from clients swallowed by 'blackhole' (a request sent into the void shows up here). */
  swallowed: number;
  close(): Promise<void>;
}

export async function startTcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    proxy.connections++;
    if (proxy.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (proxy.mode === 'pass' || proxy.mode === 'drop-responses') upstream.write(chunk);
      else proxy.swallowed += chunk.length;
    });
    upstream.on('data', (chunk) => {
      if (proxy.mode === 'pass') client.write(chunk);
    });
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  const proxy: TcpProxy = {
    url: `http://127.0.0.1:${port}`,
    port,
    mode: 'pass',
    connections: 0,
    swallowed: 0,
    setMode(mode) {
      proxy.mode = mode;
      if (mode === 'refuse') {
        for (const { client, upstream } of [...pairs]) {
          client.resetAndDestroy();
          upstream.destroy();
        }
        pairs.clear();
      }
    },
    async close() {
      proxy.setMode('refuse');
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
