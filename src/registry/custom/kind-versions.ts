// The served kinds of one CustomResourceDefinition: a KindVersion per served version (and the
// storage version, served or not, which holds the objects), named by the CRD's accepted names,
// each with a struct made from its schema's top-level fields (metadata as ObjectMeta, the rest
// kept as JSON for the schema machinery) and conversion `None` between versions.
import { ListMeta, ObjectMeta } from '../../api/meta/v1.js';
import { dynamicStruct, field, listOf, t, type Fields } from '../../api/schema/dsl.js';
import type { KindVersion, KubeObject } from '../../api/schema/kind.js';
import { storageVersion, type CRDNames, type CRDVersion, type CustomResourceDefinition } from './crd.js';
import type { VersionSchema } from './schema.js';
import { WebhookConversion, type ConversionWebhook } from './conversion.js';

/** The names a CRD is served under: its accepted names (the spec's until the naming check ran). */
export function servedNames(crd: CustomResourceDefinition): CRDNames {
  const accepted = crd.status?.acceptedNames;
  return accepted && accepted.plural ? accepted : crd.spec.names;
}

/** OpenAPI's name of a custom kind: the group reversed, the version, the kind (`com.example.stable.v1.CronTab`). */
export function definitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function objectStruct(crd: CustomResourceDefinition, v: CRDVersion, kind: string) {
  const schema = v.schema?.openAPIV3Schema;
  const fields: Fields = {
    apiVersion: field(t.string, 0),
    kind: field(t.string, 0),
    metadata: field(ObjectMeta, 1),
  };
  for (const name of Object.keys(schema?.properties ?? {}).sort()) {
    if (name in fields) continue;
    fields[name] = field(t.rawExtension, 0, { pointer: true });
  }
  const open = schema === undefined || schema['x-kubernetes-preserve-unknown-fields'] === true;
  return dynamicStruct(definitionName(crd.spec.group, v.name, kind), fields, { open });
}

/**
 * The KindVersions of a CRD: `storage` (the hub) and the served ones (which include it when it
 * is served). `schemaOf` gives each version's compiled schema.
 */
export function customKindVersions(crd: CustomResourceDefinition, schemaOf: (version: string) => VersionSchema, webhook?: ConversionWebhook): { storage: KindVersion; served: KindVersion[] } {
  const names = servedNames(crd);
  const conversion = crd.spec.conversion?.strategy === 'Webhook' && webhook ? new WebhookConversion(crd, webhook) : undefined;
  const group = crd.spec.group;
  const stored = storageVersion(crd);
  const make = (v: CRDVersion, hub: KindVersion | undefined): KindVersion => {
    const type = objectStruct(crd, v, names.kind);
    const listKind = names.listKind || `${names.kind}List`;
    const list = dynamicStruct(definitionName(group, v.name, listKind), {
      apiVersion: field(t.string, 0),
      kind: field(t.string, 0),
      metadata: field(ListMeta, 1),
      items: field(listOf(type), 2, { omitempty: false, required: true }),
    });
    const schema = schemaOf(v.name);
    const apiVersion = `${group}/${v.name}`;
    const deprecationWarning = v.deprecated ? (v.deprecationWarning ?? `${apiVersion} ${names.kind} is deprecated`) : undefined;
    const kv: KindVersion = {
      group,
      version: v.name,
      kind: names.kind,
      resource: names.plural,
      singular: names.singular || names.kind.toLowerCase(),
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      namespaced: crd.spec.scope === 'Namespaced',
      type,
      list,
      storage: hub === undefined,
      jsonOnly: true,
      defaults: (obj) => schema.applyDefaults(obj),
      subresources: { status: v.subresources?.status !== undefined, scale: v.subresources?.scale !== undefined },
      custom: {
        crd: crd.metadata.name,
        hub,
        listKind,
        deprecationWarning,
        prune: (obj) => schema.prune(obj),
        prepare: conversion && hub ? (objects, to) => conversion.prepare(objects, to) : undefined,
      },
    };
    if (hub) {
      const hubApiVersion = `${group}/${hub.version}`;
      // Strategy None: only the apiVersion changes. Webhook: what the webhook answered.
      kv.toHub = conversion ? (obj: KubeObject) => conversion.convert(obj, hubApiVersion) : (obj: KubeObject) => ({ ...obj, apiVersion: hubApiVersion });
      kv.fromHub = conversion ? (obj: KubeObject) => conversion.convert(obj, apiVersion) : (obj: KubeObject) => ({ ...obj, apiVersion });
    }
    return kv;
  };
  const storage = make(stored, undefined);
  const served = crd.spec.versions.filter((v) => v.served).map((v) => (v === stored ? storage : make(v, storage)));
  return { storage, served };
}
