import {
  type CallHandler,
  type DynamicModule,
  type ExecutionContext,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type NestInterceptor,
  type NestMiddleware,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { NextFunction, Request, Response } from 'express';
import { from, mergeMap, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { CONSISTENCY_COOKIE, CONSISTENCY_HEADER, onReplica } from '../common/sql/read-routing.js';
import type { DatabaseConfig, HttpConfig, MysqlConfig } from '../config/app-config.js';
import { DatabaseMetrics } from './database-metrics.js';
import { ReplicaSet } from './replica-set.js';
import { installReadRouting, primaryPosition } from './replication-routing.js';

/** How long a browser keeps the token: far longer than any replica may lag before it is skipped. */
const COOKIE_MAX_AGE_SECONDS = 300;

const NO_REPLICAS: MysqlConfig = {
  kind: 'mysql',
  url: '',
  poolSize: 1,
  connectTimeoutMs: 1000,
  queryTimeoutMs: 1000,
  acquireTimeoutMs: 1000,
  probeIntervalMs: 1000,
  connectAttempts: 1,
  connectRetryDelayMs: 0,
  replicaUrls: [],
  replicaMaxLagMs: 1000,
  replicaWaitMs: 0,
};

/** The replica set of this process; starts its checks once the data source is up, stops on shutdown. */
@Injectable()
export class ReplicaSetLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Replicas');

  constructor(
    @Inject(ReplicaSet) private readonly replicas: ReplicaSet,
    @Inject(getDataSourceToken()) private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.replicas.enabled) return;
    installReadRouting(this.dataSource, this.replicas);
    await this.replicas.start();
    const usable = this.replicas.replicas.filter((replica) => this.replicas.usable(replica.id)).length;
    this.logger.log(`Reads go to ${usable} of ${this.replicas.replicas.length} replicas (checked every ${this.replicas.intervalMs} ms).`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.replicas.stop();
  }
}

/** The consistency token a request presents: the header, else the cookie; undefined when neither. */
export function presentedToken(req: Request): string | undefined {
  const header = req.headers[CONSISTENCY_HEADER.toLowerCase()];
  if (typeof header === 'string' && header.trim() !== '') return header.trim();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== CONSISTENCY_COOKIE) continue;
    try {
      return decodeURIComponent(value.join('=')) || undefined;
    } catch {
      return '';
    }
  }
  return undefined;
}

/**
 * Chooses the server that answers the plain reads of a `GET` (after credentials were checked on the
 * primary): a usable replica, which must have applied the request's consistency token when it
 * presents one (else the primary). Writes and everything else stay on the primary.
 */
@Injectable()
export class ReadRoutingMiddleware implements NestMiddleware {
  constructor(@Inject(ReplicaSet) private readonly replicas: ReplicaSet) {}

  async use(req: Request, _res: Response, next: NextFunction): Promise<void> {
    if (!this.replicas.enabled || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const replica = await this.replicas.chooseFor(presentedToken(req));
    if (replica === null) return next();
    onReplica({ replica, holdsDataVersion: (version) => this.replicas.holdsDataVersion(replica, version) }, next);
  }
}

/**
 * Gives every successful write the primary's replication position once it committed, in the
 * `X-Consistency-Token` header and the `calendar_consistency` cookie (only when replicas are
 * configured: a single database needs no token).
 */
@Injectable()
export class ConsistencyTokenInterceptor implements NestInterceptor {
  private readonly secure: boolean;

  constructor(
    @Inject(ReplicaSet) private readonly replicas: ReplicaSet,
    @Inject(ConfigService) config: ConfigService,
  ) {
    this.secure = config.getOrThrow<HttpConfig>('http').publicUrl.startsWith('https:');
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    if (!this.replicas.enabled || req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(mergeMap((body: unknown) => from(this.stamp(res).then(() => body))));
  }

  private async stamp(res: Response): Promise<void> {
    let token: string;
    try {
      token = await this.replicas.primaryPosition();
    } catch {
      return; // the write committed; without a token the next read may be as stale as a replica
    }
    if (token === '' || res.headersSent) return;
    res.setHeader(CONSISTENCY_HEADER, token);
    const attributes = [`Max-Age=${COOKIE_MAX_AGE_SECONDS}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', ...(this.secure ? ['Secure'] : [])];
    res.append('Set-Cookie', `${CONSISTENCY_COOKIE}=${encodeURIComponent(token)}; ${attributes.join('; ')}`);
  }
}

/**
 * Read replicas (`DATABASE_REPLICA_URLS`): the replica set and its checks, the routing of reads, and
 * the consistency tokens of writes. Without replicas it changes nothing.
 */
@Global()
@Module({
  providers: [
    {
      provide: ReplicaSet,
      inject: [ConfigService, getDataSourceToken()],
      useFactory: (config: ConfigService, dataSource: DataSource) => {
        const database = config.getOrThrow<DatabaseConfig>('database');
        const flavor = dataSource.options.type === 'mariadb' ? 'mariadb' : 'mysql';
        return new ReplicaSet(database.kind === 'mysql' ? database : NO_REPLICAS, flavor, () => primaryPosition(dataSource, flavor));
      },
    },
    ReplicaSetLifecycle,
    ReadRoutingMiddleware,
    DatabaseMetrics,
  ],
  exports: [ReplicaSet, ReadRoutingMiddleware],
})
export class ReplicationModule {
  /** With read replicas (`DATABASE_REPLICA_URLS` or `DATABASE_REPLICA_HOSTS`), writes get their consistency token; without, no interceptor is needed. */
  static forRoot(withReplicas: boolean): DynamicModule {
    return {
      module: ReplicationModule,
      providers: withReplicas ? [{ provide: APP_INTERCEPTOR, useClass: ConsistencyTokenInterceptor }] : [],
    };
  }
}
