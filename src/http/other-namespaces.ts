import { Injectable } from '@nestjs/common';
import type { RegisteredRoute, RequestContext } from '../common/http/request-context.js';

type Json = Record<string, unknown>;

/** What the API index and `OPTIONS` need of a namespace besides the configured one (`tec/v1`). */
export interface NamespaceDescription {
  namespace: string;
  /** The `routes` of the namespace index, keyed by their full pattern (`/tec/v1/events`). */
  routes(ctx: RequestContext): Json;
  /** One of them: the body of `OPTIONS` on the route. */
  routeEntry(ctx: RequestContext, route: RegisteredRoute): Json;
}

/**
 * The namespaces a feature serves beside the configured one: the module that serves one registers
 * its description here, and the API index and `OPTIONS` of docs/ read it (neither knows the other).
 */
@Injectable()
export class OtherNamespaces {
  private readonly described = new Map<string, NamespaceDescription>();

  register(description: NamespaceDescription): void {
    this.described.set(description.namespace, description);
  }

  of(namespace: string): NamespaceDescription | undefined {
    return this.described.get(namespace);
  }

  all(): NamespaceDescription[] {
    return [...this.described.values()];
  }
}
