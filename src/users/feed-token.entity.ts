import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { wallTimeTransformer } from '../common/sql/columns.js';
import { UserEntity } from './user.entity.js';

/**
 * A feed token: lets a calendar app read `events.ics` and `events/<id>.ics` with its user's rights
 * (`?token=`). Only the SHA-256 of the secret is stored; deleting the user deletes its tokens.
 */
@Entity('feed_tokens')
@Index('UQ_feed_tokens_hash', ['tokenHash'], { unique: true })
@Index('IDX_feed_tokens_user', ['userId'])
export class FeedTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'user_id', type: 'int' })
  userId: number;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_feed_tokens_user' })
  user: Relation<UserEntity>;

  /** Free text to tell a user's tokens apart ("phone", "team calendar"); null when none was given. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  label: string | null;

  /** SHA-256 of the whole token, lower-case hex. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ name: 'created_utc', type: 'datetime', transformer: wallTimeTransformer })
  createdUtc: string;

  @Column({ name: 'last_used_utc', type: 'datetime', nullable: true, transformer: wallTimeTransformer })
  lastUsedUtc: string | null;
}
