import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { wallTimeTransformer } from '../common/sql/columns.js';
import { UserEntity } from './user.entity.js';

/** An application password: only its slow hash is stored (spec §4.2). */
@Entity('app_passwords')
@Index('UQ_app_passwords_user_name', ['userId', 'name'], { unique: true })
export class AppPasswordEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_app_passwords_user' })
  user: Relation<UserEntity>;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;

  @Column({ name: 'last_used_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  lastUsedUtc: string | null;
}
