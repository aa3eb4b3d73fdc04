// kubelite as its users get it: `npm pack`, the tarball installed into an empty directory, then
// the CLI run through npx (up, status, down, --kubeconfig-context) and the library imported as
// 'kubelite' by a TypeScript program compiled against its .d.ts (await using, crds, manifests),
// and a program that starts a cluster and is killed with SIGKILL (its components go too). Packed
// and installed once for the whole file; --ignore-scripts because the build is there already
// (prepack would rebuild dist/ under the other tests' feet).
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { kubectlOk } from '../support/kubectl.js';
import { childPids, isAlive } from '../support/procs.js';
import { waitFor } from '../support/wait.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

let work: string;
let app: string;
let tarball: string;
let files: string[];

/** Runs a command of the installed package (`npx kubelite ...` in the app directory). */
function npx(args: string[], env: NodeJS.ProcessEnv = process.env): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('npx', ['--no-install', 'kubelite', ...args], { cwd: app, encoding: 'utf8', env, timeout: 90_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Output of a child so far, and a wait for a line matching `re`. */
function watch(child: ChildProcess): { out: () => string; line: (re: RegExp) => Promise<RegExpExecArray> } {
  let out = '';
  child.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
  return { out: () => out, line: (re) => waitFor(() => re.exec(out), `${re} in:\n${out}`, 60_000) };
}

describe('kubelite as an installed package', () => {
  before(() => {
    work = mkdtempSync(join(tmpdir(), 'kubelite-package-'));
    const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work, ...NPM_QUIET], { cwd: ROOT, encoding: 'utf8' })) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(work, packed[0]!.filename);
    files = packed[0]!.files.map((f) => f.path);
    app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    execFileSync('npm', ['install', ...NPM_QUIET, tarball], { cwd: app, stdio: 'ignore' });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it('the tarball holds what runs: the CLI bundle, the library and its types — no tests, test helpers or source maps', () => {
    for (const needed of ['package.json', 'dist/bundle/cli/kubelite.js', 'dist/bundle/cli/kubelite.cjs', 'dist/src/up/index.js', 'dist/src/up/index.d.ts', 'dist/src/client/index.d.ts']) {
      assert.ok(files.includes(needed), `${needed} is packed`);
    }
    assert.deepEqual(files.filter((f) => /\.test\.|\.map$|testutil|test-helpers|test-support|^test\/|^bench\/|^src\//.test(f)), []);
    // the installed package resolves nothing from the dev dependencies
    assert.equal(existsSync(join(app, 'node_modules', 'esbuild')), false);
    assert.equal(existsSync(join(app, 'node_modules', 'typescript')), false);
    assert.match(npx(['--version']).stdout, /^kubelite \d+\.\d+\.\d+ \(Kubernetes API v1\.\d+\.\d+, node v\d+/);
  });

  it('npx kubelite up reaches ready, kubectl sees the nodes, status reports it, down stops it and removes its kubeconfig context', async () => {
    const dataDir = join(work, 'up');
    // a user kubeconfig with a context of its own, which must survive the merge and the removal
    const userKubeconfig = join(work, 'user-kubeconfig');
    writeFileSync(userKubeconfig, 'apiVersion: v1\nkind: Config\nclusters:\n- name: other\n  cluster: {server: "https://192.0.2.1:6443"}\nusers:\n- name: other\n  user: {token: abc}\ncontexts:\n- name: other\n  context: {cluster: other, user: other}\ncurrent-context: other\n');
    const env = { ...process.env, KUBECONFIG: userKubeconfig };
    const up = spawn('npx', ['--no-install', 'kubelite', 'up', '--port', '0', '--nodes', '1', '--data-dir', dataDir, '--kubeconfig-context'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((r) => up.once('exit', (code) => r(code)));
    const output = watch(up);
    try {
      const [, kubeconfig] = await output.line(/^ready: kubeconfig=(\S+) server=(\S+)$/m);
      await output.line(/^\s+kubectl get nodes/m);
      assert.match(await kubectlOk(kubeconfig!, ['get', 'nodes', '-o', 'name']), /^node\/kubelite-node-0$/m);
      // the merged context is the current one: kubectl with no --kubeconfig reaches the cluster
      assert.equal(await kubectlOk(userKubeconfig, ['get', 'nodes', '-o', 'name']), 'node/kubelite-node-0\n');

      const status = npx(['status', '--data-dir', dataDir]);
      assert.equal(status.status, 0, status.stderr);
      assert.match(status.stdout, /^running: pid=\d+ server=https:\/\/127\.0\.0\.1:\d+ kubeconfig=\S+ 1\/1 nodes Ready context=kubelite in /);
      const upPid = Number(/pid=(\d+)/.exec(status.stdout)![1]);
      const components = childPids(upPid);
      assert.equal(components.length, 4, 'apiserver, controller-manager, scheduler, nodes');

      const down = npx(['down', '--data-dir', dataDir]);
      assert.equal(down.status, 0, down.stderr);
      assert.equal(await exited, 0);
      assert.deepEqual(components.filter(isAlive), [], 'no component left running');
      assert.equal(existsSync(join(dataDir, 'kubelite.pid')), false);
      const user = parse(readFileSync(userKubeconfig, 'utf8')) as { contexts: Array<{ name: string }>; clusters: Array<{ name: string }>; users: Array<{ name: string }>; 'current-context': string };
      assert.deepEqual([user.contexts.map((c) => c.name), user.clusters.map((c) => c.name), user.users.map((u) => u.name)], [['other'], ['other'], ['other']]);
      assert.equal(user['current-context'], '');
      // the start was told in stages; the components' routine logs (their own ready lines among
      // them) were not shown, and the stop was quiet
      const told = output.out();
      assert.match(told, /\[up\] waiting for the API server/);
      assert.doesNotMatch(told, /\] ready:|"level":"info"|exited \(/);

      const again = npx(['status', '--data-dir', dataDir]);
      assert.equal(again.status, 1);
      assert.match(again.stdout, /^stopped: /);
    } finally {
      if (up.exitCode === null) up.kill('SIGKILL');
    }
  });

  it('a port in use and unknown flags are one-line errors that say what to do', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (holder.address() as AddressInfo).port;
      const r = npx(['up', '--port', String(port), '--data-dir', join(work, 'busy')]);
      assert.equal(r.status, 1);
      assert.equal(r.stderr, `kubelite up: port ${port} is in use: pass --port 0 or stop the process holding it\n`);
    } finally {
      holder.close();
    }
    const usage = npx(['up', '--no-such-flag']);
    assert.equal(usage.status, 2);
    assert.equal(usage.stderr, "kubelite up: unknown option '--no-such-flag'\n");
  });

  it("the library: import { startCluster } from 'kubelite' in TypeScript, await using, CRDs Established and manifests applied before ready", () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: { group: 'example.com', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
    };
    const manifests = join(app, 'manifests');
    mkdirSync(manifests);
    writeFileSync(join(manifests, 'objects.yaml'), 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: first}\nspec: {size: 3}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: kube-public}\ndata: {mode: test}\n');
    writeFileSync(
      join(app, 'suite.ts'),
      `import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startCluster, type Cluster, type ClusterOptions } from 'kubelite';

const options: ClusterOptions = { nodes: 1, storage: 'memory', crds: [${JSON.stringify(crd)}], manifests: ['manifests'] };
let dataDir = '';
{
  await using cluster: Cluster = await startCluster(options);
  dataDir = cluster.dataDir;
  const get = (what: string[]) => execFileSync('kubectl', ['--kubeconfig', cluster.kubeconfig, 'get', ...what, '-o', 'json'], { encoding: 'utf8' });
  const crd = JSON.parse(get(['crd', 'widgets.example.com']));
  const widget = JSON.parse(get(['widgets', 'first']));
  const settings = JSON.parse(get(['configmap', 'settings', '-n', 'kube-public']));
  const clientNode = await cluster.kubeConfig().then(() => 'loaded', (e: Error) => e.message);
  console.log(JSON.stringify({
    established: crd.status.conditions.find((c: { type: string }) => c.type === 'Established')?.status,
    widget: widget.spec,
    settings: settings.data,
    yamlServer: cluster.kubeconfigYaml.includes(cluster.server),
    clientNode,
  }));
}
console.log(JSON.stringify({ dataDirRemoved: !existsSync(dataDir) }));
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'ESNext.Disposable'], strict: true, skipLibCheck: true, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] },
        files: ['suite.ts'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], { encoding: 'utf8' });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    const run = spawnSync(process.execPath, ['suite.js'], { cwd: app, encoding: 'utf8', timeout: 90_000 });
    assert.equal(run.status, 0, run.stderr);
    const [inside, afterwards] = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(inside, {
      established: 'True',
      widget: { size: 3 },
      settings: { mode: 'test' },
      yamlServer: true,
      // client-node is an optional peer dependency, not installed here: a clear message says so
      clientNode: 'cluster.kubeConfig() needs @kubernetes/client-node: install it with npm install --save-dev @kubernetes/client-node',
    });
    assert.deepEqual(afterwards, { dataDirRemoved: true });
  });

  it('the components of a cluster exit when the process that started it is killed with SIGKILL', async () => {
    writeFileSync(join(app, 'crash.mjs'), "import { startCluster } from 'kubelite';\nconst c = await startCluster({ nodes: 1, storage: 'memory' });\nconsole.log('started ' + c.dataDir);\nsetInterval(() => {}, 60_000);\n");
    const owner = spawn(process.execPath, ['crash.mjs'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [, dataDir] = await watch(owner).line(/^started (\S+)$/m);
      const components = childPids(owner.pid!);
      assert.equal(components.length, 4);
      owner.kill('SIGKILL');
      await waitFor(() => components.every((pid) => !isAlive(pid)), 'every component gone after its owner was killed', 30_000);
      rmSync(dataDir!, { recursive: true, force: true }); // a killed process removes nothing itself
    } finally {
      if (owner.exitCode === null) owner.kill('SIGKILL');
    }
  });
});
