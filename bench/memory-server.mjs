// Yardstick of the cached reads: plain `node:http` answering each path with bytes it holds in memory
// (the service's own answers, fetched once by the benchmark and handed over in a JSON file), with
// their content type and length and nothing else. No routing beyond a map lookup, no checks.
//
//   BYTES_FILE=/tmp/bytes.json PORT=3920 node bench/memory-server.mjs
//   (the file: {"<path>": {"contentType": "...", "body": "<base64>"}, ...})
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answers = new Map(
  Object.entries(JSON.parse(readFileSync(process.env.BYTES_FILE, 'utf8'))).map(([path, answer]) => [
    path,
    { contentType: answer.contentType, body: Buffer.from(answer.body, 'base64') },
  ]),
);

createServer((req, res) => {
  if (req.url === '/health/ready') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  const answer = answers.get(req.url);
  if (!answer) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': answer.contentType, 'content-length': answer.body.length }).end(answer.body);
}).listen(Number(process.env.PORT ?? 3920), '127.0.0.1');
