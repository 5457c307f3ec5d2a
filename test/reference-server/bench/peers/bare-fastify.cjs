// The start-up baseline: Fastify with one route, listening on a free port and printing the same ready line
// as the reference server. CommonJS with the compile cache on, as the server's start command runs its
// bundle, so the difference is the server's own work (database, migrations, its routes).
require('node:module').enableCompileCache?.();
const Fastify = require('fastify');

const app = Fastify();
app.get('/', async () => ({ ok: true }));
app.listen({ port: 0, host: '127.0.0.1' }).then((origin) => {
  process.stdout.write(`ready ${origin}\n`);
});
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
