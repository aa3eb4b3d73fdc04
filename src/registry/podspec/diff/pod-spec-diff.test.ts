// The go-cmp diff of refused pod updates. The first case is checked against kube-apiserver's text
// (error vector pod-update-forbidden-field, in vectors.test.ts); these pin the reporter's rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ephemeralContainerDiff, podSpecDiff } from './pod-spec-diff.js';
import { created, ctxFor, edit, kindOf, lines, subresourceStrategyFor } from '../../kinds/kinds.testutil.js';

const spec = (created('Pod.pb.json') as any).spec;
const diff = (fn: (s: any) => void) => podSpecDiff(spec, edit(spec, fn));

test('a changed scalar: -/+ lines, two fields of context, the rest counted', () => {
  assert.equal(
    diff((s) => (s.terminationGracePeriodSeconds = 60)),
    [
      '  core.PodSpec{',
      '  \t... // 3 identical fields',
      '  \tEphemeralContainers:           nil,',
      '  \tRestartPolicy:                 "Always",',
      '- \tTerminationGracePeriodSeconds: &45,',
      '+ \tTerminationGracePeriodSeconds: &60,',
      '  \tActiveDeadlineSeconds:         &3600,',
      '  \tDNSPolicy:                     "None",',
      '  \t... // 25 identical fields',
      '  }',
      '',
    ].join('\n'),
  );
  assert.equal(podSpecDiff(spec, spec), '', 'no diff when nothing changed');
});

test('host namespaces live in the internal PodSecurityContext', () => {
  const text = diff((s) => (s.hostNetwork = true));
  assert.match(text, /\n  \tSecurityContext: &core\.PodSecurityContext\{\n- \t\tHostNetwork: false,\n\+ \t\tHostNetwork: true,\n/);
});

test('nested changes descend into lists and structs with their type names', () => {
  const text = diff((s) => (s.containers[0].ports[0].containerPort = 81));
  assert.match(text, /\n  \tContainers: \[\]core\.Container\{\n  \t\t\{\n/);
  assert.match(text, /\n- \t\t\t\t\tContainerPort: 8080,\n\+ \t\t\t\t\tContainerPort: 81,\n/);
  const added = diff((s) => s.volumes.push({ name: 'extra', emptyDir: {} }));
  assert.match(added, /\n  \tVolumes: \[\]core\.Volume\{\n  \t\t\.\.\. \/\/ 9 identical elements\n/);
  assert.match(added, /\n\+ \t\t\{\n\+ \t\t\tName: "extra",\n/);
});

test('pods/ephemeralcontainers: only additions; existing ones may not change (with their diff)', () => {
  const old = edit(created('Pod.pb.json'), (p) => (p.spec.ephemeralContainers = [{ name: 'debug', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' }]));
  const k = kindOf(old);
  const s = subresourceStrategyFor('', 'pods', 'ephemeralcontainers')!;
  const ctx = ctxFor(k);
  const add = edit(old, (p) => {
    p.spec.ephemeralContainers.push({ name: 'debug2', image: 'busybox', terminationMessagePolicy: 'File', imagePullPolicy: 'Always' });
    p.spec.restartPolicy = 'Never';
  });
  s.prepareForUpdate!(add, old, ctx);
  assert.equal((add.spec as any).restartPolicy, 'Always', 'only spec.ephemeralContainers is taken from the request');
  assert.deepEqual(lines(s.validateUpdate(add, old, ctx)), []);
  const changed = edit(old, (p) => (p.spec.ephemeralContainers[0].image = 'alpine'));
  s.prepareForUpdate!(changed, old, ctx);
  const errs = lines(s.validateUpdate(changed, old, ctx));
  assert.equal(errs.length, 1);
  assert.ok(errs[0]!.startsWith('spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be changed\n  core.EphemeralContainer{\n'));
  assert.match(ephemeralContainerDiff({ name: 'a', image: 'x' }, { name: 'a', image: 'y' }), /- \t\tImage: +"x",\n\+ \t\tImage: +"y",/);
  const removed = edit(old, (p) => (p.spec.ephemeralContainers = []));
  s.prepareForUpdate!(removed, old, ctx);
  assert.deepEqual(lines(s.validateUpdate(removed, old, ctx)), ['spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be removed\n']);
});
