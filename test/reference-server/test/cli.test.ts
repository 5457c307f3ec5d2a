import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureSeed, SECRETS } from './helpers/fixtures.ts';
import { readBody, runCli, spawnServer } from './helpers/server.ts';

const workDir = mkdtempSync(join(tmpdir(), 'threadwork-cli-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function writeSeed(name: string, seed: unknown): string {
  const path = join(workDir, name);
  writeFileSync(path, JSON.stringify(seed));
  return path;
}

const me = (origin: string) =>
  fetch(`${origin}/v2/me`, { headers: { authorization: `Bearer ${SECRETS.adaFull}` } });

describe('cli', () => {
  it('prints the ready line, serves requests and exits 0 on SIGTERM', async () => {
    const seed = writeSeed('fixture.json', fixtureSeed);
    const server = await spawnServer(['--port', '0', '--db', ':memory:', '--seed', seed]);
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await me(server.origin);
    expect(response.status).toBe(200);
    expect((await readBody(response)).data.user_id).toBe('usr_ada');
    expect(await server.stop()).toBe(0);
  });

  it('exits 2 with a message on an unknown flag or a bad value', async () => {
    const unknown = await runCli(['--colour', 'red']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--colour');
    const badPort = await runCli(['--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('--port');
    expect(badPort.stdout).toBe('');
  });

  it('refuses a seed with an unknown key, naming its path', async () => {
    const broken = structuredClone(fixtureSeed) as { boards: { lists: Record<string, unknown>[] }[] };
    broken.boards[0]!.lists[1]!['colour'] = 'red';
    const result = await runCli([
      '--port',
      '0',
      '--db',
      ':memory:',
      '--seed',
      writeSeed('broken.json', broken),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('boards[0].lists[1].colour: unknown key');
    expect(result.stdout).toBe('');
  });

  it('fails fast, saying why, when DATABASE_URL is not a PostgreSQL URL or no server answers there', async () => {
    await expect(
      spawnServer(['--port', '0'], { DATABASE_URL: 'mysql://localhost/threadwork' }),
    ).rejects.toThrow(/DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/);
    // Port 1 on loopback: nothing listens there.
    await expect(
      spawnServer(['--port', '0'], { DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/threadwork' }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  it('keeps data in a database file across restarts, and refuses to seed it twice', async () => {
    const db = join(workDir, 'nested', 'threadwork.db');
    const seed = writeSeed('persist.json', fixtureSeed);
    const first = await spawnServer(['--port', '0', '--db', db, '--seed', seed]);
    const created = await fetch(`${first.origin}/v2/boards`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRETS.adaFull}`, 'content-type': 'application/json' },
      body: JSON.stringify({ team_id: 'team_acme', name: 'Survives restarts' }),
    });
    const boardId = (await readBody(created)).data.id as string;
    expect(await first.stop()).toBe(0);

    const second = await spawnServer(['--port', '0', '--db', db]);
    const board = await fetch(`${second.origin}/v2/boards/${boardId}`, {
      headers: { authorization: `Bearer ${SECRETS.adaFull}` },
    });
    expect((await readBody(board)).data.name).toBe('Survives restarts');
    expect(await second.stop()).toBe(0);

    const reseed = await runCli(['--port', '0', '--db', db, '--seed', seed]);
    expect(reseed.code).toBe(1);
    expect(reseed.stderr).toContain('not empty');
    // Three server processes one after another: more than the default 5 s on a busy machine.
  }, 20_000);
});
