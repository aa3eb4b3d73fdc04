import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameOf } from '../../api/meta/object.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../../api/types.js';
import { bestVolumeFor } from './claim-matching.js';

const pv = (name: string, o: { size: string; cls?: string; modes?: string[]; labels?: Record<string, string>; phase?: string; claimRef?: object; mode?: string }): PersistentVolume => ({
  metadata: { name, labels: o.labels ?? {} },
  spec: { capacity: { storage: o.size }, accessModes: o.modes ?? ['ReadWriteOnce'], storageClassName: o.cls ?? '', ...(o.claimRef ? { claimRef: o.claimRef } : {}), ...(o.mode ? { volumeMode: o.mode } : {}) },
  status: { phase: o.phase ?? 'Available' },
});
const pvc = (o: { size: string; cls?: string; modes?: string[]; selector?: Record<string, string> } = { size: '1Gi' }): PersistentVolumeClaim => ({
  metadata: { name: 'c', namespace: 'ns', uid: 'u1' },
  spec: { accessModes: o.modes ?? ['ReadWriteOnce'], resources: { requests: { storage: o.size } }, storageClassName: o.cls ?? '', ...(o.selector ? { selector: { matchLabels: o.selector } } : {}) },
});

test('the best volume for a claim: class, mode, access modes, size (smallest that fits), selector, pre-binding', () => {
  const cases: { name: string; claim: PersistentVolumeClaim; volumes: PersistentVolume[]; want?: string }[] = [
    { name: 'smallest that fits', claim: pvc({ size: '2Gi' }), volumes: [pv('a', { size: '10Gi' }), pv('b', { size: '1Gi' }), pv('c', { size: '3Gi' })], want: 'c' },
    { name: 'class must match', claim: pvc({ size: '1Gi', cls: 'fast' }), volumes: [pv('a', { size: '1Gi' }), pv('b', { size: '5Gi', cls: 'fast' })], want: 'b' },
    { name: 'access modes must be offered', claim: pvc({ size: '1Gi', modes: ['ReadWriteMany'] }), volumes: [pv('a', { size: '1Gi' }), pv('b', { size: '1Gi', modes: ['ReadWriteOnce', 'ReadWriteMany'] })], want: 'b' },
    { name: 'selector', claim: pvc({ size: '1Gi', selector: { tier: 'x' } }), volumes: [pv('a', { size: '1Gi' }), pv('b', { size: '2Gi', labels: { tier: 'x' } })], want: 'b' },
    { name: 'bound or released volumes are not candidates', claim: pvc(), volumes: [pv('a', { size: '1Gi', phase: 'Bound', claimRef: { namespace: 'ns', name: 'other' } }), pv('b', { size: '1Gi', phase: 'Released' })] },
    { name: 'a volume pre-bound to the claim wins', claim: pvc({ size: '1Gi' }), volumes: [pv('a', { size: '1Gi' }), pv('z', { size: '9Gi', phase: 'Available', claimRef: { namespace: 'ns', name: 'c' } })], want: 'z' },
    { name: 'block volumes only for block claims', claim: pvc(), volumes: [pv('a', { size: '1Gi', mode: 'Block' })] },
  ];
  for (const k of cases) {
    const got = bestVolumeFor(k.claim, k.volumes);
    assert.equal(got ? nameOf(got) : undefined, k.want, k.name);
  }
});
