/**
 * The baseline: a bare `node:http` server answering a fixed JSON envelope, in its own process. Every other
 * server's throughput is reported as a ratio of this one measured in the same run.
 */
import { createServer } from 'node:http';

const body = JSON.stringify({
  data: { user_id: 'usr_bench', email: 'bench@example.com', display_name: 'Bench', key: null },
  meta: { request_id: 'req_bench' },
});

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`ready http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
