import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { wallTimeTransformer } from '../common/sql/columns.js';

/**
 * One failed Basic login. Kept in the database, not in process memory, so that every replica counts
 * the same failures and the command-line tool can list and lift locks of a running server. Rows
 * older than the window are pruned on the next failure.
 */
@Entity('login_failures')
@Index('IDX_login_failures_address', ['address', 'failedUtc'])
@Index('IDX_login_failures_login', ['loginKey', 'failedUtc'])
@Index('IDX_login_failures_time', ['failedUtc'])
export class LoginFailureEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Client address as Express reports it (`req.ip`, after `TRUST_PROXY`). */
  @Column({ type: 'varchar', length: 64 })
  address: string;

  /** Lower-cased login as sent, known or not (cut to the column length). */
  @Column({ name: 'login_key', type: 'varchar', length: 100 })
  loginKey: string;

  @Column({ name: 'failed_utc', type: 'datetime', transformer: wallTimeTransformer })
  failedUtc: string;
}
