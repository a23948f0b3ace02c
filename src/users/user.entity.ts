import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { wallTimeTransformer } from '../common/sql/columns.js';
import type { UserRole } from '../common/auth/roles.js';

@Entity('users')
@Index('UQ_users_login_key', ['loginKey'], { unique: true })
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** As given when the user was created. */
  @Column({ type: 'varchar', length: 60 })
  login: string;

  /** Lower-cased login: logins are unique and matched case-insensitively. */
  @Column({ name: 'login_key', type: 'varchar', length: 60 })
  loginKey: string;

  @Column({ type: 'varchar', length: 20 })
  role: UserRole;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;
}
