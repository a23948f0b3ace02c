import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { nowUtcWall } from '../common/dates/wall-time.js';
import { isUniqueViolation } from '../common/errors/db-errors.js';
import { AppPasswordEntity } from './app-password.entity.js';
import { generatePassword, hashPassword, isAcceptablePassword } from './password-hash.js';
import { isUserRole } from '../common/auth/roles.js';
import { UserEntity } from './user.entity.js';
import { bumpCredentialsVersion } from './credentials-version.js';

const LOGIN = /^[A-Za-z0-9._@-]{1,60}$/;
const PASSWORD_NAME = /^[^\p{Cc}]{1,100}$/u;

/** A failure of an account operation, with a message meant for the operator. */
export class AccountError extends Error {}

export interface CreatedPassword {
  user: UserEntity;
  name: string;
  password: string;
}

/** Users and their application passwords (spec §4.1-4.4). */
@Injectable()
export class UsersService {
  private readonly logger = new Logger('Users');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async createUser(login: string, role: string, password?: string, passwordName = 'default'): Promise<CreatedPassword> {
    if (!LOGIN.test(login)) throw new AccountError(`Invalid login "${login}": use 1-60 letters, digits, ".", "_", "@" or "-".`);
    if (!isUserRole(role)) throw new AccountError(`Invalid role "${role}": use administrator, editor, author, contributor or subscriber.`);
    const plain = this.acceptPassword(password);
    const passwordHash = await hashPassword(plain);
    const now = nowUtcWall();
    try {
      return await this.dataSource.transaction(async (manager) => {
        if (await manager.existsBy(UserEntity, { loginKey: login.toLowerCase() })) {
          throw new AccountError(`A user with the login "${login}" already exists.`);
        }
        const user = await manager.save(
          UserEntity,
          manager.create(UserEntity, { login, loginKey: login.toLowerCase(), role, createdUtc: now }),
        );
        await manager.save(
          AppPasswordEntity,
          manager.create(AppPasswordEntity, { userId: user.id, name: passwordName, passwordHash, createdUtc: now, lastUsedUtc: null }),
        );
        return { user, name: passwordName, password: plain };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AccountError(`A user with the login "${login}" already exists.`);
      throw error;
    }
  }

  async listUsers(): Promise<Array<{ user: UserEntity; passwords: number }>> {
    const users = await this.dataSource.getRepository(UserEntity).find({ order: { id: 'ASC' } });
    const counts = await this.dataSource
      .getRepository(AppPasswordEntity)
      .createQueryBuilder('p')
      .select('p.user_id', 'userId')
      .addSelect('COUNT(*)', 'n')
      .groupBy('p.user_id')
      .getRawMany<{ userId: number; n: string | number }>();
    const byUser = new Map(counts.map((row) => [Number(row.userId), Number(row.n)]));
    return users.map((user) => ({ user, passwords: byUser.get(user.id) ?? 0 }));
  }

  async setRole(login: string, role: string): Promise<UserEntity> {
    if (!isUserRole(role)) throw new AccountError(`Invalid role "${role}": use administrator, editor, author, contributor or subscriber.`);
    const user = await this.requireUser(login);
    user.role = role;
    return this.dataSource.transaction(async (manager) => {
      const saved = await manager.save(UserEntity, user);
      await bumpCredentialsVersion(manager);
      return saved;
    });
  }

  async createAppPassword(login: string, name: string, password?: string): Promise<CreatedPassword> {
    if (!PASSWORD_NAME.test(name)) throw new AccountError('The password name must be 1-100 characters without control characters.');
    const user = await this.requireUser(login);
    const plain = this.acceptPassword(password);
    const passwordHash = await hashPassword(plain);
    const repository = this.dataSource.getRepository(AppPasswordEntity);
    if (await repository.existsBy({ userId: user.id, name })) {
      throw new AccountError(`${user.login} already has an application password named "${name}".`);
    }
    try {
      await repository.insert({ userId: user.id, name, passwordHash, createdUtc: nowUtcWall(), lastUsedUtc: null });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AccountError(`${user.login} already has an application password named "${name}".`);
      throw error;
    }
    return { user, name, password: plain };
  }

  async listAppPasswords(login: string): Promise<AppPasswordEntity[]> {
    const user = await this.requireUser(login);
    return this.dataSource.getRepository(AppPasswordEntity).find({ where: { userId: user.id }, order: { id: 'ASC' } });
  }

  /** Revokes one password by name, or all of them when `name` is null; returns how many were removed. */
  async revokeAppPassword(login: string, name: string | null): Promise<number> {
    const user = await this.requireUser(login);
    const removed = await this.dataSource.transaction(async (manager) => {
      const result = await manager.delete(AppPasswordEntity, name === null ? { userId: user.id } : { userId: user.id, name });
      await bumpCredentialsVersion(manager);
      return result.affected ?? 0;
    });
    if (name !== null && removed === 0) throw new AccountError(`${user.login} has no application password named "${name}".`);
    return removed;
  }

  async userExists(id: number): Promise<boolean> {
    return this.dataSource.getRepository(UserEntity).existsBy({ id });
  }

  async countUsers(): Promise<number> {
    return this.dataSource.getRepository(UserEntity).count();
  }

  /**
   * Creates the first administrator when there is no user at all (spec §4.3). Returns who was
   * created, with the generated password when none was configured (the caller shows it once), or
   * null when there already was a user.
   */
  async bootstrapAdministrator(
    login: string | undefined,
    password: string | undefined,
  ): Promise<{ login: string; generatedPassword: string | null } | null> {
    if ((await this.countUsers()) > 0) return null;
    let created: CreatedPassword;
    try {
      created = await this.createUser(login ?? 'admin', 'administrator', password, 'bootstrap');
    } catch (error) {
      if (error instanceof AccountError) return null; // another process created it first
      throw error;
    }
    if (password !== undefined) this.logger.log(`Created the administrator "${created.user.login}" from ADMIN_LOGIN/ADMIN_PASSWORD.`);
    return { login: created.user.login, generatedPassword: password === undefined ? created.password : null };
  }

  /** The user with this login (any case), or an `AccountError` naming it. */
  async requireUser(login: string): Promise<UserEntity> {
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ loginKey: login.toLowerCase() });
    if (!user) throw new AccountError(`No user has the login "${login}".`);
    return user;
  }

  private acceptPassword(password: string | undefined): string {
    if (password === undefined) return generatePassword();
    if (!isAcceptablePassword(password)) {
      throw new AccountError('The password must be 8-128 characters without whitespace or control characters.');
    }
    return password;
  }
}
