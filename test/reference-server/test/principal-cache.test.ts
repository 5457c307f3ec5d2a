import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import type { Principal } from '../src/domain/principal.ts';
import {
  cachedPrincipal,
  cachePrincipal,
  changeCredentials,
  credentialGeneration,
} from '../src/domain/principal-cache.ts';

const ada: Principal = {
  userId: 'usr_ada',
  email: 'ada@example.com',
  displayName: null,
  keyId: 'key_x',
  keyType: 'v2',
  scopes: new Set(),
};

describe('principal cache', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await openDatabase({ path: ':memory:' });
  });
  afterAll(() => handle.close());

  it('keeps a principal read while credentials stood still', () => {
    const { db } = handle;
    cachePrincipal(db, 'test:still', ada, credentialGeneration(db));
    expect(cachedPrincipal(db, 'test:still')?.principal).toBe(ada);
  });

  it('forgets every principal when credentials change, and keeps none read before the change', async () => {
    const { db } = handle;
    cachePrincipal(db, 'test:before', ada, credentialGeneration(db));
    const readAt = credentialGeneration(db);
    await changeCredentials(db, async () => {});
    expect(cachedPrincipal(db, 'test:before')).toBeUndefined();
    // A read that began before the change must not put what it read back.
    cachePrincipal(db, 'test:racing', ada, readAt);
    expect(cachedPrincipal(db, 'test:racing')).toBeUndefined();
  });

  it('forgets even when the change fails, and keeps nothing read while it runs', async () => {
    const { db } = handle;
    cachePrincipal(db, 'test:kept', ada, credentialGeneration(db));
    const failing = changeCredentials(db, async () => {
      cachePrincipal(db, 'test:during', ada, credentialGeneration(db));
      throw new Error('write failed');
    });
    await expect(failing).rejects.toThrow('write failed');
    expect(cachedPrincipal(db, 'test:kept')).toBeUndefined();
    expect(cachedPrincipal(db, 'test:during')).toBeUndefined();
  });

  it('is the only way the server writes keys or users: every module that does goes through changeCredentials', () => {
    const src = new URL('../src/', import.meta.url).pathname;
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.startsWith('db/'),
    );
    const writers = files.filter((file) =>
      /(insertInto|updateTable|deleteFrom)\(\s*'(api_keys|users)'|insert\(\s*'(api_keys|users)'/.test(
        readFileSync(join(src, file), 'utf8'),
      ),
    );
    expect(writers.sort()).toEqual(['seed/load-seed.ts', 'storage/api-keys.ts']);
    // A repository's writes run where it is imported: each module that does goes through changeCredentials.
    const importersOf = (repository: string) =>
      files.filter((file) =>
        [...readFileSync(join(src, file), 'utf8').matchAll(/from '(\.[^']+)'/g)].some(
          (match) => join(dirname(file), match[1] as string) === repository,
        ),
      );
    const runners = writers.flatMap((file) => (file.startsWith('storage/') ? importersOf(file) : [file]));
    expect(runners.sort()).toEqual(['domain/api-keys.ts', 'seed/load-seed.ts']);
    for (const file of runners)
      expect(readFileSync(join(src, file), 'utf8')).toContain('changeCredentials(db, ');
  });
});
