// The statements the service sends for a title update of one event outside any series, as the
// MariaDB general log shows them (two round trips: the locked row with its links, the webhook probe
// and the embedded-rows version; then the update, the change row, the version bump and `COMMIT`),
// for the bench scripts that send them without the service (update-transaction.mjs, service-update.mjs
// driver) or measure them one by one (statement-cpu.mjs, batch-cpu.mjs).

/** Every column of `events`, quoted, in the table's order (as the locked-row read names them). */
export async function eventColumns(promisePool) {
  const [, fields] = await promisePool.query('SELECT * FROM events LIMIT 0');
  return fields.map((field) => `\`${field.name}\``).join(', ');
}

/** A `DATETIME(3)` value as the service writes it: now, in UTC. */
export const utcNow = () => new Date().toISOString().slice(0, 23).replace('T', ' ');

export const lockedRow = (columns, id) => `SELECT ${columns} FROM events WHERE id = ${id} FOR UPDATE`;

/** The organizer, category and tag links of an event, in one statement. */
export const linksOf = (id) =>
  `SELECT 0 AS t, event_id, organizer_id AS term_id, position AS extra FROM event_organizers WHERE event_id IN (${id}) UNION ALL ` +
  `SELECT 1 AS t, event_id, category_id AS term_id, 0 AS extra FROM event_categories WHERE event_id IN (${id}) UNION ALL ` +
  `SELECT 2 AS t, event_id, tag_id AS term_id, 0 AS extra FROM event_tags WHERE event_id IN (${id})`;

/** Whether a webhook subscription is active (snapshots are then taken). */
export const PROBE = 'SELECT id FROM webhook_subscriptions WHERE active = 1 LIMIT 1';
export const EMBEDDED_VERSION = 'SELECT embedded_version FROM data_version WHERE id = 1';
export const BUMP = 'UPDATE data_version SET version = version + 1 WHERE id = 1';

/** `title` is SQL already (a quoted literal). */
export const titleUpdate = (id, at, title) => `UPDATE \`events\` SET \`modified_utc\` = '${at}', \`title\` = ${title} WHERE \`id\` = ${id}`;

export const changeRow = (id, at, authorId) =>
  'INSERT INTO `changes` (`seq`, `kind`, `record_id`, `action`, `author_id`, `status_before`, `status_after`, ' +
  '`protected_before`, `protected_after`, `modified_utc`, `recorded_utc`, `snapshot`) ' +
  `VALUES (NULL, 'event', ${id}, 'updated', ${authorId}, 'publish', 'publish', false, false, '${at}', '${at}', NULL)`;
