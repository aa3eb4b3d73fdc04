// `kubelite apiserver`: the API server alone, until SIGINT/SIGTERM.
import { InvalidArgumentError } from 'commander';
import { startApiServer } from '../apiserver/server.js';
import { parseEtcdServers } from '../storage/open.js';
import { parseChoice, parseOrExit, parsePort, program } from './flags.js';

export async function apiserverMain(argv: string[]): Promise<number> {
  const cmd = program('apiserver', 'Serve the Kubernetes Workload Resource API (HTTP) over embedded or etcd storage.')
    .option('--storage <backend>', 'storage backend: lmdb (embedded, durable), memory or etcd', parseChoice(['lmdb', 'memory', 'etcd'] as const), 'lmdb')
    .option('--data-dir <dir>', 'directory of the lmdb database', './.kubelite')
    .option('--etcd-servers <urls>', 'comma-separated etcd client URLs (with --storage etcd)', (v: string) => {
      try {
        return parseEtcdServers(v);
      } catch (err) {
        throw new InvalidArgumentError((err as Error).message);
      }
    })
    .option('--bind-address <ip>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 6443);
  const code = parseOrExit(cmd, argv);
  if (code !== undefined) return code;
  const o = cmd.opts<{ storage: 'lmdb' | 'memory' | 'etcd'; dataDir: string; etcdServers?: string[]; bindAddress: string; port: number }>();
  if (o.storage === 'etcd' && !o.etcdServers) {
    process.stderr.write('kubelite apiserver: --storage etcd needs --etcd-servers\n');
    return 2;
  }
  const server = await startApiServer({
    storage: o.storage,
    dataDir: o.dataDir,
    etcdServers: o.etcdServers,
    bindAddress: o.bindAddress,
    port: o.port,
  });
  process.stdout.write(`ready: server=${server.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
