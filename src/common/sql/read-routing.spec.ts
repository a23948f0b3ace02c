import { isPlainRead, onPrimary, onReplica, requireDataVersion, routedReplica } from './read-routing.js';

describe('read routing', () => {
  it('takes plain SELECTs as reads a replica may answer, nothing that writes or locks', () => {
    expect(isPlainRead('SELECT id FROM events WHERE id = ?')).toBe(true);
    expect(isPlainRead('  (SELECT 1) UNION (SELECT 2)')).toBe(true);
    expect(isPlainRead('WITH t AS (SELECT 1) SELECT * FROM t')).toBe(true);
    expect(isPlainRead('SELECT id FROM webhook_deliveries FOR UPDATE SKIP LOCKED')).toBe(false);
    expect(isPlainRead('SELECT id FROM events LOCK IN SHARE MODE')).toBe(false);
    expect(isPlainRead('SELECT GET_LOCK("x", 1)')).toBe(false);
    expect(isPlainRead('UPDATE data_version SET version = version + 1')).toBe(false);
    expect(isPlainRead('INSERT INTO events SELECT * FROM other')).toBe(false);
    expect(isPlainRead('SET STATEMENT eq_range_index_dive_limit = 1 FOR SELECT kind FROM content_translations')).toBe(true);
    expect(isPlainRead('SET STATEMENT a = 1, b = 2 FOR SELECT id FROM events FOR UPDATE')).toBe(false);
    expect(isPlainRead('SET STATEMENT a = 1 FOR UPDATE events SET title = ?')).toBe(false);
  });

  it('routes to the replica inside onReplica, to the primary outside it and inside onPrimary', async () => {
    expect(routedReplica()).toBeNull();
    await onReplica({ replica: 'SLAVE0', holdsDataVersion: () => true }, async () => {
      await Promise.resolve();
      expect(routedReplica()).toBe('SLAVE0');
      await onPrimary(async () => {
        await Promise.resolve();
        expect(routedReplica()).toBeNull();
      });
      expect(routedReplica()).toBe('SLAVE0');
    });
  });

  it('sends the rest of a request to the primary when its replica may not hold the data version', () => {
    onReplica({ replica: 'SLAVE0', holdsDataVersion: (version) => Number(version) <= 7 }, () => {
      requireDataVersion('7');
      expect(routedReplica()).toBe('SLAVE0');
      requireDataVersion('8');
      expect(routedReplica()).toBeNull();
    });
  });
});
