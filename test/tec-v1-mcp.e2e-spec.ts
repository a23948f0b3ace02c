import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { ADMIN, startTestApp, type TestApp } from './support/test-app.js';

/**
 * The vendor's MCP server (`/work/shared/clients/tec-mcp-server`, built: `npm ci && npx tsc` in a
 * copy) driven over stdio against this service, tool call by tool call. It needs packages this
 * project does not depend on, so it runs only when `TEC_MCP_SERVER` names its `dist/index.js`.
 */
const server = process.env.TEC_MCP_SERVER;
const describeWithServer = server ? describe : describe.skip;

type Json = Record<string, any>;

/** A JSON-RPC session over the server's stdin/stdout, one message a line (the MCP stdio transport). */
class McpSession {
  private buffer = '';
  private next = 1;
  private readonly waiting = new Map<number, (message: Json) => void>();

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, end).trim();
        this.buffer = this.buffer.slice(end + 1);
        if (!line.startsWith('{')) continue;
        const message = JSON.parse(line) as Json;
        if (typeof message.id === 'number') this.waiting.get(message.id)?.(message);
      }
    });
  }

  request(method: string, params: Json): Promise<Json> {
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method: string): void {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  }

  /** A tool's answer: whether it is an error, and its texts joined. */
  async tool(name: string, args: Json): Promise<{ error: boolean; text: string }> {
    const { result } = await this.request('tools/call', { name, arguments: args });
    return { error: Boolean(result.isError), text: (result.content as Json[]).map((part) => part.text as string).join('\n') };
  }
}

describeWithServer('the vendor MCP server against tec/v1', () => {
  let target: TestApp;
  let child: ChildProcessWithoutNullStreams;
  let session: McpSession;

  beforeAll(async () => {
    target = await startTestApp();
    await target.app.listen(0, '127.0.0.1');
    const { port } = target.app.getHttpServer().address() as AddressInfo;
    child = spawn(process.execPath, [server as string], {
      env: {
        ...process.env,
        WP_URL: `http://127.0.0.1:${port}`,
        WP_USERNAME: ADMIN.login,
        WP_APP_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'error',
      },
    });
    session = new McpSession(child);
    await session.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } });
    session.notify('notifications/initialized');
  }, 60_000);
  afterAll(async () => {
    child?.kill();
    await target?.close();
  });

  it('starts, and creates, lists, reads, updates and deletes events, venues and organizers', async () => {
    const { result } = await session.request('tools/list', {});
    expect((result.tools as Json[]).map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['tec-calendar-create-update-entities', 'tec-calendar-read-entities', 'tec-calendar-delete-entities']),
    );
    const write = 'tec-calendar-create-update-entities';
    const idOf = (text: string) => Number(/ID: (\d+)/.exec(text)?.[1]);
    const venue = await session.tool(write, { postType: 'venue', data: { title: 'Quay Hall', city: 'Galway', country: 'Ireland' } });
    expect(venue.error).toBe(false);
    const organizer = await session.tool(write, {
      postType: 'organizer',
      data: { title: 'Harbour Friends', email: 'friends@example.org' },
    });
    expect(organizer.error).toBe(false);
    const event = await session.tool(write, {
      postType: 'event',
      data: {
        title: 'Lantern Walk',
        start_date: '2027-05-03 19:00:00',
        end_date: '2027-05-03 21:00:00',
        venues: [idOf(venue.text)],
        organizers: [idOf(organizer.text)],
        cost: '$5',
      },
    });
    expect(event.error).toBe(false);
    const id = idOf(event.text);
    const listed = await session.tool('tec-calendar-read-entities', { postType: 'event', query: 'lantern' });
    expect(listed.text).toContain('Found 1 event matching "lantern"');
    const read = await session.tool('tec-calendar-read-entities', { postType: 'event', id });
    expect(read.text).toContain('"Quay Hall"');
    const updated = await session.tool(write, {
      postType: 'event',
      id,
      data: { title: 'Lantern Walk (moved)', start_date: '2027-05-04 19:00:00', end_date: '2027-05-04 21:00:00' },
    });
    expect(updated.text).toContain('Lantern Walk (moved)');
    const tickets = await session.tool('tec-calendar-read-entities', { postType: 'ticket' });
    expect(tickets).toEqual({ error: true, text: expect.stringContaining('tec_rest_tickets_not_supported') });
    expect((await session.tool('tec-calendar-delete-entities', { postType: 'event', id })).error).toBe(false);
    expect((await session.tool('tec-calendar-delete-entities', { postType: 'event', id, force: true })).error).toBe(false);
    const gone = await session.tool('tec-calendar-read-entities', { postType: 'event', id });
    expect(gone).toEqual({ error: true, text: expect.stringContaining('404') });
  }, 60_000);
});
