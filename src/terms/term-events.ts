/**
 * What the taxonomy rules need to know of events, without importing them: the events module
 * provides it (token {@link TERM_EVENTS}).
 */
export interface TermEvents {
  /** Whether an event (in any status) has this id. */
  exists(id: number): Promise<boolean>;
}

export const TERM_EVENTS = Symbol('TERM_EVENTS');
