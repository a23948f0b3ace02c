// Yardstick: plain `node:http` answering each route with the service's own answer held in memory
// (status, headers and body, bench/answers.mjs), and `304` when `If-None-Match` names the answer's
// entity tag. No framework, no routing beyond a path test, no checks, the request body not read.
//
//   BYTES_FILE=/tmp/answers.json PORT=3920 node bench/memory-server.mjs
import { createServer } from 'node:http';
import { loadAnswers, routeOf } from './answers.mjs';

const answers = loadAnswers();

createServer((req, res) => {
  if (req.url === '/health/ready') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  const answer = answers.get(routeOf(req.method, req.url));
  if (!answer) return res.writeHead(404).end();
  if (req.method === 'GET' && answer.etag !== null && req.headers['if-none-match'] === answer.etag) {
    const { 'content-type': _type, ...headers } = answer.headers;
    return res.writeHead(304, headers).end();
  }
  res.writeHead(answer.status, { ...answer.headers, 'content-length': answer.body.length }).end(answer.body);
}).listen(Number(process.env.PORT ?? 3920), '127.0.0.1');
