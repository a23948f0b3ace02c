import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  json: { type: string; timestamp: string; data: Record<string, any> };
}

export interface Receiver {
  /** `http://127.0.0.1:<port><path>`. */
  url: (path?: string) => string;
  received: Received[];
  /** What the receiver answers for a request (default 200 `ok`). */
  answer: (reply: (req: Received, index: number) => { status: number; body?: string } | 'hang') => void;
  /** Requests to `path`, verified with the Standard Webhooks reference package (throws on a bad signature). */
  verified: (path: string, secret: string) => Received[];
  /** Waits until `ready` holds (polling), or fails after `ms`. */
  waitFor: (ready: () => boolean, ms?: number, what?: string) => Promise<void>;
  close: () => Promise<void>;
}

/** A real HTTP receiver on loopback, as an integration would run one. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let reply: (req: Received, index: number) => { status: number; body?: string } | 'hang' = () => ({ status: 200, body: 'ok' });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Received['json'];
      try {
        json = JSON.parse(body) as Received['json'];
      } catch {
        json = { type: 'unparsable', timestamp: '', data: {} };
      }
      const entry: Received = { path: req.url ?? '/', headers: req.headers, body, at: Date.now(), json };
      received.push(entry);
      const answer = reply(entry, received.filter((other) => other.path === entry.path).length - 1);
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'content-type': 'text/plain' });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (next) => {
      reply = next;
    },
    verified: (path, secret) => {
      const verifier = new Webhook(secret);
      return received
        .filter((entry) => entry.path === path)
        .map((entry) => {
          verifier.verify(entry.body, {
            'webhook-id': String(entry.headers['webhook-id']),
            'webhook-timestamp': String(entry.headers['webhook-timestamp']),
            'webhook-signature': String(entry.headers['webhook-signature']),
          });
          return entry;
        });
    },
    waitFor: async (ready, ms = 15000, what = 'the deliveries') => {
      const until = Date.now() + ms;
      while (!ready()) {
        if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
