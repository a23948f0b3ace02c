import { Column, Entity, type EntityManager, PrimaryColumn } from 'typeorm';

/**
 * One row whose counter moves, in the transaction of the change or after it, with everything that
 * can turn credentials away that were accepted, or change what they allow: a password revoked, a
 * user's role changed, a failed login or feed token counted (it may lock an address or a login). A
 * process reuses what a check of credentials came to only while the counter still holds the value
 * read with that check (`AuthService`), so every process sees such a change on its next request.
 */
@Entity('credentials_version')
export class CredentialsVersionEntity {
  @PrimaryColumn({ type: 'int' })
  id: number;

  @Column({ type: 'bigint' })
  version: string;
}

/**
 * The credentials version: a string (MySQL answers a bigint as one), or null without the row, which
 * then matches nothing.
 */
export async function readCredentialsVersion(manager: EntityManager): Promise<string | null> {
  // written out: every request with credentials runs it
  const [row]: Array<{ version: string | number | null }> = await manager.query('SELECT version FROM credentials_version WHERE id = 1');
  return row === undefined || row.version === null ? null : String(row.version);
}

/** Moves the credentials version; in the transaction of the change it stands for, or after its commit, never before. */
export async function bumpCredentialsVersion(manager: EntityManager): Promise<void> {
  await manager.query('UPDATE credentials_version SET version = version + 1 WHERE id = 1');
}
