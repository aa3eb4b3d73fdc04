// The horizontal pod autoscaler on `kubelite up`, through kubectl: `kubectl autoscale` of a
// Deployment with CPU requests; the simulated usage (the kubelite.dev/usage pod annotation) goes
// up and the Deployment is scaled up (at most doubling at a time without `behavior`), `kubectl get
// hpa` shows the target; usage goes down and it scales back to its minimum. The periods are
// shortened with the controller manager's flags.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const NS = 'hpa';
const k = (args: string[], input?: string) => kubectlOk(cluster.kubeconfig, ['-n', NS, ...args], { input });
const replicas = async () => Number(await k(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']));

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: c
        image: nginx
        resources:
          requests:
            cpu: 100m
`;

describe('kubelite up: HorizontalPodAutoscaler', () => {
  before(async () => {
    cluster = await startCluster({
      nodes: 2,
      args: {
        controllerManager: [
          '--horizontal-pod-autoscaler-sync-period=1s',
          '--horizontal-pod-autoscaler-cpu-initialization-period=1s',
          '--horizontal-pod-autoscaler-upscale-delay=0s',
          '--horizontal-pod-autoscaler-downscale-stabilization=1s',
        ],
      },
    });
    await kubectlOk(cluster.kubeconfig, ['create', 'namespace', NS]);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('scales a Deployment up and back down as the CPU usage changes', async () => {
    await k(['apply', '-f', '-'], DEPLOYMENT);
    await k(['rollout', 'status', 'deployment/web', '--timeout=60s']);
    await k(['autoscale', 'deployment', 'web', '--min=1', '--max=6', '--cpu-percent=50']);
    // half the request by default: on target, nothing to do
    await waitFor(async () => /cpu: 50%\/50%/.test(await k(['get', 'hpa', 'web'])), 'the HPA reads 50%', 30_000);
    assert.equal(await replicas(), 2);

    await k(['annotate', 'pods', '-l', 'app=web', 'kubelite.dev/usage=cpu=180m']);
    await waitFor(async () => (await replicas()) >= 4, 'scaled up', 30_000);
    const events = await k(['get', 'events', '--field-selector', 'reason=SuccessfulRescale', '-o', 'jsonpath={.items[*].message}']);
    assert.match(events, /New size: 4; reason: cpu resource utilization \(percentage of request\) above target/);
    assert.match(await k(['get', 'hpa', 'web']), /web\s+Deployment\/web\s+cpu: \d+%\/50%\s+1\s+6\s+\d+/);

    await k(['annotate', 'pods', '-l', 'app=web', '--overwrite', 'kubelite.dev/usage=cpu=5m']);
    await waitFor(async () => (await replicas()) === 1, 'scaled down to the minimum', 60_000);
    const described = await k(['describe', 'hpa', 'web']);
    assert.match(described, /ScalingActive\s+True\s+ValidMetricFound/);
  });
});
