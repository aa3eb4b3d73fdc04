import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../machinery/status.js';
import { parseTarget } from './target.js';

function viaUrl(target: string): { pathname: string; query: string[][] } {
  const url = new URL(target, 'http://localhost');
  return { pathname: url.pathname, query: [...url.searchParams] };
}

test('request targets split as the URL parser splits them', () => {
  const targets = [
    '/',
    '/api/v1/namespaces/default/pods',
    '/api/v1/namespaces/default/pods?limit=500&continue=abc%3D%3D',
    '/apis/apps/v1/namespaces/ns-1/deployments/web/scale?fieldManager=kubectl-edit&fieldValidation=Strict',
    '/api/v1/pods?labelSelector=app%3Dweb,tier+in+(a,b)&fieldSelector=spec.nodeName=n1',
    '/api/v1/pods?watch=1&resourceVersion=10&allowWatchBookmarks=true',
    '/api/v1/namespaces/a/pods?x=a b',
    '/api/v1/namespaces/a/pods?x=é',
    '/api/v1/namespaces/a/pods?x=1#frag',
    '/api/v1/namespaces/a/pods#frag',
    '/api/v1/namespaces/a/../b/pods',
    '/api/v1/namespaces/a/./pods',
    '/api/v1/namespaces/a/%2e%2e/pods',
    '/api/v1/namespaces/a/%70ods',
    '/api\\v1\\pods',
    '/api/v1/namespaces/a b/pods',
    '/api/v1/namespaces/é/pods',
    '/api/v1//namespaces//pods/',
    '/openapi/v3/apis/apps/v1?hash=ABC',
    '/api/v1/namespaces/a/pods?',
    '/api/v1/namespaces/a/pods??a=b',
    '/api/v1/namespaces/a/pods?a=b?c',
    '/api/v1/namespaces/a/pods?a="b"&c=<d>',
    '/api/v1/namespaces/a/pods?a=%zz',
    '//evil.example/api',
  ];
  for (const t of targets) {
    const got = parseTarget(t);
    assert.deepEqual({ pathname: got.pathname, query: [...got.searchParams] }, viaUrl(t), t);
  }
});

test('a target the URL parser rejects is a 400', () => {
  assert.throws(() => parseTarget('http://[::1'), (e: unknown) => e instanceof StatusError && e.code === 400);
});
