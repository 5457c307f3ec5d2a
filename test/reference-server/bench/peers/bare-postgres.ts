/**
 * The physical limit of the PostgreSQL benchmark: a bare `node:http` server over `pg` (the reference
 * server's own driver, pool size and durability setting), in its own process, on the same database as
 * the reference server it is compared with. `POST /v2/tasks` runs one prepared INSERT of a task and
 * answers it; `GET /v2/tasks?list_id=` runs one prepared SELECT of the list's first 50 tasks and answers
 * them. No authentication, no validation, no idempotency, no event: what a durable create and a read
 * cost at the least. `DATABASE_URL` names the database; prints `ready <origin>`.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import pg from 'pg';

const url = process.env['DATABASE_URL'];
if (!url) throw new Error('bare-postgres: set DATABASE_URL');
// As the reference server connects (src/db/postgres.ts): 20 connections, commits not waiting for the disk.
const pool = new pg.Pool({
  connectionString: url,
  max: 20,
  options: `-c synchronous_commit=${process.env['BARE_SYNCHRONOUS_COMMIT'] ?? 'off'}`,
});

const INSERT = {
  name: 'bare_insert',
  text: `insert into tasks (id, list_id, title, content_type, notes, shade, completed, created_at, updated_at, position)
         values ($1, $2, $3, 'task', $4, 'none', 0, $5, $5, $6)`,
};
const SELECT = {
  name: 'bare_select',
  text: `select id, list_id, title, content_type, notes, shade, completed, due_at, created_at
         from tasks where list_id = $1 and archived_at is null order by position, id limit 50`,
};

let position = -1;

function answer(response: import('node:http').ServerResponse, status: number, data: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ data, meta: { request_id: `req_${randomBytes(8).toString('hex')}` } }));
}

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const path = new URL(request.url ?? '/', 'http://bare');
    const work =
      request.method === 'POST'
        ? (async () => {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              list_id: string;
              title: string;
              notes?: string;
            };
            const at = new Date().toISOString();
            const id = `tsk_${randomBytes(12).toString('hex')}`;
            await pool.query({
              ...INSERT,
              values: [id, body.list_id, body.title, body.notes ?? null, at, position--],
            });
            return {
              id,
              list_id: body.list_id,
              title: body.title,
              notes: body.notes ?? null,
              created_at: at,
            };
          })()
        : pool.query({ ...SELECT, values: [path.searchParams.get('list_id')] }).then(({ rows }) => rows);
    work.then(
      (data) => answer(response, request.method === 'POST' ? 201 : 200, data),
      (error: Error) => answer(response, 500, { error: error.message }),
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`ready http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
