import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

const swallow = () => undefined;

interface Pair {
  client: Socket;
  upstream: Socket;
  /** `connecting`: asked to connect; `open`: connected, answers flow to the client. */
  state: 'idle' | 'connecting' | 'open';
}

/**
 * A TCP proxy in front of a database that a test can break and restore:
 * - `cut()`: stops listening and drops every open connection (connections refused and reset);
 * - `freeze()`: a silent database: connections stay open and new ones are accepted, but nothing the
 *   client sends reaches the database any more (swallowed, as dropped packets), so nothing is answered.
 * `restore()` ends either; bytes swallowed during a freeze stay lost.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<Pair>();
  private frozen = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    this.server = createServer((client) => {
      const pair: Pair = { client, upstream: new Socket(), state: 'idle' };
      this.pairs.add(pair);
      const drop = () => {
        client.destroy();
        pair.upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on('error', drop).on('close', drop);
      pair.upstream.on('error', drop).on('close', drop);
      if (this.frozen) client.on('data', swallow);
      else this.connect(pair);
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once('error', reject);
      this.server?.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  private connect(pair: Pair): void {
    pair.state = 'connecting';
    pair.upstream.connect(this.targetPort, this.targetHost, () => {
      pair.state = 'open';
      pair.upstream.pipe(pair.client);
      if (!this.frozen) pair.client.pipe(pair.upstream);
    });
  }

  /** Stops listening and drops every open connection. */
  async cut(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }

  /** The database goes silent: whatever clients send from now on is swallowed; answers already on their way still arrive. */
  freeze(): void {
    this.frozen = true;
    for (const { client, upstream } of this.pairs) {
      client.unpipe(upstream);
      client.on('data', swallow);
    }
  }

  /** Listens again on the same port and forwards again (nothing to do when all is well). */
  async restore(): Promise<void> {
    if (this.frozen) {
      this.frozen = false;
      for (const pair of this.pairs) {
        pair.client.off('data', swallow);
        if (pair.state === 'idle') this.connect(pair);
        else if (pair.state === 'open') pair.client.pipe(pair.upstream);
      }
    }
    if (!this.server) await this.start(this.port);
  }
}
